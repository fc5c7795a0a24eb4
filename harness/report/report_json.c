/*
 * summary.json, extended: the harness's keys stay as they are (FORMAT.md);
 * the report adds per-cell percentiles, signatures and notes, per-group
 * means ± stddev, the environment, and cells the harness never summarised.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_out.h"
#include "lib/numfmt.h"
#include "lib/util.h"

/* The harness's own keys: never overwritten. */
static void set_base(json_t *o, const char *key, json_t *v)
{
	if (!json_object_get(o, key))
		json_object_set(o, key, v);
	json_decref(v);
}

static json_t *stats_of(const struct hist *h)
{
	struct hist_stats s;

	hist_summarize(h, &s);
	return json_pack("{sI so so so so}", "count", (json_int_t)s.count, "p50", num_json(s.p50),
			 "p90", num_json(s.p90), "p99", num_json(s.p99), "max", num_json(s.max));
}

static json_t *stat_json(const struct rep_stat *s)
{
	return json_pack("{sI so so so so}", "n", (json_int_t)s->n, "mean", num_json(s->mean),
			 "stddev", num_json(s->sd), "min", num_json(s->min), "max", num_json(s->max));
}

static void pop_keys(json_t *o, const struct rep_cell *c)
{
	const struct rep_hist *pop = rep_cell_pop(c);
	json_t *pj, *st;
	const char *k;
	json_t *v;

	if (!pop)
		return;
	pj = json_object_get(o, "pop_ns");
	if (!json_is_object(pj)) {
		pj = json_object();
		json_object_set_new(o, "pop_ns", pj);
	}
	st = stats_of(&pop->h);
	json_object_foreach(st, k, v)
		if (!json_object_get(pj, k))
			json_object_set(pj, k, v);
	json_decref(st);
}

static json_t *bt_json(const struct rep_cell *c)
{
	json_t *bt = json_object();

	for (size_t i = 0; i < c->nbt; i++) {
		json_t *s = json_object_get(bt, c->bt[i].script);

		if (!s) {
			s = json_object();
			json_object_set_new(bt, c->bt[i].script, s);
		}
		json_object_set_new(s, c->bt[i].name, stats_of(&c->bt[i].h));
	}
	if (c->bt_scalars) {
		const char *script;
		json_t *vals;

		json_object_foreach(c->bt_scalars, script, vals) {
			json_t *s = json_object_get(bt, script);
			const char *k;
			json_t *v;

			if (!s) {
				s = json_object();
				json_object_set_new(bt, script, s);
			}
			json_object_foreach(vals, k, v)
				json_object_set(s, k, v);
		}
	}
	return bt;
}

static json_t *cell_json(const struct rep_cell *c)
{
	json_t *o = c->summary_cell ? json_deep_copy(c->summary_cell) : json_object();
	json_t *lat = json_object(), *pc = json_array();
	char *notes = rep_cell_notes(c);

	set_base(o, "vcpus", json_integer(c->vcpus));
	set_base(o, "workload", json_string(c->workload));
	set_base(o, "kernel", json_string(c->kernel));
	set_base(o, "accel", json_string(c->accel));
	set_base(o, "repeat", json_integer(c->repeat));
	set_base(o, "verdict", json_string(c->verdict));
	if (c->has_module) {
		set_base(o, "ops", json_integer((json_int_t)c->ops));
		set_base(o, "ops_per_sec", json_real(c->ops_per_sec));
	}
	pop_keys(o, c);
	json_object_set_new(o, "id", json_string(c->id));
	json_object_set_new(o, "noise", json_string(c->noise));
	json_object_set_new(o, "fault", json_string(c->fault));
	json_object_set_new(o, "signature", c->signature ? json_string(c->signature) : json_null());
	json_object_set_new(o, "notes", notes ? json_string(notes) : json_null());
	json_object_set_new(o, "ev_per_sec_per_cpu", num_json(c->evs_per_cpu));
	for (size_t i = 0; i < c->ncpus; i++)
		json_array_append_new(pc, json_pack("{si sI sf}", "cpu", c->cpus[i].cpu, "ops",
						    (json_int_t)c->cpus[i].ops, "ops_per_sec",
						    c->cpus[i].ops_per_sec));
	json_object_set_new(o, "per_cpu", pc);
	for (size_t i = 0; i < c->nlat; i++)
		json_object_set_new(lat, c->lat[i].name, stats_of(&c->lat[i].h));
	json_object_set_new(o, "latency_ns", lat);
	json_object_set_new(o, "bpftrace", bt_json(c));
	json_object_set_new(o, "files", json_pack("{sb sb sb}", "cell_json", c->has_cell_json,
						  "module_json", c->has_module,
						  "bpftrace", c->has_bpftrace));
	free(notes);
	return o;
}

