/*
 * report.html: one self-contained page (plus plots/NAME.png by relative path).
 * A small script at the end sets body data-images-ok / data-images-total so a
 * headless browser test can tell every figure loaded.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_env.h"
#include "report/report_out.h"
#include "report/report_seed.h"

static void td_num(FILE *f, double v, const char *fmt)
{
	fputs("<td class=n>", f);
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("&ndash;", f);
	fputs("</td>", f);
}

static void td_pm(FILE *f, const struct rep_stat *s)
{
	if (!s->n)
		fputs("<td class=n>&ndash;</td>", f);
	else
		fprintf(f, "<td class=n>%.0f &plusmn; %.0f</td>", s->mean, s->sd);
}

static const char *css =
	"body{font:14px/1.4 sans-serif;margin:1.5em;max-width:1400px;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0 1em}"
	"th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}"
	"th{background:#eee}tr.units td{font-size:11px;color:#666;background:#fafafa}"
	"td.n{text-align:right;font-family:monospace}"
	".v-PASS{background:#e3f5e1}.v-FAIL{background:#fde2c8}.v-CRASH{background:#f9c6c6}"
	".v-TIMEOUT{background:#f9d9f0}.v-SKIP{background:#eee}.v-INCOMPLETE{background:#fff3b0}"
	".emul{background:#fff3b0;border:2px solid #c90;padding:.5em 1em;font-weight:bold}"
	".row{display:flex;flex-wrap:wrap;gap:12px}.fig{border:1px solid #ddd;padding:4px}"
	".fig p{margin:2px;font-size:12px;color:#555}.missing{color:#a00;font-style:italic}"
	"code{font-size:12px}pre.excerpt{font-size:11px;max-height:30em;overflow:auto;margin:2px}"
	".noproblems{background:#e3f5e1;padding:.3em .6em}";

static void figure(FILE *f, const struct rep_plot *pl, const char *caption)
{
	fputs("<div class=fig>", f);
	if (pl && pl->ok) {
		fputs("<img src=\"plots/", f);
		rep_html_esc(f, pl->name);
		fputs(".png\" alt=\"", f);
		rep_html_esc(f, caption);
		fputs("\">", f);
	} else {
		fputs("<p class=missing>", f);
		rep_html_esc(f, caption);
		fputs(": ", f);
		rep_html_esc(f, pl ? pl->why : "not plotted");
		fputs("</p>", f);
	}
	fputs("<p>", f);
	rep_html_esc(f, caption);
	fputs("</p></div>\n", f);
}

static void env_html(FILE *f, const struct rep_run *r, json_t *env)
{
	/* report_env makes "host" one readable line (build_host). */
	const char *h = json_string_value(json_object_get(env, "host"));
	json_t *k, *v;
	char *acc = rep_env_join(json_object_get(env, "accels"));
	const char *key;
	size_t i;

	if (r->any_tcg)
		fputs("<p class=emul id=emulated>EMULATED: cells ran under QEMU TCG (no usable KVM). "
		      "Timings come from an emulated CPU: compare kernels with each other, "
		      "never with hardware figures.</p>\n", f);
	fputs("<h2>Environment</h2>\n<table id=env><tr><th>host (run)</th><td>", f);
	rep_html_esc(f, h);
	fputs("</td></tr><tr><th>accelerator</th><td>", f);
	rep_html_esc(f, acc);
	if (r->any_tcg)
		fputs(" <b>(TCG = emulated)</b>", f);
	fputs("</td></tr><tr><th>report made</th><td>", f);
	rep_html_esc(f, json_string_value(json_object_get(env, "generated_at")));
	fputs(" on ", f);
	rep_html_esc(f, json_string_value(json_object_get(env, "report_host")));
	fputs("</td></tr></table>\n<h3>Kernels</h3>\n<table id=kernels><tr><th>label</th>"
	      "<th>kernel</th><th>line</th><th>release</th><th>image</th><th>sha256</th></tr>\n", f);
	json_array_foreach(json_object_get(env, "kernels"), i, k) {
		const char *sha = json_string_value(json_object_get(k, "sha256"));

		fputs("<tr><td>", f);
		rep_html_esc(f, json_string_value(json_object_get(k, "label")));
		fputs("</td><td>", f);
		rep_html_esc(f, json_string_value(json_object_get(k, "name")) ?: "not recorded");
		fputs("</td><td>", f);
		rep_html_esc(f, json_string_value(json_object_get(k, "line")) ?: "not recorded");
		fputs("</td><td>", f);
		rep_html_esc(f, json_string_value(json_object_get(k, "release")) ?: "unknown");
		fputs("</td><td><code>", f);
		rep_html_esc(f, json_string_value(json_object_get(k, "image")) ?: "not recorded");
		fputs("</code></td><td><code>", f);
		rep_html_esc(f, sha ? sha : "not available");
		fputs("</code> ", f);
		if (sha) {
			fputs("<small>(", f);
			rep_html_esc(f, json_string_value(json_object_get(k, "sha256_source")));
			fputs(")</small>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<h3>Parameters</h3>\n<table id=params><tr><th>parameter</th>"
	      "<th>values over the run</th></tr>\n", f);
	json_object_foreach(json_object_get(env, "params"), key, v) {
		char *vals = rep_env_join(v);

		fputs("<tr><td>", f);
		rep_html_esc(f, key);
		fputs("</td><td>", f);
		rep_html_esc(f, vals);
		fputs("</td></tr>\n", f);
		free(vals);
	}
	fputs("</table>\n", f);
	free(acc);
}

/* First: what broke, grouped by signature; the excerpt folds, the console is a link. */
static void problems_html(FILE *f, const struct rep_problems *p)
{
	fputs("<h2>Problems</h2>\n", f);
	if (!p->n) {
		fputs("<p id=problems class=noproblems>no problems: no cell CRASHed, FAILed or "
		      "timed out.</p>\n", f);
		return;
	}
	fputs("<table id=problems><tr><th>title</th><th>verdict</th><th>kernel(s)</th>"
	      "<th>count</th><th>cells</th><th>first excerpt</th><th>console</th></tr>\n", f);
	for (size_t i = 0; i < p->n; i++) {
		const struct rep_problem *g = &p->v[i];
		char *first;

		fprintf(f, "<tr class=\"v-%s\" data-verdict=\"%s\"><td><b>", g->verdict, g->verdict);
		rep_html_esc(f, g->title);
		fputs("</b>", f);
		if (g->where) {
			fputs("<br><code class=where>", f);
			rep_html_esc(f, g->where);
			fputs("</code>", f);
		}
		if (g->known) {
			fputs("<br><span class=known>known kernel bug: ", f);
			rep_html_esc(f, g->known);
			fputs("</span>", f);
		}
		fprintf(f, "</td><td>%s</td><td>", g->verdict);
		for (size_t k = 0; k < g->nkernels; k++) {
			fputs(k ? ", " : "", f);
			rep_html_esc(f, g->kernels[k]);
		}
		fprintf(f, "</td><td class=n>%zu</td><td>", g->ncells);
		for (size_t k = 0; k < g->ncells; k++) {
			fputs(k ? "<br>" : "", f);
			fputs("<code>", f);
			rep_html_esc(f, g->cells[k]->id);
			fputs("</code>", f);
		}
		fputs("</td><td><details><summary>", f);
		first = strndup(g->excerpt, strcspn(g->excerpt, "\n"));
		rep_html_esc(f, first);
		free(first);
		fputs("</summary><pre class=excerpt>", f);
		rep_html_esc(f, g->excerpt);
		fputs("</pre></details></td><td>", f);
		if (g->console) {
			fputs("<a href=\"", f);
			rep_html_esc(f, g->console);
			fputs("\">console.log</a>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void verdict_html(FILE *f, const struct rep_run *r)
{
	fputs("<h2>Verdicts</h2>\n<table id=verdicts><tr><th>cell</th><th>vCPUs</th>"
	      "<th>workload</th><th>kernel</th><th>noise</th><th>fault</th><th>repeat</th>"
	      "<th>accel</th><th>verdict</th><th>ops/s</th><th>ev/s per CPU</th><th>pop p50</th>"
	      "<th>pop p99</th><th>signature / notes</th></tr>\n"
	      "<tr class=units><td></td><td>count</td><td></td><td></td><td></td><td></td><td>index</td>"
	      "<td></td><td></td><td>ops/s</td><td>ev/s</td><td>ns</td><td>ns</td><td></td></tr>\n",
	      f);
	for (size_t i = 0; i < r->n; i++) {
		const struct rep_cell *c = &r->cells[i];
		const struct rep_hist *pop = rep_cell_pop(c);
		char *notes = rep_cell_notes(c);

		fprintf(f, "<tr class=\"v-%s\" data-verdict=\"%s\"><td><code>", c->verdict, c->verdict);
		rep_html_esc(f, c->id);
		fprintf(f, "</code></td><td class=n>%d</td><td>", c->vcpus);
		rep_html_esc(f, c->workload);
		fputs("</td><td>", f);
		rep_html_esc(f, c->kernel);
		fputs("</td><td>", f);
		rep_html_esc(f, c->noise);
		fputs("</td><td>", f);
		rep_html_esc(f, c->fault);
		fprintf(f, "</td><td class=n>%d</td><td>", c->repeat);
		rep_html_esc(f, c->accel);
		fprintf(f, "</td><td><b>%s</b></td>", c->verdict);
		td_num(f, c->has_module ? c->ops_per_sec : NAN, "%.0f");
		td_num(f, c->has_module ? c->evs_per_cpu : NAN, "%.0f");
		td_num(f, pop ? hist_percentile(&pop->h, 50) : NAN, "%.0f");
		td_num(f, pop ? hist_percentile(&pop->h, 99) : NAN, "%.0f");
		fputs("<td class=sig>", f);
		rep_html_esc(f, notes);
		fputs("</td></tr>\n", f);
		free(notes);
	}
	fputs("</table>\n", f);
}

static void scaling_html(FILE *f, const struct rep_run *r, const struct rep_plots *p)
{
	fputs("<h2>Scaling</h2>\n<p>Points are the mean over repeats, error bars &plusmn; one "
	      "sample stddev; only cells that ran to the end count (not CRASH/TIMEOUT/SKIP).</p>\n",
	      f);
	for (size_t w = 0; w < r->nworkloads; w++) {
		const char *wl = r->workloads[w];

		fputs("<h3>", f);
		rep_html_esc(f, wl);
		fputs("</h3>\n<div class=row>\n", f);
		figure(f, rep_plot_find(p, PK_SCALING_EVS, wl, NULL, 0), "events/s per CPU vs vCPUs");
		figure(f, rep_plot_find(p, PK_SCALING_POP, wl, NULL, 0),
		       "__pcpu_freelist_pop p50/p99 vs vCPUs");
		fputs("</div>\n<table class=scaling><tr><th>kernel</th><th>vCPUs</th><th>cells</th>"
		      "<th>counted</th><th>ev/s per CPU</th><th>ops/s</th><th>pop p50</th>"
		      "<th>pop p99</th></tr>\n<tr class=units><td></td><td>count</td><td></td><td></td>"
		      "<td>ev/s</td><td>ops/s</td><td>ns</td><td>ns</td></tr>\n", f);
		for (size_t i = 0; i < r->ngroups; i++) {
			const struct rep_group *g = &r->groups[i];

			if (strcmp(g->workload, wl))
				continue;
			fputs("<tr><td>", f);
			rep_html_esc(f, g->series);
			fprintf(f, "</td><td class=n>%d</td><td class=n>%zu</td><td class=n>%zu</td>",
				g->vcpus, g->ncells, g->nok);
			td_pm(f, &g->evs_per_cpu);
			td_pm(f, &g->ops_per_sec);
			td_pm(f, &g->pop_p50);
			td_pm(f, &g->pop_p99);
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
	}
}

static void hist_html(FILE *f, const struct rep_run *r, const struct rep_plots *p)
{
	size_t ns = r->nseries ? r->nseries : r->nkernels;
	char **series = r->nseries ? r->series_labels : r->kernels;
	char cap[512];

	fputs("<h2>__pcpu_freelist_pop histograms</h2>\n<p>bpftrace <code>@ns</code> log2 "
	      "buckets, all repeats summed, one line per vCPU count.</p>\n<div class=row>\n", f);
	for (size_t w = 0; w < r->nworkloads; w++)
		for (size_t s = 0; s < ns; s++) {
			snprintf(cap, sizeof(cap), "pop latency: %s, %s", r->workloads[w], series[s]);
			figure(f, rep_plot_find(p, PK_POP_HIST, r->workloads[w], series[s], 0), cap);
		}
	fputs("</div>\n<h2>Per-op latency: module vs bpftrace</h2>\n<p>Left: the module's own "
	      "<code>latency_ns</code> per op (timed around the map call, sampled: see each cell's "
	      "<code>timing</code>) and <code>clock_read</code>, its back-to-back clock reads at load: "
	      "the floor under every timed op; right: every bpftrace <code>hist()</code> of the same "
	      "cells. Percentiles everywhere: " PERCENTILE_METHOD ".</p>\n", f);
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct rep_group *g = &r->groups[i];

		fputs("<h3>", f);
		rep_html_esc(f, g->workload);
		fputs(", ", f);
		rep_html_esc(f, g->series);
		fprintf(f, ", %d vCPU</h3>\n<div class=row>\n", g->vcpus);
		snprintf(cap, sizeof(cap), "module latency_ns, %d vCPU", g->vcpus);
		figure(f, rep_plot_find(p, PK_LAT_MODULE, g->workload, g->series, g->vcpus), cap);
		snprintf(cap, sizeof(cap), "bpftrace hist(), %d vCPU", g->vcpus);
		figure(f, rep_plot_find(p, PK_LAT_BPFTRACE, g->workload, g->series, g->vcpus), cap);
		fputs("</div>\n", f);
	}
}

static void ab_cell(FILE *f, const struct rep_stat *base, const struct rep_stat *s)
{
	double d = rep_pct_change(base->mean, s->mean);

	td_pm(f, s);
	if (isfinite(d))
		fprintf(f, "<td class=n>%+.1f%%</td>", d);
	else
		fputs("<td class=n>&ndash;</td>", f);
}

static void ab_html(FILE *f, const struct rep_run *r)
{
	const char *base = r->kernels[0];

	if (r->nkernels < 2 || r->nseries)
		return;
	fputs("<h2>A/B</h2>\n<p>Per-kernel means &plusmn; stddev over repeats; %change of the "
	      "mean against <b>", f);
	rep_html_esc(f, base);
	fputs("</b>.</p>\n<table id=ab><tr><th>workload</th><th>vCPUs</th><th>kernel</th>"
	      "<th>ev/s per CPU</th><th>%change</th><th>pop p50</th><th>%change</th>"
	      "<th>pop p99</th><th>%change</th></tr>\n<tr class=units><td></td><td>count</td>"
	      "<td></td><td>ev/s</td><td>%</td><td>ns</td><td>%</td><td>ns</td><td>%</td></tr>\n", f);
	for (size_t w = 0; w < r->nworkloads; w++)
		for (size_t v = 0; v < r->nvcpus; v++) {
			const struct rep_group *g0 = rep_group_find(r, r->workloads[w], base,
								    r->vcpus[v]);

			for (size_t k = 0; g0 && k < r->nkernels; k++) {
				const struct rep_group *g = rep_group_find(r, r->workloads[w],
									   r->kernels[k], r->vcpus[v]);

				if (!g)
					continue;
				fputs("<tr><td>", f);
				rep_html_esc(f, g->workload);
				fprintf(f, "</td><td class=n>%d</td><td>", g->vcpus);
				rep_html_esc(f, g->kernel);
				fputs("</td>", f);
				ab_cell(f, &g0->evs_per_cpu, &g->evs_per_cpu);
				ab_cell(f, &g0->pop_p50, &g->pop_p50);
				ab_cell(f, &g0->pop_p99, &g->pop_p99);
				fputs("</tr>\n", f);
			}
		}
	fputs("</table>\n", f);
}

static const char *script =
	"<script>\n"
	"function htImages(){var im=document.images,ok=0;\n"
	" for(var i=0;i<im.length;i++)if(im[i].complete&&im[i].naturalWidth>0)ok++;\n"
	" document.body.dataset.imagesOk=ok;document.body.dataset.imagesTotal=im.length;}\n"
	"window.addEventListener('load',htImages);\n"
	"</script>\n";

int rep_write_html(const struct rep_run *r, json_t *env, const struct rep_plots *p,
		   const struct rep_problems *pb, const struct rep_coverage *cov, const char *path)
{
	char *buf;
	size_t len;
	FILE *f = rep_mem_open(&buf, &len);

	if (!f)
		return -1;
	fprintf(f, "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>\n<title>"
		"htab-torture report</title>\n<style>%s</style></head>\n"
		"<body data-images-ok=\"pending\">\n<h1>htab-torture report</h1>\n<p>Run <code>", css);
	rep_html_esc(f, r->dir);
	fprintf(f, "</code>: %zu cells. Also: <a href=\"report.txt\">report.txt</a>, "
		"<a href=\"summary.csv\">summary.csv</a>, <a href=\"summary.json\">summary.json</a>.</p>\n",
		r->n);
	if (!p->terminal)
		fputs("<p class=missing>gnuplot not found: no figures, data files are in plots/.</p>\n",
		      f);
	problems_html(f, pb);
	env_html(f, r, env);
	verdict_html(f, r);
	ab_html(f, r);
	rep_coverage_html(f, cov);
	rep_seed_html(f, r);
	scaling_html(f, r, p);
	hist_html(f, r, p);
	fputs(script, f);
	fputs("</body></html>\n", f);
	return rep_mem_commit(f, &buf, &len, path);
}
