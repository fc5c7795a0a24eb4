/* Data files and gnuplot scripts for the report's figures. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"
#include "report/report_plots.h"
#include "lib/util.h"

struct ctx {
	const struct rep_run *r;
	struct rep_plots *p;
	char dir[4200];
	const char *emul;	/* title suffix for emulated runs */
};

static struct rep_plot *new_plot(struct ctx *x, enum plot_kind k, const char *wl,
				 const char *series, int vcpus, const char *name)
{
	struct rep_plot *v = realloc(x->p->v, (x->p->n + 1) * sizeof(*v)), *pl;

	if (!v)
		return NULL;
	x->p->v = v;
	pl = &v[x->p->n++];
	memset(pl, 0, sizeof(*pl));
	pl->kind = k;
	pl->workload = wl;
	pl->series = series;
	pl->vcpus = vcpus;
	pl->name = plot_safe_name(name);
	return pl;
}

static FILE *open_in(struct ctx *x, const struct rep_plot *pl, const char *ext)
{
	char path[4600];

	snprintf(path, sizeof(path), "%s/%s.%s", x->dir, pl->name, ext);
	return fopen(path, "w");
}

static void finish(struct ctx *x, struct rep_plot *pl, int npoints)
{
	if (!npoints) {
		snprintf(pl->why, sizeof(pl->why), "no data (no cell of this group finished)");
		return;
	}
	if (!x->p->terminal) {
		snprintf(pl->why, sizeof(pl->why), "gnuplot not installed: data in plots/%s.dat",
			 pl->name);
		return;
	}
	pl->ok = plot_render(x->dir, pl->name, pl->why, sizeof(pl->why)) == 0;
}

static const char *const *series_of(const struct rep_run *r, size_t *n)
{
	*n = r->nseries ? r->nseries : r->nkernels;
	return (const char *const *)(r->nseries ? r->series_labels : r->kernels);
}

static void xaxis_vcpus(FILE *gp, const struct rep_run *r)
{
	fputs("set xlabel 'vCPUs'\nset xtics (", gp);
	for (size_t i = 0; i < r->nvcpus; i++)
		fprintf(gp, "%s'%d' %d", i ? ", " : "", r->vcpus[i], r->vcpus[i]);
	fputs(")\n", gp);
	if (r->nvcpus > 2 && r->vcpus[0] > 0)
		fputs("set logscale x 2\n", gp);
	fputs("set offsets graph 0.06, graph 0.06, graph 0.05, 0\n", gp);
}

