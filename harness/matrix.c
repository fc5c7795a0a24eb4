/*
 * The matrix plan, shard slicing, the scheduler's fit rule and the manifest
 * of a run directory (see matrix.h). Pure functions where it matters, so
 * tests/unit/test_matrix.c can check each decision without a VM.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "matrix.h"
#include "util.h"

void fault_slug(const char *spec, char *out, size_t n)
{
	size_t len = 0, max = n - 1 < FAULT_SLUG_MAX ? n - 1 : FAULT_SLUG_MAX;
	uint32_t h = 2166136261u;

	if (!n)
		return;
	out[0] = '\0';
	if (fault_is_none(spec))
		return;
	for (const char *p = spec; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	if (strlen(spec) <= max) {
		for (const char *p = spec; *p; p++)
			out[len++] = isalnum((unsigned char)*p) || *p == '_' ? *p : '_';
		out[len] = '\0';
		return;
	}
	for (const char *p = spec; *p && len < max - 9; p++)
		out[len++] = isalnum((unsigned char)*p) || *p == '_' ? *p : '_';
	snprintf(out + len, n - len, "_%08x", h);
}

void cell_id_format(char *out, size_t n, int vcpus, const char *workload, const char *kernel,
		    const char *noise, int repeat, const char *fault, const char *test_action)
{
	char slug[FAULT_SLUG_MAX + 1];

	fault_slug(fault, slug, sizeof(slug));
	snprintf(out, n, "v%d-%s-%s-%s-r%d%s%s%s%s", vcpus, workload, kernel, noise, repeat,
		 slug[0] ? "-f" : "", slug, test_action ? "-x" : "", test_action ? test_action : "");
}

int plan_build(const struct run_opts *o, struct plan *p)
{
	size_t nta = o->test_actions.n ? o->test_actions.n : 1;
	size_t nf = o->faults.n ? o->faults.n : 1;
	size_t total = (size_t)o->repeat * o->kernels.n * o->noises.n * nf * nta *
		       o->workloads.n * (size_t)o->ncpus;
	size_t k = 0;

	p->n = 0;
	p->cells = calloc(total ? total : 1, sizeof(*p->cells));
	if (!p->cells)
		return -1;
	for (int r = 0; r < o->repeat; r++)
		for (size_t kn = 0; kn < o->kernels.n; kn++)
			for (size_t ns = 0; ns < o->noises.n; ns++)
				for (size_t fi = 0; fi < nf; fi++)
				for (size_t ta = 0; ta < nta; ta++)
					for (size_t w = 0; w < o->workloads.n; w++)
						for (int v = 0; v < o->ncpus; v++) {
							struct plan_cell *c = &p->cells[k];
							const char *a = o->test_actions.n ? o->test_actions.v[ta] : NULL;

							if (a && !strcmp(a, "none"))
								a = NULL;
							c->index = k++;
							c->vcpus = o->cpus[v];
							c->repeat = r;
							c->workload = o->workloads.v[w];
							c->kernel = o->kernels.v[kn];
							c->noise = o->noises.v[ns];
							c->fault = o->faults.n ? o->faults.v[fi] : "none";
							c->test_action = a;
							cell_id_format(c->id, sizeof(c->id), c->vcpus, c->workload,
								       c->kernel, c->noise, r, c->fault, a);
						}
	p->n = k;
	return 0;
}

void plan_free(struct plan *p)
{
	free(p->cells);
	p->cells = NULL;
	p->n = 0;
}

bool shard_selects(size_t index, int shard_i, int shard_n)
{
	if (shard_n <= 1)
		return true;
	return index % (size_t)shard_n == (size_t)(shard_i - 1);
}

bool sched_fits(const struct host_res *h, const struct sched_load *l, int vcpus, long mem_mb,
		int jobs)
{
	int cpu_cap;

	if (l->running == 0)
		return true;
	if (jobs > 0)
		return l->running < jobs;
	cpu_cap = h->cores > vcpus ? h->cores : vcpus;
	if (l->vcpus + vcpus > cpu_cap)
		return false;
	return (l->mem_mb + mem_mb) * 10 <= h->mem_avail_mb * 7;
}

void host_res_detect(struct host_res *h)
{
	char *mi = read_file("/proc/meminfo", NULL), *p;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	h->cores = n > 0 ? (int)n : 1;
	h->mem_avail_mb = 1024;
	if (mi && (p = strstr(mi, "MemAvailable:")))
		h->mem_avail_mb = strtol(p + 13, NULL, 10) / 1024;
	free(mi);
}

static json_t *plan_cell_json(const struct plan_cell *c)
{
	json_t *j = json_pack("{s:I, s:s, s:i, s:s, s:s, s:s, s:i}", "index", (json_int_t)c->index,
			      "id", c->id, "vcpus", c->vcpus, "workload", c->workload,
			      "kernel", c->kernel, "noise", c->noise, "repeat", c->repeat);

	/* Only when set: manifests of runs without the axis stay as they were. */
	if (!fault_is_none(c->fault))
		json_object_set_new(j, "fault", json_string(c->fault));
	if (c->test_action)
		json_object_set_new(j, "test_action", json_string(c->test_action));
	return j;
}

