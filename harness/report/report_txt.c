/*
 * report.txt: the report as plain text for an email — seed-format per-CPU
 * lines ("0:full_update 391104 events per sec"), tables with a units row,
 * and histograms drawn as bpftrace draws them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/numfmt.h"
#include "report/report_env.h"
#include "report/report_hist_text.h"
#include "report/report_out.h"
#include "report/report_seed.h"

static const char *pm(char *buf, size_t n, const struct rep_stat *s)
{
	if (!s->n)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.0f ± %.0f", s->mean, s->sd);
	return buf;
}

static void env_text(FILE *f, const struct rep_run *r, json_t *env)
{
	/* report_env makes "host" one readable line (build_host). */
	const char *h = json_string_value(json_object_get(env, "host"));
	json_t *k, *v;
	char *acc = rep_env_join(json_object_get(env, "accels"));
	const char *key;
	size_t i;

	if (r->any_tcg)
		fputs("*** EMULATED: cells ran under QEMU TCG (no KVM). Timings are from an\n"
		      "*** emulated CPU: compare kernels with each other, not with hardware.\n\n", f);
	fputs("Percentiles (p50/p90/p99): " PERCENTILE_METHOD ".\n"
	      "Module latencies: clock_read is the module's back-to-back clock reads at load,\n"
	      "the floor under every timed op.\n\n", f);
	fputs("Environment\n", f);
	fprintf(f, "  host:  %s\n  accel: %s\n  kernels:\n", h ? h : "?", acc ? acc : "?");
	json_array_foreach(json_object_get(env, "kernels"), i, k) {
		const char *sha = json_string_value(json_object_get(k, "sha256"));
		const char *name = json_string_value(json_object_get(k, "name"));
		const char *line = json_string_value(json_object_get(k, "line"));

		fprintf(f, "    %-12s ", json_string_value(json_object_get(k, "label")));
		if (line)
			fprintf(f, "(%s, line %s) ", name ? name : "?", line);
		fprintf(f, "%s  %s\n      sha256 %s%s%s%s\n",
			json_string_value(json_object_get(k, "release")) ?: "(release unknown)",
			json_string_value(json_object_get(k, "image")) ?: "(image not recorded)",
			sha ? sha : "not available", sha ? " (" : "",
			sha ? json_string_value(json_object_get(k, "sha256_source")) : "",
			sha ? ")" : "");
	}
	fputs("  parameters:\n", f);
	json_object_foreach(json_object_get(env, "params"), key, v) {
		char *vals = rep_env_join(v);

		fprintf(f, "    %-14s %s\n", key, vals ? vals : "");
		free(vals);
	}
	fputc('\n', f);
	free(acc);
}

static void excerpt_text(FILE *f, const char *ex)
{
	for (const char *l = ex; l && *l;) {
		size_t n = strcspn(l, "\n");

		fprintf(f, "     | %.*s\n", (int)n, l);
		l += n + (l[n] == '\n');
	}
}

/* First: what broke, grouped by signature, each with its first excerpt. */
static void problems_text(FILE *f, const struct rep_problems *p)
{
	fputs("Problems (CRASH, FAIL, TIMEOUT cells grouped by signature)\n", f);
	if (!p->n)
		fputs("  no problems\n", f);
	for (size_t i = 0; i < p->n; i++) {
		const struct rep_problem *g = &p->v[i];

		fprintf(f, "%3zu. %-7s x%zu  %s\n     kernel%s: ", i + 1, g->verdict, g->ncells,
			g->title, g->nkernels > 1 ? "s" : "");
		for (size_t k = 0; k < g->nkernels; k++)
			fprintf(f, "%s%s", k ? ", " : "", g->kernels[k]);
		fputs("\n     cells: ", f);
		for (size_t k = 0; k < g->ncells; k++)
			fprintf(f, "%s%s", k ? ", " : "", g->cells[k]->id);
		if (g->where)
			fprintf(f, "\n     where: %s", g->where);
		if (g->known)
			fprintf(f, "\n     known kernel bug: %s", g->known);
		if (g->console)
			fprintf(f, "\n     console: %s", g->console);
		fputs("\n", f);
		excerpt_text(f, g->excerpt);
	}
	fputc('\n', f);
}