static json_t *group_json(const struct rep_group *g)
{
	return json_pack("{ss ss ss si sI sI so so so so so}", "workload", g->workload,
			 "series", g->series, "kernel", g->kernel, "vcpus", g->vcpus,
			 "cells", (json_int_t)g->ncells, "cells_counted", (json_int_t)g->nok,
			 "ev_per_sec_per_cpu", stat_json(&g->evs_per_cpu),
			 "ops_per_sec", stat_json(&g->ops_per_sec),
			 "pop_p50_ns", stat_json(&g->pop_p50), "pop_p99_ns", stat_json(&g->pop_p99),
			 "pop_ns_all_repeats", stats_of(&g->pop));
}

/* The coverage section's figures: per workload (merged over its cells) and over all. */
static json_t *coverage_json(const struct rep_coverage *cov)
{
	json_t *o = json_object();

	for (size_t i = 0; i < cov->n; i++) {
		json_t *f = cov_figures(&cov->v[i].set, NULL);

		json_object_set_new(f, "cells", json_integer((json_int_t)cov->v[i].ncells));
		json_object_set_new(o, cov->v[i].workload, f);
	}
	json_object_set_new(o, "all workloads", cov_figures(&cov->all, NULL));
	if (cov->nlife) {
		json_t *f = cov_figures(&cov->life, NULL);
		const char *names[] = COV_LIFE_SNAPSHOTS;

		/* cov_figures() names the main snapshot: these figures are not its */
		json_object_set_new(f, "snapshot", json_sprintf("%s+%s", names[0], names[1]));
		json_object_set_new(f, "cells", json_integer((json_int_t)cov->nlife));
		json_object_set_new(o, COV_LIFE_NAME, f);
	}
	return o;
}

int rep_write_json(const struct rep_run *r, json_t *env, const struct rep_coverage *cov,
		   const char *path)
{
	json_t *root = r->summary ? json_deep_copy(r->summary) : json_object();
	json_t *cells = json_array(), *groups = json_array();
	json_t *verdicts = json_object();
	char *text;
	int ret;

	for (size_t i = 0; i < r->n; i++) {
		const char *v = r->cells[i].verdict;

		json_array_append_new(cells, cell_json(&r->cells[i]));
		json_object_set_new(verdicts, v,
				    json_integer(json_integer_value(json_object_get(verdicts, v)) + 1));
	}
	for (size_t i = 0; i < r->ngroups; i++)
		json_array_append_new(groups, group_json(&r->groups[i]));
	json_object_set_new(root, "cells", cells);
	json_object_set_new(root, "groups", groups);
	json_object_set_new(root, "verdicts", verdicts);
	json_object_set(root, "environment", env);
	if (cov->n)
		json_object_set_new(root, "coverage", coverage_json(cov));
	text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(root);
	ret = text ? write_file_atomic(path, text, strlen(text)) : -1;
	free(text);
	if (ret)
		fprintf(stderr, "error: cannot write %s\n", path);
	return ret ? -1 : 0;
}
