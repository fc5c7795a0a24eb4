/* The metrics of one cell by name (cell_metric.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/histogram.h"
#include "rundir/cell_metric.h"
#include "rundir/coverage.h"

enum metric_kind { MK_NONE, MK_OPS, MK_OPS_CPU, MK_POP, MK_LAT, MK_COVERAGE, MK_MEMORY };

struct metric {
	enum metric_kind kind;
	char arg[64];		/* the op, the coverage key or the memory key */
	double pct;		/* MK_POP, MK_LAT: 50 or 99 */
};

/* The memory rows: cell.json "memory" keys (run/record/cell_json.c, the memcg job). */
static const char *const mem_keys[] = { "avg_mib", "peak_mib" };

/* "…p50" / "…p99" at the end of s (len): the percentile, else 0. */
static double pct_suffix(const char *s, size_t len)
{
	if (len >= 4 && !strcmp(s + len - 4, ".p50"))
		return 50;
	if (len >= 4 && !strcmp(s + len - 4, ".p99"))
		return 99;
	return 0;
}

static void parse_metric(const char *name, struct metric *m)
{
	size_t len = strlen(name), n;
	const char *rest;

	memset(m, 0, sizeof(*m));
	if (!strcmp(name, "module.ops_per_sec")) {
		m->kind = MK_OPS;
	} else if (!strcmp(name, "module.ops_per_sec_per_cpu")) {
		m->kind = MK_OPS_CPU;
	} else if (!strncmp(name, "bpftrace.pop.", 13) && len == 16 && pct_suffix(name, len)) {
		m->kind = MK_POP;
		m->pct = pct_suffix(name, len);
	} else if (!strncmp(name, "coverage.", 9)) {
		for (size_t i = 0; i < cov_nmetrics; i++)
			if (!strcmp(name + 9, cov_metrics[i].name))
				m->kind = MK_COVERAGE;
		snprintf(m->arg, sizeof(m->arg), "%s", name + 9);
	} else if (!strncmp(name, "memory.", 7)) {
		for (size_t i = 0; i < sizeof(mem_keys) / sizeof(mem_keys[0]); i++)
			if (!strcmp(name + 7, mem_keys[i]))
				m->kind = MK_MEMORY;
		snprintf(m->arg, sizeof(m->arg), "%s", name + 7);
	} else if (!strncmp(name, "module.", 7) && pct_suffix(name, len)) {
		/* module.<op>.p50: op one word of letters, digits and _ */
		rest = name + 7;
		n = len - 7 - 4;
		if (n && n < sizeof(m->arg) && strspn(rest, "abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n) {
			m->kind = MK_LAT;
			m->pct = pct_suffix(name, len);
			snprintf(m->arg, sizeof(m->arg), "%.*s", (int)n, rest);
		}
	}
}

static double hist_p(const struct rep_hist *h, double p)
{
	return h && h->h.count ? hist_percentile(&h->h, p) : NAN;
}

/* A number of cell.json's object key (its summary.json copy without one). */
static double cell_json_number(const struct rep_cell *c, const char *obj, const char *key)
{
	json_t *cj = c->cell_json ? c->cell_json : c->summary_cell;
	json_t *v = json_object_get(json_object_get(cj, obj), key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

double rep_cell_metric(const struct rep_cell *c, const char *name)
{
	struct metric m;

	parse_metric(name, &m);
	switch (m.kind) {
	case MK_OPS:
		return c->has_module ? c->ops_per_sec : NAN;
	case MK_OPS_CPU:
		return c->has_module ? c->evs_per_cpu : NAN;
	case MK_POP:
		return hist_p(rep_cell_pop(c), m.pct);
	case MK_LAT:
		return hist_p(rep_find_hist(c->lat, c->nlat, NULL, m.arg), m.pct);
	case MK_COVERAGE:
		return cell_json_number(c, "coverage", m.arg);
	case MK_MEMORY:
		return cell_json_number(c, "memory", m.arg);
	default:
		return NAN;
	}
}

const char *rep_metric_unit(const char *name)
{
	struct metric m;

	parse_metric(name, &m);
	switch (m.kind) {
	case MK_OPS:
	case MK_OPS_CPU:
		return "ops/s";
	case MK_POP:
	case MK_LAT:
		return "ns";
	case MK_COVERAGE:
		return "%";
	case MK_MEMORY:
		return "MiB";
	default:
		return NULL;
	}
}

int rep_metric_direction(const char *name)
{
	struct metric m;

	parse_metric(name, &m);
	switch (m.kind) {
	case MK_OPS:
	case MK_OPS_CPU:
	case MK_COVERAGE:
		return 1;
	case MK_POP:
	case MK_LAT:
	case MK_MEMORY:
		return -1;
	default:
		return 0;
	}
}

void rep_metric_names(char *buf, size_t size)
{
	snprintf(buf, size, "module.ops_per_sec, module.ops_per_sec_per_cpu, bpftrace.pop.p50, "
		 "bpftrace.pop.p99, module.<op>.p50, module.<op>.p99 (op: update, lookup, "
		 "delete, …), coverage.<file>.lines_pct|branches_pct, memory.avg_mib, "
		 "memory.peak_mib");
}
