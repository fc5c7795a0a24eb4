/* Repeats grouped per (workload, series, vCPUs): mean ± stddev and summed histograms. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/welch_bootstrap.h"
#include "rundir/run_load.h"

/* Mean and sd as compare and stats have them (st_mean_sd), min and max: finite values only. */
void rep_stat_of(struct rep_stat *s, const double *v, size_t n)
{
	s->min = s->max = NAN;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (isnan(s->min) || v[i] < s->min)
			s->min = v[i];
		if (isnan(s->max) || v[i] > s->max)
			s->max = v[i];
	}
	s->n = st_mean_sd(v, n, &s->mean, &s->sd);
}

static bool same_group(const struct rep_group *g, const struct rep_cell *c)
{
	return !strcmp(g->workload, c->workload) && !strcmp(g->series, c->series) &&
	       g->vcpus == c->vcpus;
}

static int fill_group(struct rep_group *g, const struct rep_cell *cells, size_t n)
{
	double *evs = calloc(n, sizeof(double)), *ops = calloc(n, sizeof(double));
	double *p50 = calloc(n, sizeof(double)), *p99 = calloc(n, sizeof(double));
	int err = !evs || !ops || !p50 || !p99;

	for (size_t i = 0; i < n && !err; i++) {
		const struct rep_cell *c = &cells[i];
		const struct rep_hist *pop = rep_cell_pop(c);

		evs[i] = ops[i] = p50[i] = p99[i] = NAN;
		if (!rep_cell_counts(c))
			continue;
		g->nok++;
		if (c->has_module) {
			evs[i] = c->evs_per_cpu;
			ops[i] = c->ops_per_sec;
		}
		if (pop && pop->h.count) {
			p50[i] = hist_percentile(&pop->h, 50);
			p99[i] = hist_percentile(&pop->h, 99);
			err |= rep_hist_merge(&g->pop, &pop->h);
		}
		for (size_t j = 0; j < c->nlat && !err; j++)
			err |= rep_hist_accumulate(&g->lat, &g->nlat, &c->lat[j]);
		for (size_t j = 0; j < c->nbt && !err; j++)
			if (!c->bt[j].key)
				err |= rep_hist_accumulate(&g->bt, &g->nbt, &c->bt[j]);
	}
	if (!err) {
		rep_stat_of(&g->evs_per_cpu, evs, n);
		rep_stat_of(&g->ops_per_sec, ops, n);
		rep_stat_of(&g->pop_p50, p50, n);
		rep_stat_of(&g->pop_p99, p99, n);
	}
	free(evs);
	free(ops);
	free(p50);
	free(p99);
	return err ? -1 : 0;
}

/* Cells are sorted by workload, kernel, noise, vcpus, so a group is a run of them. */
int rep_build_groups(struct rep_run *r)
{
	size_t i = 0;

	while (i < r->n) {
		struct rep_group *g, *ng;
		size_t j = i + 1;

		ng = realloc(r->groups, (r->ngroups + 1) * sizeof(*ng));
		if (!ng)
			return -1;
		r->groups = ng;
		g = &ng[r->ngroups++];
		memset(g, 0, sizeof(*g));
		g->workload = r->cells[i].workload;
		g->series = r->cells[i].series;
		g->kernel = r->cells[i].kernel;
		g->vcpus = r->cells[i].vcpus;
		hist_init(&g->pop);
		while (j < r->n && same_group(g, &r->cells[j]))
			j++;
		g->ncells = j - i;
		if (fill_group(g, &r->cells[i], g->ncells))
			return -1;
		i = j;
	}
	return 0;
}

void rep_groups_free(struct rep_run *r)
{
	for (size_t i = 0; i < r->ngroups; i++) {
		hist_free(&r->groups[i].pop);
		rep_hists_free(r->groups[i].lat, r->groups[i].nlat);
		rep_hists_free(r->groups[i].bt, r->groups[i].nbt);
	}
	free(r->groups);
	r->groups = NULL;
	r->ngroups = 0;
}

const struct rep_group *rep_group_find(const struct rep_run *r, const char *workload,
				       const char *series, int vcpus)
{
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct rep_group *g = &r->groups[i];

		if (!strcmp(g->workload, workload) && !strcmp(g->series, series) &&
		    g->vcpus == vcpus)
			return g;
	}
	return NULL;
}