static void verdict_text(FILE *f, const struct rep_run *r)
{
	char a[32], b[32], c2[32], d[32];
	int fw = 0, iw = 36;

	/* A fault column only when some cell ran with one; ids with -f<slug> are longer. */
	for (size_t i = 0; i < r->n; i++) {
		if (r->any_fault && (int)strlen(r->cells[i].fault) > fw)
			fw = (int)strlen(r->cells[i].fault);
		if ((int)strlen(r->cells[i].id) > iw)
			iw = (int)strlen(r->cells[i].id);
	}
	fputs("Cells\n", f);
	fprintf(f, "%-*s %-*s%s%-10s %12s %14s %9s %9s  %s\n", iw, "cell", fw, fw ? "fault" : "",
		fw ? " " : "", "verdict", "ops/s", "ev/s per CPU", "pop p50", "pop p99",
		"signature / notes");
	fprintf(f, "%-*s %-*s%s%-10s %12s %14s %9s %9s\n", iw, "", fw, "", fw ? " " : "", "",
		"[ops/s]", "[ev/s]", "[ns]", "[ns]");
	for (size_t i = 0; i < r->n; i++) {
		const struct rep_cell *c = &r->cells[i];
		const struct rep_hist *pop = rep_cell_pop(c);
		char *notes = rep_cell_notes(c);

		fprintf(f, "%-*s %-*s%s%-10s %12s %14s %9s %9s  %s\n", iw, c->id, fw,
			fw ? c->fault : "", fw ? " " : "", c->verdict,
			num_text(a, sizeof(a), c->has_module ? c->ops_per_sec : NAN, 0),
			num_text(b, sizeof(b), c->has_module ? c->evs_per_cpu : NAN, 0),
			num_text(c2, sizeof(c2), pop ? hist_percentile(&pop->h, 50) : NAN, 0),
			num_text(d, sizeof(d), pop ? hist_percentile(&pop->h, 99) : NAN, 0),
			notes ? notes : "");
		free(notes);
	}
	fputc('\n', f);
	for (size_t i = 0, hdr = 0; i < r->n; i++) {
		const struct rep_cell *c = &r->cells[i];

		if (!strcmp(c->verdict, "PASS"))
			continue;
		if (!hdr++)
			fputs("Not passed\n", f);
		fprintf(f, "  %-10s %s: %s\n", c->verdict, c->id,
			c->signature ? c->signature : c->reason ? c->reason : "(no signature)");
	}
	fputc('\n', f);
}

static void per_cpu_text(FILE *f, const struct rep_run *r)
{
	fputs("Per-CPU throughput (seed format)\n", f);
	for (size_t i = 0; i < r->n; i++) {
		const struct rep_cell *c = &r->cells[i];

		if (!c->ncpus)
			continue;
		fprintf(f, "# %s (%s)\n", c->id, c->verdict);
		for (size_t j = 0; j < c->ncpus; j++)
			fprintf(f, "%d:%s %.0f events per sec\n", c->cpus[j].cpu, c->workload,
				c->cpus[j].ops_per_sec);
	}
	fputc('\n', f);
}

static void scaling_text(FILE *f, const struct rep_run *r)
{
	char a[48], b[48], c[48];

	fputs("Scaling (mean ± stddev over repeats; n = repeats that finished)\n", f);
	fprintf(f, "%-14s %-16s %6s %3s %20s %18s %18s\n", "workload", "kernel", "vCPUs", "n",
		"ev/s per CPU", "pop p50", "pop p99");
	fprintf(f, "%-14s %-16s %6s %3s %20s %18s %18s\n", "", "", "", "", "[ev/s]", "[ns]", "[ns]");
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct rep_group *g = &r->groups[i];

		fprintf(f, "%-14s %-16s %6d %3zu %20s %18s %18s\n", g->workload, g->series,
			g->vcpus, g->nok, pm(a, sizeof(a), &g->evs_per_cpu),
			pm(b, sizeof(b), &g->pop_p50), pm(c, sizeof(c), &g->pop_p99));
	}
	fputc('\n', f);
}