json_t *manifest_build(const struct plan *p, json_t *params, int shard_i, int shard_n)
{
	json_t *cells = json_array();

	for (size_t i = 0; i < p->n; i++)
		json_array_append_new(cells, plan_cell_json(&p->cells[i]));
	return json_pack("{s:i, s:O, s:o, s:o, s:o}", "version", 1, "params", params,
			 "shard", shard_n > 1 ? json_pack("{s:i, s:i}", "index", shard_i,
							  "count", shard_n) : json_null(),
			 "cells", cells, "runs", json_array());
}

/* The first key whose value differs, for the message. */
static const char *first_diff(json_t *a, json_t *b)
{
	const char *k;
	json_t *v;

	json_object_foreach(a, k, v)
		if (!json_equal(v, json_object_get(b, k)))
			return k;
	json_object_foreach(b, k, v)
		if (!json_object_get(a, k))
			return k;
	return "?";
}

static json_t *find_cell(json_t *cells, const char *id)
{
	size_t i;
	json_t *c;

	json_array_foreach(cells, i, c)
		if (!strcmp(json_string_value(json_object_get(c, "id")) ?: "", id))
			return c;
	return NULL;
}

int manifest_reconcile(json_t *old, json_t *want, json_t **merged, char *err, size_t errlen)
{
	json_t *op = json_object_get(old, "params"), *wp = json_object_get(want, "params");
	json_t *cells, *c;
	size_t i;

	*merged = NULL;
	if (!json_equal(op, wp)) {
		const char *k = first_diff(op, wp);
		char *a = json_dumps(json_object_get(op, k), JSON_ENCODE_ANY | JSON_COMPACT);
		char *b = json_dumps(json_object_get(wp, k), JSON_ENCODE_ANY | JSON_COMPACT);

		snprintf(err, errlen, "the run there has %s %s, this command %s; use another --out",
			 k, a ? a : "(none)", b ? b : "(none)");
		free(a);
		free(b);
		return -1;
	}
	if (!json_equal(json_object_get(old, "shard"), json_object_get(want, "shard"))) {
		snprintf(err, errlen, "the run there is a different shard of the plan; use another --out");
		return -1;
	}
	*merged = json_deep_copy(old);
	cells = json_object_get(*merged, "cells");
	json_array_foreach(json_object_get(want, "cells"), i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));

		if (!find_cell(cells, id)) {
			json_t *n = json_deep_copy(c);

			json_object_set_new(n, "index", json_integer((json_int_t)json_array_size(cells)));
			json_array_append_new(cells, n);
		}
	}
	if (!json_is_array(json_object_get(*merged, "runs")))
		json_object_set_new(*merged, "runs", json_array());
	return 0;
}

void manifest_add_run(json_t *m, int argc, char **argv)
{
	json_t *cmd = json_array();
	char when[64];
	time_t t = time(NULL);
	struct tm tm;

	for (int i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S%z", localtime_r(&t, &tm));
	json_array_append_new(json_object_get(m, "runs"),
			      json_pack("{s:o, s:s}", "command", cmd, "started", when));
}

int manifest_write(const char *dir, json_t *m)
{
	char path[4096];
	char *dump = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	int err;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	err = dump ? write_file_atomic(path, dump, strlen(dump)) : -1;
	free(dump);
	return err;
}

json_t *manifest_load(const char *dir, char *err, size_t errlen)
{
	char path[4096];
	json_error_t je;
	json_t *m;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	if (!file_exists(path)) {
		snprintf(err, errlen, "%s: no manifest.json (not a run directory)", dir);
		return NULL;
	}
	m = json_load_file(path, 0, &je);
	if (!m || !json_is_array(json_object_get(m, "cells"))) {
		snprintf(err, errlen, "%s: unreadable: %s", path, m ? "no cells" : je.text);
		json_decref(m);
		return NULL;
	}
	return m;
}
