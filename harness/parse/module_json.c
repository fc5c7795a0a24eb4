/* Reader for the module's results JSON (schema in harness/FORMAT.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/module_json.h"

static void get_str(json_t *o, const char *k, char *dst, size_t n)
{
	const char *s = json_string_value(json_object_get(o, k));

	snprintf(dst, n, "%s", s ? s : "");
}

static uint64_t get_u64(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_integer(v) && json_integer_value(v) >= 0)
		return (uint64_t)json_integer_value(v);
	if (json_is_real(v) && json_real_value(v) >= 0)
		return (uint64_t)json_real_value(v);
	return 0;
}

static void parse_failures(struct module_result *m, json_t *f)
{
	json_t *first;

	if (!json_is_array(f))
		return;
	m->nfailures = (int)json_array_size(f);
	first = json_array_get(f, 0);
	if (json_is_string(first)) {
		snprintf(m->first_failure, sizeof(m->first_failure), "%s",
			 json_string_value(first));
	} else if (first) {
		char *s = json_dumps(first, JSON_COMPACT);

		snprintf(m->first_failure, sizeof(m->first_failure), "%s", s ? s : "?");
		free(s);
	}
}

static void parse_totals(struct module_result *m, json_t *t)
{
	const char *k;
	json_t *v;

	m->ops = get_u64(t, "ops");
	m->ops_per_sec = json_number_value(json_object_get(t, "ops_per_sec"));
	json_object_foreach(json_object_get(t, "errors"), k, v) {
		if (m->nerrors >= MOD_MAX_ERRNOS || !json_is_integer(v))
			continue;
		snprintf(m->errors[m->nerrors].name, sizeof(m->errors[0].name), "%s", k);
		m->errors[m->nerrors++].count = (uint64_t)json_integer_value(v);
	}
}

/* One histogram: buckets [[lo, hi, count], …], ascending, hi exclusive. */
static int parse_hist(struct mod_latency *l, const char *name, const char *where, json_t *v,
		      char *err, size_t errlen)
{
	json_t *b;
	size_t i;

	snprintf(l->op, sizeof(l->op), "%s", name);
	hist_init(&l->h);
	json_array_foreach(json_object_get(v, "buckets"), i, b) {
		json_t *lo = json_array_get(b, 0), *hi = json_array_get(b, 1),
		       *c = json_array_get(b, 2);

		if (!json_is_integer(lo) || !json_is_integer(hi) || !json_is_integer(c) ||
		    hist_add_bucket(&l->h, json_integer_value(lo), json_integer_value(hi),
				    json_integer_value(c))) {
			snprintf(err, errlen, "%s.buckets[%zu]: expected ascending [lo, hi, count]",
				 where, i);
			return -1;
		}
	}
	l->sum = get_u64(v, "sum");
	if (l->h.count && json_object_get(v, "max")) {
		l->h.min = get_u64(v, "min");
		l->h.max = get_u64(v, "max");
		l->h.has_minmax = true;
	}
	return 0;
}

/*
 * latency_ns: one histogram per op kind. timing.clock_read_ns (the
 * module's back-to-back clock reads at load) joins them as the pseudo-op
 * "clock_read", so every table and plot of op latencies shows the floor
 * beside them.
 */
static int parse_latency(struct module_result *m, json_t *lat, json_t *timing, char *err,
			 size_t errlen)
{
	char where[64];
	const char *op;
	json_t *v;

	json_object_foreach(lat, op, v) {
		if (m->nlat >= MOD_MAX_LAT)
			break;
		snprintf(where, sizeof(where), "latency_ns.%s", op);
		if (parse_hist(&m->lat[m->nlat++], op, where, v, err, errlen))
			return -1;
	}
	v = json_object_get(timing, "clock_read_ns");
	if (json_is_object(v) && m->nlat < MOD_MAX_LAT &&
	    parse_hist(&m->lat[m->nlat++], MOD_CLOCK_READ, "timing.clock_read_ns", v, err, errlen))
		return -1;
	return 0;
}

static void verdict_count(json_t *verdict, const char *key, int64_t *out)
{
	json_t *n = json_object_get(verdict, key);

	if (n && json_is_integer(n))
		*out = json_integer_value(n);
}