/* One data block per series that has points; *idx gets the block's series. */
static int scaling(struct ctx *x, const char *wl, bool pop)
{
	const struct rep_run *r = x->r;
	size_t ns, nblocks = 0;
	const char *const *series = series_of(r, &ns);
	const char **blk = calloc(ns + 1, sizeof(*blk));
	char name[600], title[600];
	struct rep_plot *pl;
	FILE *dat, *gp;
	int points = 0;

	snprintf(name, sizeof(name), "scaling_%s_%s", wl, pop ? "pop" : "evs");
	pl = blk ? new_plot(x, pop ? PK_SCALING_POP : PK_SCALING_EVS, wl, NULL, 0, name) : NULL;
	if (!pl || !(dat = open_in(x, pl, "dat"))) {
		free(blk);
		return -1;
	}
	for (size_t s = 0; s < ns; s++) {
		bool header = false;

		for (size_t v = 0; v < r->nvcpus; v++) {
			const struct rep_group *g = rep_group_find(r, wl, series[s], r->vcpus[v]);

			if (!g || !(pop ? g->pop_p50.n : g->evs_per_cpu.n))
				continue;
			if (!header) {
				fprintf(dat, "# %s: vcpus %s\n", series[s], pop ?
					"p50_mean p50_sd p99_mean p99_sd n" : "evs_per_cpu_mean sd n");
				blk[nblocks++] = series[s];
				header = true;
			}
			if (pop)
				fprintf(dat, "%d %.1f %.1f %.1f %.1f %zu\n", g->vcpus,
					g->pop_p50.mean, g->pop_p50.sd, g->pop_p99.mean,
					g->pop_p99.sd, g->pop_p50.n);
			else
				fprintf(dat, "%d %.1f %.1f %zu\n", g->vcpus, g->evs_per_cpu.mean,
					g->evs_per_cpu.sd, g->evs_per_cpu.n);
			points++;
		}
		if (header)
			fputs("\n\n", dat);
	}
	fclose(dat);
	gp = open_in(x, pl, "gp");
	if (!gp) {
		free(blk);
		return -1;
	}
	snprintf(title, sizeof(title), "%s: %s, mean ± sd%s", wl,
		 pop ? "pop latency p50 (solid) / p99 (dashed)" : "events/s per CPU", x->emul);
	plot_preamble(gp, x->p->terminal ? x->p->terminal : "png", pl->name, 820, 420, title);
	xaxis_vcpus(gp, r);
	if (pop)
		fputs("set ylabel 'ns'\nset logscale y 2\nset format y '%.0b%B'\n", gp);
	else
		fputs("set ylabel 'ev/s per CPU'\nset yrange [0:*]\n", gp);
	fputs("plot ", gp);
	/* Only series with points have a block, so block b is blk[b]. */
	for (size_t b = 0; b < nblocks; b++) {
		char t[300];

		if (b)
			fputs(", \\\n     ", gp);
		snprintf(t, sizeof(t), pop ? "%s p50" : "%s", blk[b]);
		fprintf(gp, "'%s.dat' index %zu using 1:2:3 with yerrorlines lc %zu lw 2 pt 7 title ",
			pl->name, b, b + 1);
		plot_quote(gp, t);
		if (pop) {
			fprintf(gp, ", \\\n     '%s.dat' index %zu using 1:4:5 with yerrorlines lc %zu dt 2 lw 2 pt 6 title ",
				pl->name, b, b + 1);
			snprintf(t, sizeof(t), "%s p99", blk[b]);
			plot_quote(gp, t);
		}
	}
	fputc('\n', gp);
	fclose(gp);
	free(blk);
	finish(x, pl, points);
	return 0;
}

/* Histogram as steps: each bucket's lo with its share, then the last hi. */
static int hist_block(FILE *dat, const char *label, const struct hist *h)
{
	size_t last = 0;

	if (!h->count)
		return 0;
	fprintf(dat, "# %s: lo_ns fraction count (total %llu)\n", label,
		(unsigned long long)h->count);
	for (size_t i = 0; i < h->n; i++) {
		fprintf(dat, "%llu %.6f %llu\n", (unsigned long long)(h->b[i].lo ? h->b[i].lo : 1),
			(double)h->b[i].count / (double)h->count, (unsigned long long)h->b[i].count);
		last = i;
	}
	fprintf(dat, "%llu %.6f 0\n\n\n", (unsigned long long)h->b[last].hi,
		(double)h->b[last].count / (double)h->count);
	return 1;
}

struct hseries {
	const char *label;
	const struct hist *h;
};

