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

/* The positional axes of the id (the rest is read after cell.json and module.json). */
static void parse_id(struct rep_cell *c, const char *id)
{
	char *ax[AX_NR];
	int repeat;

	if (cell_id_parse(id, ax, &repeat))
		return;
	c->repeat = repeat;
	for (int a = 0; a < AX_NR; a++) {
		if (axes[a].in_id != AXID_SUFFIX && !c->ax[a]) {
			c->ax[a] = ax[a];
			ax[a] = NULL;
		}
		free(ax[a]);
	}
	if (c->vcpus_text)
		c->vcpus = atoi(c->vcpus_text);
}

static void apply_record(struct rep_cell *c, json_t *cj)
{
	set_int(&c->vcpus, cell_get(cj, "vcpus"));
	set_int(&c->repeat, cell_get(cj, "repeat"));
	for (int a = 0; a < AX_NR; a++) {
		json_t *v = cell_get(cj, axes[a].name);

		if (json_is_integer(v)) {
			char *t;

			if (asprintf(&t, "%lld", (long long)json_integer_value(v)) >= 0) {
				free(c->ax[a]);
				c->ax[a] = t;
			}
		} else {
			set_str(&c->ax[a], v);
		}
	}
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
		} else {
			char id[192];
			const char *ax[AX_NR];

			for (int a = 0; a < AX_NR; a++)
				ax[a] = c->ax[a] ? c->ax[a] : axes[a].dflt ? axes[a].dflt : "?";
			ax[AX_VCPUS] = NULL;
			cell_id_format(id, sizeof(id), ax, c->repeat);
			if (asprintf(&c->id, "v%d%s", c->vcpus, id + 1) < 0)
				return -1;
		}
	}
	return 0;
}

static int str_or_empty_cmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* By every axis compare pairs on, in table order (a suffix axis: its default first), vCPUs and repeat last. */
static int cell_cmp(const void *pa, const void *pb)
{
	const struct rep_cell *a = pa, *b = pb;
	int d;

	for (int x = 0; x < AX_NR; x++) {
		if (!axes[x].compare || x == AX_VCPUS)
			continue;
		if (axes[x].in_id == AXID_SUFFIX &&
		    (d = !axis_is_default(x, a->ax[x]) - !axis_is_default(x, b->ax[x])))
			return d;
		if ((d = str_or_empty_cmp(a->ax[x], b->ax[x])))
			return d;
	}
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

/*
 * An axis the cell record does not name: the module's own params, the
 * modparams the harness passed (a run without the --fault axis may have given
 * fault= through --modparam), the cell id, the default ("?" without one).
 */
static char *axis_fallback(const struct rep_cell *c, int a)
{
	json_t *mp = json_object_get(c->cell_json, "modparams"), *v;
	char *kv[64], *ax[AX_NR], *s = NULL;
	size_t i, n = 0;
	int repeat;

	if (axes[a].guest == AXG_MODPARAM) {
		v = json_object_get(json_object_get(c->module_json, "params"), axes[a].guest_key);
		if (json_is_string(v) && *json_string_value(v))
			return strdup(json_string_value(v));
		if (json_is_integer(v) && asprintf(&s, "%lld", (long long)json_integer_value(v)) >= 0)
			return s;
	}
	if (!mp && c->summary_cell)
		mp = json_object_get(c->summary_cell, "modparams");
	json_array_foreach(mp, i, v)
		if (json_is_string(v) && n < 64)
			kv[n++] = (char *)json_string_value(v);
	if (axis_modparam(a, kv, n))
		return strdup(axis_modparam(a, kv, n));
	if (c->id && !cell_id_parse(c->id, ax, &repeat)) {
		s = ax[a];
		ax[a] = NULL;
		for (int x = 0; x < AX_NR; x++)
			free(ax[x]);
		if (s)
			return s;
	}
	if (axes[a].null_default)
		return NULL;
	return strdup(axes[a].dflt ? axes[a].dflt : "?");
}

static int index_run(struct rep_run *r)
{
	char **seen_v[AX_NR] = { 0 };
	size_t nseen[AX_NR] = { 0 };
	int err = 0;

	for (size_t i = 0; i < r->n && !err; i++) {
		struct rep_cell *c = &r->cells[i];
		bool seen = false;

		for (int a = 0; a < AX_NR && !err; a++) {
			if (!c->ax[a] && a != AX_VCPUS && (c->ax[a] = axis_fallback(c, a)) == NULL &&
			    !axes[a].null_default)
				return -1;
			if (axes[a].series)
				err = push_unique(&seen_v[a], &nseen[a], c->ax[a]);
		}
		if (!c->vcpus_text && asprintf(&c->vcpus_text, "%d", c->vcpus) < 0)
			return -1;
		if (!axis_is_default(AX_FAULT, c->fault))
			r->any_fault = true;
		if (!c->accel)
			c->accel = strdup("unknown");
		if (!strcmp(c->accel, "tcg"))
			r->any_tcg = true;
		err = err || push_unique(&r->kernels, &r->nkernels, c->kernel) ||
		      push_unique(&r->workloads, &r->nworkloads, c->workload);
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
	/* One line per kernel; plus /value (a number: /name=value) of each series axis the run varied. */
	for (size_t i = 0; i < r->n && !err; i++) {
		struct rep_cell *c = &r->cells[i];
		char label[512];
		size_t len = 0;
		bool varied = false;

		len = snprintf(label, sizeof(label), "%s", c->kernel);
		for (int a = 0; a < AX_NR; a++)
			if (axes[a].series && nseen[a] > 1) {
				varied = true;
				len += snprintf(label + len, len < sizeof(label) ? sizeof(label) - len : 0,
						"/%s%s%s", axes[a].numeric ? axes[a].name : "",
						axes[a].numeric ? "=" : "", c->ax[a]);
			}
		if (!varied) {
			c->series = c->kernel;
			continue;
		}
		err = push_unique(&r->series_labels, &r->nseries, label);
		for (size_t j = 0; j < r->nseries && !err; j++)
			if (!strcmp(r->series_labels[j], label))
				c->series = r->series_labels[j];
	}
	for (int a = 0; a < AX_NR; a++) {
		for (size_t i = 0; i < nseen[a]; i++)
			free(seen_v[a][i]);
		free(seen_v[a]);
	}
	return err ? -1 : 0;
}

int rep_run_load(struct rep_run *r, const char *dir)
{
	struct stat st;
	char *why = NULL;

	memset(r, 0, sizeof(*r));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "error: %s: not a run directory: %s\n", dir,
			errno ? strerror(errno) : "not a directory");
		return -1;
	}
	r->dir = strdup(dir);
	r->summary = load_json(dir, "summary.json", &why);
	if (why) {
		fprintf(stderr, "error: %s/%s; rebuilding it from the cells\n", dir, why);
		free(why);
	}
	if (load_cells(r) || add_summary_only(r)) {
		fprintf(stderr, "error: %s: out of memory or unreadable\n", dir);
		return -1;
	}
	qsort(r->cells, r->n, sizeof(*r->cells), cell_cmp);
	if (index_run(r) || rep_build_groups(r)) {
		fprintf(stderr, "error: out of memory\n");
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