/* callers[]: {"kind", "ops", "calls", "in_context", "unexpected_errors", ...} a kind. */
static int parse_callers(struct module_result *m, json_t *arr, char *err, size_t errlen)
{
	json_t *c;
	size_t i;

	json_array_foreach(arr, i, c) {
		struct mod_caller *mc;

		if (m->ncallers >= MOD_MAX_CALLERS)
			break;
		if (!json_is_string(json_object_get(c, "kind"))) {
			snprintf(err, errlen, "callers[%zu]: expected an object with a \"kind\"", i);
			return -1;
		}
		mc = &m->callers[m->ncallers++];
		get_str(c, "kind", mc->kind, sizeof(mc->kind));
		mc->ops = get_u64(c, "ops");
		mc->calls = mc->in_context = mc->unexpected_errors = -1;
		verdict_count(c, "calls", &mc->calls);
		verdict_count(c, "in_context", &mc->in_context);
		verdict_count(c, "unexpected_errors", &mc->unexpected_errors);
		mc->calls_per_sec_per_cpu = json_number_value(json_object_get(c, "calls_per_sec_per_cpu"));
	}
	return 0;
}

int module_result_parse(struct module_result *m, json_t *root, char *err, size_t errlen)
{
	json_t *verdict, *n;

	memset(m, 0, sizeof(*m));
	m->unexpected_errors = m->warns = -1;
	m->corrupt = m->double_alloc = m->walk_bad = m->e2big_not_full = -1;
	if (!json_is_object(root)) {
		snprintf(err, errlen, "top level is not an object");
		return -1;
	}
	m->root = json_incref(root);
	get_str(root, "status", m->status, sizeof(m->status));
	get_str(root, "result", m->result, sizeof(m->result));
	get_str(root, "kernel_release", m->kernel_release, sizeof(m->kernel_release));
	if (!m->status[0] || !m->result[0]) {
		snprintf(err, errlen, "missing \"status\" or \"result\"");
		return -1;
	}
	parse_failures(m, json_object_get(root, "failures"));
	m->duration_ns = get_u64(root, "duration_ns");
	parse_totals(m, json_object_get(root, "totals"));
	m->nr_cpus = (int)json_array_size(json_object_get(root, "per_cpu"));
	verdict = json_object_get(root, "verdict");
	if ((n = json_object_get(verdict, "unexpected_errors")) && json_is_integer(n))
		m->unexpected_errors = json_integer_value(n);
	if ((n = json_object_get(verdict, "warns")) && json_is_integer(n))
		m->warns = json_integer_value(n);
	verdict_count(verdict, "corrupt", &m->corrupt);
	verdict_count(verdict, "double_alloc", &m->double_alloc);
	verdict_count(verdict, "walk_bad", &m->walk_bad);
	verdict_count(verdict, "e2big_not_full", &m->e2big_not_full);
	if (parse_callers(m, json_object_get(root, "callers"), err, errlen))
		return -1;
	return parse_latency(m, json_object_get(root, "latency_ns"), json_object_get(root, "timing"),
			     err, errlen);
}

int module_result_load(struct module_result *m, const char *path, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	int r;

	if (!root) {
		memset(m, 0, sizeof(*m));
		snprintf(err, errlen, "%s: %s (line %d)", path, jerr.text, jerr.line);
		return -1;
	}
	r = module_result_parse(m, root, err, errlen);
	json_decref(root);
	return r;
}

void module_result_free(struct module_result *m)
{
	for (int i = 0; i < m->nlat; i++)
		hist_free(&m->lat[i].h);
	json_decref(m->root);
	memset(m, 0, sizeof(*m));
}

const struct mod_caller *module_caller(const struct module_result *m, const char *kind)
{
	for (int i = 0; i < m->ncallers; i++)
		if (!strcmp(m->callers[i].kind, kind))
			return &m->callers[i];
	return NULL;
}

const struct mod_latency *module_latency(const struct module_result *m, const char *op)
{
	for (int i = 0; i < m->nlat; i++)
		if (!strcmp(m->lat[i].op, op))
			return &m->lat[i];
	return NULL;
}