static int hist_plot(struct ctx *x, struct rep_plot *pl, const struct hseries *hs, size_t n,
		     const char *title)
{
	FILE *dat = open_in(x, pl, "dat"), *gp;
	size_t nb = 0;
	const char **labels = calloc(n + 1, sizeof(*labels));

	if (!dat || !labels) {
		if (dat)
			fclose(dat);
		free(labels);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (hist_block(dat, hs[i].label, hs[i].h))
			labels[nb++] = hs[i].label;
	fclose(dat);
	gp = open_in(x, pl, "gp");
	if (!gp) {
		free(labels);
		return -1;
	}
	plot_preamble(gp, x->p->terminal ? x->p->terminal : "png", pl->name, 560, 340, title);
	fputs("set xlabel 'latency, ns (log2 buckets)'\nset ylabel 'fraction of calls'\n"
	      "set logscale x 2\nset format x '%.0b%B'\nset yrange [0:*]\n"
	      "set key inside right top\nplot ", gp);
	for (size_t b = 0; b < nb; b++) {
		fprintf(gp, "%s'%s.dat' index %zu using 1:2 with steps lw 2 lc %zu title ",
			b ? ", \\\n     " : "", pl->name, b, b + 1);
		plot_quote(gp, labels[b]);
	}
	fputc('\n', gp);
	fclose(gp);
	free(labels);
	finish(x, pl, (int)nb);
	return 0;
}

static int pop_hist(struct ctx *x, const char *wl, const char *series)
{
	const struct rep_run *r = x->r;
	struct hseries hs[64];
	char labels[64][32], name[600], title[600];
	size_t n = 0;
	struct rep_plot *pl;

	for (size_t v = 0; v < r->nvcpus && n < 64; v++) {
		const struct rep_group *g = rep_group_find(r, wl, series, r->vcpus[v]);

		if (!g || !g->pop.count)
			continue;
		snprintf(labels[n], sizeof(labels[n]), "%d vCPU", g->vcpus);
		hs[n].label = labels[n];
		hs[n].h = &g->pop;
		n++;
	}
	snprintf(name, sizeof(name), "pophist_%s_%s", wl, series);
	snprintf(title, sizeof(title), "__pcpu_freelist_pop latency, %s, %s (all repeats)%s",
		 wl, series, x->emul);
	pl = new_plot(x, PK_POP_HIST, wl, series, 0, name);
	return pl ? hist_plot(x, pl, hs, n, title) : -1;
}

static int lat_plots(struct ctx *x, const struct rep_group *g)
{
	struct hseries hs[64];
	char labels[64][300], name[600], title[600];
	struct rep_plot *pl;
	size_t n = 0;

	for (size_t i = 0; i < g->nlat && n < 64; i++, n++) {
		hs[n].label = g->lat[i].name;
		hs[n].h = &g->lat[i].h;
	}
	snprintf(name, sizeof(name), "lat_%s_%s_v%d_module", g->workload, g->series, g->vcpus);
	snprintf(title, sizeof(title), "module latency_ns per op: %s, %s, %d vCPU%s",
		 g->workload, g->series, g->vcpus, x->emul);
	pl = new_plot(x, PK_LAT_MODULE, g->workload, g->series, g->vcpus, name);
	if (!pl || hist_plot(x, pl, hs, n, title))
		return -1;
	n = 0;
	for (size_t i = 0; i < g->nbt && n < 64; i++, n++) {
		snprintf(labels[n], sizeof(labels[n]), "%s %s", g->bt[i].script, g->bt[i].name);
		hs[n].label = labels[n];
		hs[n].h = &g->bt[i].h;
	}
	snprintf(name, sizeof(name), "lat_%s_%s_v%d_bpftrace", g->workload, g->series, g->vcpus);
	snprintf(title, sizeof(title), "bpftrace hist(): %s, %s, %d vCPU%s",
		 g->workload, g->series, g->vcpus, x->emul);
	pl = new_plot(x, PK_LAT_BPFTRACE, g->workload, g->series, g->vcpus, name);
	return pl ? hist_plot(x, pl, hs, n, title) : -1;
}

int rep_plots_make(const struct rep_run *r, struct rep_plots *p)
{
	struct ctx x = { .r = r, .p = p, .emul = r->any_tcg ? " [TCG: emulated]" : "" };
	size_t ns;
	const char *const *series = series_of(r, &ns);
	int err = 0;

	memset(p, 0, sizeof(*p));
	snprintf(x.dir, sizeof(x.dir), "%s/plots", r->dir);
	if (mkdir_p(x.dir)) {
		fprintf(stderr, "error: cannot create %s\n", x.dir);
		return -1;
	}
	p->terminal = plot_terminal();
	for (size_t w = 0; w < r->nworkloads && !err; w++) {
		err = scaling(&x, r->workloads[w], false) || scaling(&x, r->workloads[w], true);
		for (size_t s = 0; s < ns && !err; s++)
			err = pop_hist(&x, r->workloads[w], series[s]);
	}
	for (size_t i = 0; i < r->ngroups && !err; i++)
		err = lat_plots(&x, &r->groups[i]);
	if (err)
		fprintf(stderr, "error: writing %s: out of memory or disk\n", x.dir);
	return err ? -1 : 0;
}

const struct rep_plot *rep_plot_find(const struct rep_plots *p, enum plot_kind kind,
				     const char *workload, const char *series, int vcpus)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct rep_plot *pl = &p->v[i];

		if (pl->kind == kind && !strcmp(pl->workload, workload) &&
		    (!series || (pl->series && !strcmp(pl->series, series))) &&
		    pl->vcpus == vcpus)
			return pl;
	}
	return NULL;
}

void rep_plots_free(struct rep_plots *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].name);
	free(p->v);
	memset(p, 0, sizeof(*p));
}
