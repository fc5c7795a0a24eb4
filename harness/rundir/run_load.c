#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
/* Loading a run directory: summary.json, every cell directory, and what they hold. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parse/console_scan.h"
#include "rundir/cell_id.h"
#include "rundir/run_load.h"
#include "lib/util.h"

/* A key of the cell record, at top level or under "params". */
static json_t *cell_get(json_t *cj, const char *key)
{
	json_t *v = json_object_get(cj, key);

	if (!v)
		v = json_object_get(json_object_get(cj, "params"), key);
	return v;
}

static char *dup_str(json_t *v)
{
	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_object(v)) {	/* {"label": …} or {"name": …} */
		json_t *l = json_object_get(v, "label");

		return dup_str(l ? l : json_object_get(v, "name"));
	}
	return NULL;
}

static void set_str(char **dst, json_t *v)
{
	char *s = dup_str(v);

	if (s && !*s) {		/* "signature": "" means none */
		free(s);
		s = NULL;
	}
	if (s) {
		free(*dst);
		*dst = s;
	}
}

static void set_int(int *dst, json_t *v)
{
	if (json_is_integer(v))
		*dst = (int)json_integer_value(v);
}

/* Is the id's last '-' part (before end) r<digits>? */
static bool ends_in_repeat(const char *id, const char *end)
{
	const char *p = end;

	while (p > id && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return p < end && p - id >= 2 && p[-1] == 'r' && p[-2] == '-';
}

/*
 * v<vcpus>-<workload>-<kernel>-<noise>-r<repeat>[-f<fault slug>][-x<action>];
 * kernel may hold dashes, the suffixes do not.
 */
static void parse_id(struct rep_cell *c, const char *full)
{
	const char *w, *k, *rr, *nz, *id;
	char *end, *base = strdup(full);
	long v;

	if (!base)
		return;
	id = base;
	while (!ends_in_repeat(id, id + strlen(id))) {
		char *dash = strrchr(base, '-');

		if (!dash)
			break;
		*dash = '\0';
	}
	if (id[0] != 'v') {
		free(base);
		return;
	}
	v = strtol(id + 1, &end, 10);
	if (end == id + 1 || *end != '-') {
		free(base);
		return;
	}
	w = end + 1;
	k = strchr(w, '-');
	rr = strrchr(id, '-');
	if (!k || !rr || rr <= k || rr[1] != 'r') {
		free(base);
		return;
	}
	for (nz = rr - 1; nz > k && *nz != '-'; nz--)
		;
	c->vcpus = (int)v;
	c->repeat = atoi(rr + 2);
	c->workload = strndup(w, (size_t)(k - w));
	if (nz > k) {
		c->kernel = strndup(k + 1, (size_t)(nz - k - 1));
		c->noise = strndup(nz + 1, (size_t)(rr - nz - 1));
	} else {
		c->kernel = strndup(k + 1, (size_t)(rr - k - 1));
	}
	free(base);
}

static void apply_record(struct rep_cell *c, json_t *cj)
{
	set_int(&c->vcpus, cell_get(cj, "vcpus"));
	set_int(&c->repeat, cell_get(cj, "repeat"));
	set_str(&c->workload, cell_get(cj, "workload"));
	set_str(&c->kernel, cell_get(cj, "kernel"));
	set_str(&c->noise, cell_get(cj, "noise"));
	set_str(&c->fault, json_object_get(cj, "fault"));
	set_str(&c->accel, cell_get(cj, "accel"));
	set_str(&c->verdict, json_object_get(cj, "verdict"));
	set_str(&c->signature, json_object_get(cj, "signature"));
	set_str(&c->reason, json_object_get(cj, "reason"));
	if (!c->reason)
		set_str(&c->reason, json_object_get(cj, "skip_reason"));
}

static json_t *load_json(const char *dir, const char *name, char **why)
{
	char path[4200];
	json_error_t err;
	json_t *j;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!file_exists(path))
		return NULL;
	j = json_load_file(path, 0, &err);
	if (!j && why && asprintf(why, "%s: %s (line %d)", name, err.text, err.line) < 0)
		*why = NULL;
	return j;
}

/* A crash the harness did not title (or a cell it never finished): ask the console. */
static void scan_console(struct rep_cell *c)
{
	struct console_report cr;
	char path[4200], *text;

	if (c->signature || !c->dir)
		return;
	snprintf(path, sizeof(path), "%s/console.log", c->dir);
	text = read_file(path, NULL);
	if (text && console_scan(text, &cr) == 1)
		c->signature = strdup(cr.signature);
	free(text);
}