static void ab_row(FILE *f, const char *what, const struct rep_stat *base,
		   const struct rep_stat *s, const char *label)
{
	char a[48], b[48], pc[32];
	double d = rep_pct_change(base->mean, s->mean);

	if (isfinite(d))
		snprintf(pc, sizeof(pc), "%+.1f%%", d);
	else
		snprintf(pc, sizeof(pc), "-");
	fprintf(f, "    %-14s %-12s %20s %20s %9s\n", what, label, pm(a, sizeof(a), base),
		pm(b, sizeof(b), s), pc);
}

static void ab_text(FILE *f, const struct rep_run *r)
{
	const char *base = r->kernels[0];

	if (r->nkernels < 2 || r->nseries)
		return;
	fprintf(f, "A/B: each kernel against %s (mean ± stddev, %%change of the means)\n", base);
	for (size_t w = 0; w < r->nworkloads; w++)
		for (size_t v = 0; v < r->nvcpus; v++) {
			const struct rep_group *g0 = rep_group_find(r, r->workloads[w], base,
								    r->vcpus[v]);

			if (!g0)
				continue;
			fprintf(f, "  %s, %d vCPU\n    %-14s %-12s %20s %20s %9s\n", r->workloads[w],
				r->vcpus[v], "metric", "kernel", base, "kernel", "%change");
			for (size_t k = 1; k < r->nkernels; k++) {
				const struct rep_group *g = rep_group_find(r, r->workloads[w],
									   r->kernels[k], r->vcpus[v]);

				if (!g)
					continue;
				ab_row(f, "ev/s per CPU", &g0->evs_per_cpu, &g->evs_per_cpu, g->kernel);
				ab_row(f, "pop p50 [ns]", &g0->pop_p50, &g->pop_p50, g->kernel);
				ab_row(f, "pop p99 [ns]", &g0->pop_p99, &g->pop_p99, g->kernel);
			}
		}
	fputc('\n', f);
}

static void hist_text(FILE *f, const struct rep_run *r)
{
	char title[512];

	fputs("Histograms (all repeats of a group summed)\n\n", f);
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct rep_group *g = &r->groups[i];

		if (g->pop.count) {
			snprintf(title, sizeof(title), "@ns %s, %s, %s, %d vCPU", POP_SCRIPT,
				 g->workload, g->series, g->vcpus);
			rep_hist_draw(f, title, &g->pop);
		}
		for (size_t j = 0; j < g->nlat; j++) {
			snprintf(title, sizeof(title), "module latency_ns %s, %s, %s, %d vCPU",
				 g->lat[j].name, g->workload, g->series, g->vcpus);
			rep_hist_draw(f, title, &g->lat[j].h);
		}
		for (size_t j = 0; j < g->nbt; j++) {
			if (!strcmp(g->bt[j].script, POP_SCRIPT) && !strcmp(g->bt[j].name, POP_MAP))
				continue;
			snprintf(title, sizeof(title), "%s %s, %s, %s, %d vCPU", g->bt[j].name,
				 g->bt[j].script, g->workload, g->series, g->vcpus);
			rep_hist_draw(f, title, &g->bt[j].h);
		}
	}
}

int rep_write_txt(const struct rep_run *r, json_t *env, const struct rep_problems *p,
		  const struct rep_coverage *cov, const char *path)
{
	char *buf;
	size_t len;
	FILE *f = rep_mem_open(&buf, &len);

	if (!f)
		return -1;
	fprintf(f, "htab-torture report: %s\n", r->dir);
	fprintf(f, "generated %s on %s\n\n", json_string_value(json_object_get(env, "generated_at")),
		json_string_value(json_object_get(env, "report_host")));
	problems_text(f, p);
	env_text(f, r, env);
	verdict_text(f, r);
	scaling_text(f, r);
	ab_text(f, r);
	rep_coverage_text(f, cov);
	rep_seed_text(f, r);
	per_cpu_text(f, r);
	hist_text(f, r);
	return rep_mem_commit(f, &buf, &len, path);
}