static int load_cell(struct rep_cell *c, const char *run, const char *id)
{
	json_t *m;
	char *why = NULL;

	c->id = strdup(id);
	if (asprintf(&c->dir, "%s/%s", run, id) < 0)
		return -1;
	c->evs_per_cpu = NAN;
	c->e2big_not_full = -1;
	parse_id(c, id);
	c->cell_json = load_json(c->dir, "cell.json", &why);
	if (c->cell_json) {
		c->has_cell_json = true;
		apply_record(c, c->cell_json);
	} else if (why) {
		c->reason = why;
		why = NULL;
	}
	m = load_json(c->dir, "module.json", &why);
	if (m) {
		int r = rep_cell_load_module(c, m);

		json_decref(m);
		if (r)
			return -1;
	} else if (why) {
		c->module_note = why;
	}
	if (!c->verdict)
		c->verdict = strdup("INCOMPLETE");
	scan_console(c);
	return rep_cell_load_bpftrace(c);
}

static bool is_cell_dir(const char *run, const char *name)
{
	static const char *const marks[] = { "cell.json", "job.env", "module.json", "console.log" };
	char path[4200];
	struct stat st;

	if (name[0] == '.' || !strcmp(name, "plots"))
		return false;
	snprintf(path, sizeof(path), "%s/%s", run, name);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return false;
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/%s", run, name, marks[i]);
		if (file_exists(path))
			return true;
	}
	return false;
}

static json_t *summary_match(json_t *summary, const struct rep_cell *c)
{
	json_t *sc;
	size_t i;

	json_array_foreach(json_object_get(summary, "cells"), i, sc) {
		const char *id = json_string_value(json_object_get(sc, "id"));
		const char *w = json_string_value(json_object_get(sc, "workload"));
		const char *k = json_string_value(json_object_get(sc, "kernel"));
		const char *nz = json_string_value(json_object_get(sc, "noise"));

		if (!id)
			id = json_string_value(json_object_get(sc, "cell"));
		if (id) {
			if (!strcmp(id, c->id))
				return sc;
			continue;
		}
		if (json_integer_value(json_object_get(sc, "vcpus")) == c->vcpus &&
		    json_integer_value(json_object_get(sc, "repeat")) == c->repeat &&
		    w && c->workload && !strcmp(w, c->workload) &&
		    k && c->kernel && !strcmp(k, c->kernel) &&
		    (!nz || !c->noise || !strcmp(nz, c->noise)))
			return sc;
	}
	return NULL;
}

static struct rep_cell *new_cell(struct rep_run *r)
{
	struct rep_cell *v = realloc(r->cells, (r->n + 1) * sizeof(*v));

	if (!v)
		return NULL;
	r->cells = v;
	memset(&v[r->n], 0, sizeof(v[0]));
	return &v[r->n++];
}

/* Cells summary.json lists whose directory is gone: still shown. */
static int add_summary_only(struct rep_run *r)
{
	json_t *sc;
	size_t i;

	json_array_foreach(json_object_get(r->summary, "cells"), i, sc) {
		bool seen = false;
		struct rep_cell *c;

		for (size_t j = 0; j < r->n && !seen; j++)
			seen = r->cells[j].summary_cell == sc;
		if (seen)
			continue;
		c = new_cell(r);
		if (!c)
			return -1;
		c->evs_per_cpu = NAN;
		c->e2big_not_full = -1;
		c->summary_cell = sc;
		apply_record(c, sc);
		c->ops = json_number_value(json_object_get(sc, "ops"));
		c->ops_per_sec = json_number_value(json_object_get(sc, "ops_per_sec"));
		if (!c->verdict)
			c->verdict = strdup("INCOMPLETE");
		if (json_is_string(json_object_get(sc, "cell"))) {
			if (!(c->id = strdup(json_string_value(json_object_get(sc, "cell")))))
				return -1;
		} else if (asprintf(&c->id, "v%d-%s-%s-%s-r%d", c->vcpus,
				    c->workload ? c->workload : "?", c->kernel ? c->kernel : "?",
				    c->noise ? c->noise : "none", c->repeat) < 0) {
			return -1;
		}
	}
	return 0;
}

static int str_or_empty_cmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cell_cmp(const void *pa, const void *pb)
{
	const struct rep_cell *a = pa, *b = pb;
	int d;

	if ((d = str_or_empty_cmp(a->workload, b->workload)))
		return d;
	if ((d = str_or_empty_cmp(a->kernel, b->kernel)))
		return d;
	if ((d = str_or_empty_cmp(a->noise, b->noise)))
		return d;
	/* No fault first, then the faults by name. */
	if ((d = !fault_is_none(a->fault) - !fault_is_none(b->fault)) ||
	    (d = str_or_empty_cmp(a->fault, b->fault)))
		return d;
	if (a->vcpus != b->vcpus)
		return a->vcpus - b->vcpus;
	return a->repeat - b->repeat;
}

static int load_cells(struct rep_run *r)
{
	struct dirent **ents;
	int n = scandir(r->dir, &ents, NULL, alphasort), ret = 0;

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (!ret && is_cell_dir(r->dir, ents[i]->d_name)) {
			struct rep_cell *c = new_cell(r);

			ret = c ? load_cell(c, r->dir, ents[i]->d_name) : -1;
			if (c && !ret)
				c->summary_cell = summary_match(r->summary, c);
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

static int push_unique(char ***v, size_t *n, const char *s)
{
	char **nv;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return 0;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	*v = nv;
	nv[*n] = strdup(s);
	return nv[(*n)++] ? 0 : -1;
}

static int int_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* A run without the --fault axis may have given fault= through --modparam. */
static char *fault_of(const struct rep_cell *c)
{
	json_t *mp = json_object_get(c->cell_json, "modparams"), *v;
	const char *f = json_string_value(json_object_get(json_object_get(c->module_json, "params"),
							  "fault"));
	size_t i;

	if (f && *f)
		return strdup(f);
	if (!mp && c->summary_cell)
		mp = json_object_get(c->summary_cell, "modparams");
	json_array_foreach(mp, i, v)
		if (json_is_string(v) && !strncmp(json_string_value(v), "fault=", 6))
			return strdup(json_string_value(v) + 6);
	return strdup("none");
}

static int index_run(struct rep_run *r)
{
	char **noises = NULL, **faults = NULL;
	size_t nnoise = 0, nfault = 0;
	int err = 0;

	for (size_t i = 0; i < r->n && !err; i++) {
		struct rep_cell *c = &r->cells[i];
		bool seen = false;

		if (!c->workload)
			c->workload = strdup("?");
		if (!c->kernel)
			c->kernel = strdup("?");
		if (!c->noise)
			c->noise = strdup("none");
		if (!c->fault)
			c->fault = fault_of(c);
		if (!c->fault)
			return -1;
		if (strcmp(c->fault, "none"))
			r->any_fault = true;
		if (!c->accel)
			c->accel = strdup("unknown");
		if (!strcmp(c->accel, "tcg"))
			r->any_tcg = true;
		err = push_unique(&r->kernels, &r->nkernels, c->kernel) ||
		      push_unique(&r->workloads, &r->nworkloads, c->workload) ||
		      push_unique(&noises, &nnoise, c->noise) ||
		      push_unique(&faults, &nfault, c->fault);
		for (size_t j = 0; j < r->nvcpus; j++)
			seen |= r->vcpus[j] == c->vcpus;
		if (!seen && !err) {
			int *nv = realloc(r->vcpus, (r->nvcpus + 1) * sizeof(*nv));

			if (!nv)
				err = -1;
			else
				(r->vcpus = nv)[r->nvcpus++] = c->vcpus;
		}
	}
	if (r->nvcpus)
		qsort(r->vcpus, r->nvcpus, sizeof(int), int_cmp);
	/* One line per kernel; plus /noise, /fault when the run varied them. */
	for (size_t i = 0; i < r->n && !err; i++) {
		struct rep_cell *c = &r->cells[i];
		char *label;

		if (nnoise <= 1 && nfault <= 1) {
			c->series = c->kernel;
			continue;
		}
		if (asprintf(&label, "%s%s%s%s%s", c->kernel, nnoise > 1 ? "/" : "",
			     nnoise > 1 ? c->noise : "", nfault > 1 ? "/" : "",
			     nfault > 1 ? c->fault : "") < 0) {
			err = -1;
			break;
		}
		err = push_unique(&r->series_labels, &r->nseries, label);
		for (size_t j = 0; j < r->nseries && !err; j++)
			if (!strcmp(r->series_labels[j], label))
				c->series = r->series_labels[j];
		free(label);
	}
	for (size_t i = 0; i < nnoise; i++)
		free(noises[i]);
	free(noises);
	for (size_t i = 0; i < nfault; i++)
		free(faults[i]);
	free(faults);
	return err ? -1 : 0;
}

int rep_run_load(struct rep_run *r, const char *dir)
{
	struct stat st;
	char *why = NULL;

	memset(r, 0, sizeof(*r));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "report: %s: not a run directory: %s\n", dir,
			errno ? strerror(errno) : "not a directory");
		return -1;
	}
	r->dir = strdup(dir);
	r->summary = load_json(dir, "summary.json", &why);
	if (why) {
		fprintf(stderr, "report: %s/%s; rebuilding it from the cells\n", dir, why);
		free(why);
	}
	if (load_cells(r) || add_summary_only(r)) {
		fprintf(stderr, "report: %s: out of memory or unreadable\n", dir);
		return -1;
	}
	qsort(r->cells, r->n, sizeof(*r->cells), cell_cmp);
	if (index_run(r) || rep_build_groups(r)) {
		fprintf(stderr, "report: out of memory\n");
		return -1;
	}
	return 0;
}

void rep_run_free(struct rep_run *r)
{
	rep_groups_free(r);
	for (size_t i = 0; i < r->n; i++)
		rep_cell_free(&r->cells[i]);
	free(r->cells);
	for (size_t i = 0; i < r->nkernels; i++)
		free(r->kernels[i]);
	free(r->kernels);
	for (size_t i = 0; i < r->nworkloads; i++)
		free(r->workloads[i]);
	free(r->workloads);
	for (size_t i = 0; i < r->nseries; i++)
		free(r->series_labels[i]);
	free(r->series_labels);
	free(r->vcpus);
	json_decref(r->summary);
	free(r->dir);
	memset(r, 0, sizeof(*r));
}
