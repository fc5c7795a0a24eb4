/*
 * compare: match cell groups of two sides, test every metric and count
 * every verdict.
 * A group is the PASS repeats of one (vcpus, workload, kernel, noise, fault,
 * params); params are the module parameters the harness asked for (cell.json
 * "modparams") other than workload, duration and fault, so a map_type or
 * prealloc change never pairs up with a default run. Cells of different
 * faults never pair, except with --base-fault (one run: each fault against
 * the base fault, same kernel).
 */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "rundir/cell_metric.h"
#include "rundir/coverage.h"

const char *const cmp_verdict_names[CV_NR] = { "FAIL", "CRASH", "TIMEOUT", "SKIP", "INCOMPLETE" };

struct bucket {
	int vcpus;
	AXIS_VALUES(axis_cstr);		/* borrowed from the run's cells */
	char *params;
	const struct rep_cell **cells;
	size_t n;
	bool matched;
};

struct side {
	struct bucket *b;
	size_t n;
};

static char *own(struct cmp_result *res, char *s)
{
	char **v;

	if (!s)
		return NULL;
	v = realloc(res->owned, (res->nowned + 1) * sizeof(*v));
	if (!v) {
		free(s);
		return NULL;
	}
	res->owned = v;
	v[res->nowned++] = s;
	return s;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * "map_type=hash prealloc=0", sorted; "" for the module's defaults: the
 * module parameters but the duration and those of AXC_KEY axes.
 */
static char *cell_params(const struct rep_cell *c)
{
	json_t *mp = json_object_get(c->cell_json, "modparams"), *v;
	struct strv sv = { 0 };
	size_t i, len = 1;
	char *s;

	if (!mp && c->summary_cell)
		mp = json_object_get(c->summary_cell, "modparams");
	json_array_foreach(mp, i, v) {
		const char *p = json_string_value(v);

		int a = p ? axis_of_modparam(p) : -1;

		/* An axis compare keys on by its own value is not a param again. */
		if (p && strncmp(p, "duration_ms=", 12) && (a < 0 || axes[a].compare != AXC_KEY))
			strv_push(&sv, p);
	}
	if (sv.n)
		qsort(sv.v, sv.n, sizeof(char *), str_cmp);
	for (i = 0; i < sv.n; i++)
		len += strlen(sv.v[i]) + 1;
	s = calloc(1, len);
	for (i = 0; s && i < sv.n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, sv.v[i]);
	}
	strv_free(&sv);
	return s;
}

/* The axes compare keys on, but skip (the one a mode compares), and the params. */
static bool same_key(const struct bucket *x, const char *const ax[AX_NR], const char *params,
		     int skip1, int skip2)
{
	for (int a = 0; a < AX_NR; a++)
		if (axes[a].compare == AXC_KEY && a != skip1 && a != skip2 &&
		    strcmp(x->ax[a] ? x->ax[a] : "", ax[a] ? ax[a] : ""))
			return false;
	return !strcmp(x->params, params);
}

/* The cells of run r (only kernel k / fault f when set), bucketed by key. */
static int side_collect(struct side *s, const struct rep_run *r, const char *k, const char *f)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct rep_cell *c = &r->cells[i];
		struct bucket *x = NULL;
		char *params;

		if ((k && strcmp(c->kernel, k)) || (f && strcmp(c->fault, f)))
			continue;
		params = cell_params(c);
		if (!params)
			return -1;
		for (size_t j = 0; j < s->n && !x; j++)
			if (same_key(&s->b[j], (const char *const *)c->ax, params, -1, -1))
				x = &s->b[j];
		if (x) {
			free(params);
		} else {
			struct bucket *nb = realloc(s->b, (s->n + 1) * sizeof(*nb));

			if (!nb) {
				free(params);
				return -1;
			}
			s->b = nb;
			x = &nb[s->n++];
			memset(x, 0, sizeof(*x));
			x->vcpus = c->vcpus;
			for (int a = 0; a < AX_NR; a++)
				x->ax[a] = c->ax[a];
			x->params = params;
		}
		const struct rep_cell **nc = realloc(x->cells, (x->n + 1) * sizeof(*nc));

		if (!nc)
			return -1;
		x->cells = nc;
		nc[x->n++] = c;
	}
	return 0;
}

static void side_free(struct side *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->b[i].params);
		free(s->b[i].cells);
	}
	free(s->b);
}

static bool is_pass(const struct rep_cell *c)
{
	return c->verdict && !strcmp(c->verdict, "PASS");
}

/*
 * The guest a cell ran in (cmp_count.boots): "snapshot KEY" when restored,
 * its run's boots/NAME in a shared boot, else its own directory (or id).
 */
static int boot_of(const struct rep_cell *c, struct strv *boots)
{
	json_t *boot = json_object_get(c->cell_json, "boot");
	const char *snap = json_string_value(json_object_get(json_object_get(c->cell_json, "restore"),
							     "snapshot"));
	const char *mode = json_string_value(json_object_get(boot, "mode"));
	const char *name = json_string_value(json_object_get(boot, "name"));
	const char *own = c->dir ? c->dir : c->id;
	const char *slash = c->dir ? strrchr(c->dir, '/') : NULL;
	char id[PATH_MAX + 64];

	if (snap)
		snprintf(id, sizeof(id), "snapshot %s", snap);
	else if (mode && !strcmp(mode, "shared") && name)
		snprintf(id, sizeof(id), "%.*s/boots/%s", slash ? (int)(slash - c->dir) : 0,
			 c->dir ? c->dir : "", name);
	else
		snprintf(id, sizeof(id), "own %s", own ? own : "?");
	for (size_t i = 0; i < boots->n; i++)
		if (!strcmp(boots->v[i], id))
			return 0;
	return strv_push(boots, id);
}

static int count_cells(struct cmp_count *cnt, const struct bucket *x)
{
	struct strv boots = { 0 };
	int err = 0;

	for (size_t i = 0; i < x->n; i++) {
		const char *v = x->cells[i]->verdict;
		int k = CV_INCOMPLETE;

		cnt->cells++;
		if (is_pass(x->cells[i])) {
			cnt->pass++;
			err |= boot_of(x->cells[i], &boots);
			continue;
		}
		for (int j = 0; j < CV_NR; j++)
			if (v && !strcmp(v, cmp_verdict_names[j]))
				k = j;
		cnt->excluded[k]++;
	}
	cnt->boots = boots.n;
	strv_free(&boots);
	return err;
}

/* CV_FAIL, CV_CRASH or CV_TIMEOUT for a cell that failed, CV_NR for PASS, -1 if it never ran to a verdict. */
static int ran_as(const struct rep_cell *c)
{
	if (is_pass(c))
		return CV_NR;
	for (int j = CV_FAIL; j <= CV_TIMEOUT; j++)
		if (c->verdict && !strcmp(c->verdict, cmp_verdict_names[j]))
			return j;
	return -1;
}

/* Of x's cells that ran to a verdict, those of verdict v (-1: any but PASS) titled sig (NULL: any). */
static void rate_of(struct cmp_rate *r, const struct bucket *x, int v, const char *sig,
		    double level)
{
	r->k = r->n = 0;
	for (size_t i = 0; i < x->n; i++) {
		int w = ran_as(x->cells[i]);

		if (w < 0)
			continue;
		r->n++;
		r->k += w != CV_NR && (v < 0 || w == v) &&
			(!sig || !strcmp(rep_cell_title(x->cells[i]), sig));
	}
	r->rate = r->n ? (double)r->k / (double)r->n : NAN;
	st_clopper_pearson(r->k, r->n, level, &r->lo, &r->hi);
}

/* The row of verdict v (-1: non-PASS) and signature sig (NULL: all), tested. */
static int add_vrow(struct cmp_result *res, struct cmp_group *g, const struct bucket *xa,
		    const struct bucket *xb, int v, const char *sig)
{
	struct cmp_vrow r = { .verdict = v < 0 ? "non-PASS" : cmp_verdict_names[v],
			      .signature = sig, .p = NAN, .reading = "no evidence" }, *nv;

	rate_of(&r.a, xa, v, sig, 1 - res->alpha);
	rate_of(&r.b, xb, v, sig, 1 - res->alpha);
	if (r.a.n && r.b.n) {
		r.p = st_fisher_exact(r.a.k, r.a.n - r.a.k, r.b.k, r.b.n - r.b.k);
		r.significant = r.p < res->alpha;
		if (r.significant)
			r.reading = r.b.rate > r.a.rate ? "regressed" : "fixed";
		r.n_power = st_fisher_n_for_power(r.a.rate, r.b.rate, res->alpha, CMP_POWER,
						  CMP_POWER_NMAX);
		if (isnan(r.p) || r.n_power == UINT_MAX)
			return -1;
	}
	nv = realloc(g->vrows, (g->nvrows + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	g->vrows = nv;
	nv[g->nvrows++] = r;
	return 0;
}

static bool has_vrow(const struct cmp_group *g, const char *verdict, const char *sig)
{
	for (size_t i = 0; i < g->nvrows; i++)
		if (g->vrows[i].signature && !strcmp(g->vrows[i].verdict, verdict) &&
		    !strcmp(g->vrows[i].signature, sig))
			return true;
	return false;
}

/*
 * The non-PASS row, then FAIL, CRASH and TIMEOUT, each followed by one row
 * per signature (first seen first, A before B); and what 0 of n bounds a
 * side to.
 */
static int add_verdicts(struct cmp_result *res, struct cmp_group *g, const struct bucket *xa,
			const struct bucket *xb)
{
	const struct bucket *xs[2] = { xa, xb };
	struct cmp_rate za, zb;
	int err = add_vrow(res, g, xa, xb, -1, NULL);

	for (int v = CV_FAIL; v <= CV_TIMEOUT && !err; v++) {
		err = add_vrow(res, g, xa, xb, v, NULL);
		for (int s = 0; s < 2; s++)
			for (size_t i = 0; i < xs[s]->n && !err; i++) {
				const char *t = rep_cell_title(xs[s]->cells[i]);

				if (ran_as(xs[s]->cells[i]) == v && !has_vrow(g, cmp_verdict_names[v], t))
					err = add_vrow(res, g, xa, xb, v, t);
			}
	}
	rate_of(&za, xa, -1, NULL, 1 - res->alpha);
	rate_of(&zb, xb, -1, NULL, 1 - res->alpha);
	st_clopper_pearson(0, za.n, 1 - res->alpha, &za.lo, &g->zero_hi_a);
	st_clopper_pearson(0, zb.n, 1 - res->alpha, &zb.lo, &g->zero_hi_b);
	return err;
}

static int sample_of(struct cmp_sample *s, const struct bucket *x, const char *name)
{
	s->v = calloc(x->n ? x->n : 1, sizeof(double));
	if (!s->v)
		return -1;
	for (size_t i = 0; i < x->n; i++) {
		double v;

		if (!is_pass(x->cells[i]))
			continue;
		v = rep_cell_metric(x->cells[i], name);
		if (isfinite(v))
			s->v[s->n++] = v;
	}
	rep_stat_of(&s->st, s->v, s->n);
	return 0;
}

static void row_test(struct cmp_row *r, const struct cmp_result *res)
{
	const struct rep_stat *a = &r->a.st, *b = &r->b.st;
	size_t n = a->n < b->n ? a->n : b->n;

	r->ratio = a->mean != 0 ? b->mean / a->mean : NAN;
	r->change_pct = a->mean != 0 ? (b->mean - a->mean) / fabs(a->mean) * 100 : NAN;
	r->w.t = r->w.df = r->w.p = r->ci_lo = r->ci_hi = NAN;
	if (!a->n || !b->n) {
		snprintf(r->note, sizeof(r->note), "not measured in %s", a->n ? "B" : "A");
		return;
	}
	if (n < CMP_MIN_REPEATS) {
		snprintf(r->note, sizeof(r->note), "too few repeats (n=%zu)", n);
		return;
	}
	r->tested = true;
	st_welch_test(a->mean, a->sd, a->n, b->mean, b->sd, b->n, &r->w);
	r->significant = r->w.p < res->alpha;
	if (st_bootstrap_ratio_ci(r->a.v, r->a.n, r->b.v, r->b.n, 1 - res->alpha,
				  res->resamples, res->seed, &r->ci_lo, &r->ci_hi))
		snprintf(r->note, sizeof(r->note), "no ratio CI (base mean 0)");
}

static int add_row(struct cmp_result *res, struct cmp_group *g, const struct bucket *xa,
		   const struct bucket *xb, const char *name)
{
	struct cmp_row r = { .unit = rep_metric_unit(name) }, *nr;

	if (sample_of(&r.a, xa, name) || sample_of(&r.b, xb, name))
		goto drop;
	if (!r.a.n && !r.b.n)
		goto drop;	/* not measured on either side (e.g. --bpftrace none) */
	r.name = own(res, strdup(name));
	nr = r.name ? realloc(g->rows, (g->nrows + 1) * sizeof(*nr)) : NULL;
	if (!nr)
		goto fail;
	row_test(&r, res);
	g->rows = nr;
	nr[g->nrows++] = r;
	return 0;
drop:
	free(r.a.v);
	free(r.b.v);
	return r.a.v && r.b.v ? 0 : -1;
fail:
	free(r.a.v);
	free(r.b.v);
	return -1;
}

/* Module latency ops measured by any cell of either side, in first-seen order. */
static void lat_ops(const struct bucket *xa, const struct bucket *xb, struct strv *ops)
{
	const struct bucket *xs[2] = { xa, xb };

	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < xs[s]->n; i++)
			for (size_t j = 0; j < xs[s]->cells[i]->nlat; j++) {
				const char *op = xs[s]->cells[i]->lat[j].name;
				bool seen = false;

				for (size_t k = 0; k < ops->n; k++)
					seen |= !strcmp(ops->v[k], op);
				if (!seen)
					strv_push(ops, op);
			}
}

static int add_group(struct cmp_result *res, const struct bucket *xa, const struct bucket *xb)
{
	struct cmp_group *g, *ng = realloc(res->g, (res->ng + 1) * sizeof(*ng));
	struct strv ops = { 0 };
	char name[160];
	int err = 0;

	if (!ng)
		return -1;
	res->g = ng;
	g = &ng[res->ng++];
	memset(g, 0, sizeof(*g));
	g->vcpus = xa->vcpus;
	g->workload = xa->workload;
	g->noise = xa->noise;
	g->params = own(res, strdup(xa->params));
	g->kernel_a = xa->kernel;
	g->kernel_b = xb->kernel;
	g->fault_a = xa->fault;
	g->fault_b = xb->fault;
	err |= count_cells(&g->ca, xa);
	err |= count_cells(&g->cb, xb);
	err |= add_verdicts(res, g, xa, xb);
	err |= add_row(res, g, xa, xb, "module.ops_per_sec");
	err |= add_row(res, g, xa, xb, "module.ops_per_sec_per_cpu");
	err |= add_row(res, g, xa, xb, "bpftrace.pop.p50");
	err |= add_row(res, g, xa, xb, "bpftrace.pop.p99");
	lat_ops(xa, xb, &ops);
	for (size_t i = 0; i < ops.n && !err; i++) {
		snprintf(name, sizeof(name), "module.%s.p50", ops.v[i]);
		err |= add_row(res, g, xa, xb, name);
		snprintf(name, sizeof(name), "module.%s.p99", ops.v[i]);
		err |= add_row(res, g, xa, xb, name);
	}
	for (size_t i = 0; i < cov_nmetrics && !err; i++) {
		snprintf(name, sizeof(name), "coverage.%s", cov_metrics[i].name);
		err |= add_row(res, g, xa, xb, name);
	}
	err |= add_row(res, g, xa, xb, "memory.avg_mib");
	err |= add_row(res, g, xa, xb, "memory.peak_mib");
	strv_free(&ops);
	return err ? -1 : 0;
}

/* "v4 full_update kernel=K noise=none fault=F params": AXC_KEY axes (suffix ones when set). */
static int key_text(struct strv *sv, const struct bucket *x, bool with_kernel)
{
	char t[1024];
	size_t len = 0;
	int err;

	t[0] = '\0';
	for (int a = 0; a < AX_NR; a++) {
		const struct axis *ax = &axes[a];

		if (ax->compare != AXC_KEY || (a == AX_KERNEL && !with_kernel) ||
		    (ax->in_id == AXID_SUFFIX && axis_is_default(a, x->ax[a])))
			continue;
		if (ax->in_id == AXID_PREFIX)
			len += snprintf(t + len, sizeof(t) - len, "%s%c%s", len ? " " : "", ax->slug,
					x->ax[a]);
		else
			len += snprintf(t + len, sizeof(t) - len, "%s%s%s%s", len ? " " : "",
					ax->bare ? "" : ax->name, ax->bare ? "" : "=", x->ax[a]);
		if (len >= sizeof(t))
			return -1;
	}
	if (*x->params)
		snprintf(t + len, sizeof(t) - len, " %s", x->params);
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], t))	/* the base side, once per other kernel */
			return 0;
	err = strv_push(sv, t);
	return err;
}

/* Appends v to the ','-joined list out unless it is there. */
static void add_distinct(char *out, size_t n, const char *v)
{
	size_t l = strlen(v);
	const char *p = strstr(out, v);

	if (p && (p == out || p[-1] == ',') && (p[l] == 0 || p[l] == ','))
		return;
	snprintf(out + strlen(out), n - strlen(out), "%s%s", *out ? "," : "", v);
}

/*
 * The distinct values over a side's cells, comma-joined into out: add()
 * puts a cell's value or values there (add_distinct).
 */
static void side_distinct(char *out, size_t n, const struct side *s,
			  void (*add)(char *out, size_t n, const struct rep_cell *c))
{
	for (size_t i = 0; i < s->n; i++)
		for (size_t j = 0; j < s->b[i].n; j++)
			add(out, n, s->b[i].cells[j]);
}

static void cell_accel(char *out, size_t n, const struct rep_cell *c)
{
	add_distinct(out, n, c->accel);
}

/*
 * cell.json boot.mode, "+restored" when QEMU started from a saved guest
 * (restore not null), "+pvh" when the guest booted its vmlinux through PVH
 * (boot_path; bench/pvh_ab.sh moved ops/s at 96 vCPUs); a run from before
 * shared boots booted every cell on its own.
 */
static void cell_boot_mode(char *out, size_t n, const struct rep_cell *c)
{
	const char *m = json_string_value(json_object_get(json_object_get(c->cell_json, "boot"), "mode"));
	const char *path = json_string_value(json_object_get(c->cell_json, "boot_path"));
	bool restored = json_is_object(json_object_get(c->cell_json, "restore"));
	char v[32];

	snprintf(v, sizeof(v), "%s%s%s", !m || !strcmp(m, "own") ? "own" : "shared",
		 restored ? "+restored" : "", path && !strcmp(path, "pvh") ? "+pvh" : "");
	add_distinct(out, n, v);
}

/*
 * What ran the cell's bpftrace scripts (cell.json bpftrace.NAME.engine), one
 * value per script: a preattached observer went live before its guest was
 * saved, the others in the cell, after a start-up in that guest.
 */
static void cell_observers(char *out, size_t n, const struct rep_cell *c)
{
	json_t *bt = json_object_get(c->cell_json, "bpftrace"), *sc;
	const char *name;

	if (!json_object_size(bt)) {
		add_distinct(out, n, "none");
		return;
	}
	json_object_foreach(bt, name, sc) {
		const char *e = json_string_value(json_object_get(sc, "engine"));

		add_distinct(out, n, e ? e : "-");
	}
}

static size_t side_excluded(const struct side *s)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++)
		for (size_t j = 0; j < s->b[i].n; j++)
			k += !is_pass(s->b[i].cells[j]);
	return k;
}

/*
 * Pair sa's buckets with sb's. with_kernel: the kernel is part of the key;
 * show_kernel: name it in the unmatched lists.
 */
static int pair_sides(struct cmp_result *res, struct side *sa, struct side *sb,
		      bool with_kernel, bool show_kernel, bool with_fault)
{
	int err = 0;

	for (size_t i = 0; i < sa->n && !err; i++) {
		struct bucket *xa = &sa->b[i];

		for (size_t j = 0; j < sb->n && !xa->matched; j++) {
			struct bucket *xb = &sb->b[j];

			if (xb->matched || !same_key(xb, xa->ax, xa->params,
						     with_kernel ? -1 : AX_KERNEL,
						     with_fault ? -1 : AX_FAULT))
				continue;
			xa->matched = xb->matched = true;
			err = add_group(res, xa, xb);
		}
		if (!xa->matched && !err)
			err = key_text(&res->only_a, xa, show_kernel);
	}
	for (size_t j = 0; j < sb->n && !err; j++)
		if (!sb->b[j].matched)
			err = key_text(&res->only_b, &sb->b[j], show_kernel);
	side_distinct(res->accel_a, sizeof(res->accel_a), sa, cell_accel);
	side_distinct(res->accel_b, sizeof(res->accel_b), sb, cell_accel);
	res->tcg = strstr(res->accel_a, "tcg") || strstr(res->accel_b, "tcg");
	side_distinct(res->boot_a, sizeof(res->boot_a), sa, cell_boot_mode);
	side_distinct(res->boot_b, sizeof(res->boot_b), sb, cell_boot_mode);
	side_distinct(res->observers_a, sizeof(res->observers_a), sa, cell_observers);
	side_distinct(res->observers_b, sizeof(res->observers_b), sb, cell_observers);
	res->excluded_a += side_excluded(sa);
	res->excluded_b += side_excluded(sb);
	return err;
}

const char *cmp_first_kernel(const struct rep_run *r)
{
	json_t *sc;
	size_t i;

	json_array_foreach(json_object_get(r->summary, "cells"), i, sc) {
		const char *k = json_string_value(json_object_get(sc, "kernel"));

		for (size_t j = 0; k && j < r->nkernels; j++)
			if (!strcmp(r->kernels[j], k))
				return r->kernels[j];
	}
	return r->nkernels ? r->kernels[0] : NULL;
}

static const char *base_name(const char *dir)
{
	size_t n = strlen(dir);
	const char *p;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	p = memrchr(dir, '/', n);
	return p ? p + 1 : dir;
}

static void init_result(struct cmp_result *res, const struct cmp_opts *o)
{
	memset(res, 0, sizeof(*res));
	res->alpha = o->alpha;
	res->resamples = o->resamples;
	res->seed = o->seed;
}

static int build_runs(struct cmp_result *res, const struct rep_run *a, const struct rep_run *b)
{
	struct side sa = { 0 }, sb = { 0 };
	/* Runs of one kernel each: the kernels are what is compared, not a key. */
	bool with_kernel = !(a->nkernels == 1 && b->nkernels == 1);
	int err;

	res->mode = "runs";
	res->dir_a = a->dir;
	res->dir_b = b->dir;
	res->label_a = own(res, strndup(base_name(a->dir), strcspn(base_name(a->dir), "/")));
	res->label_b = own(res, strndup(base_name(b->dir), strcspn(base_name(b->dir), "/")));
	err = !res->label_a || !res->label_b || side_collect(&sa, a, NULL, NULL) ||
	      side_collect(&sb, b, NULL, NULL) ||
	      pair_sides(res, &sa, &sb, with_kernel, with_kernel, true);
	side_free(&sa);
	side_free(&sb);
	return err ? -1 : 0;
}

static int build_kernels(struct cmp_result *res, const struct rep_run *a, const char *base)
{
	struct side sa = { 0 };
	int err = side_collect(&sa, a, base, NULL);

	res->mode = "kernels";
	res->dir_a = res->dir_b = a->dir;
	res->label_a = base;
	res->label_b = NULL;
	for (size_t k = 0; k < a->nkernels && !err; k++) {
		struct side sb = { 0 };

		if (!strcmp(a->kernels[k], base))
			continue;
		if (!res->label_b)
			res->label_b = a->kernels[k];
		for (size_t i = 0; i < sa.n; i++)
			sa.b[i].matched = false;
		err = side_collect(&sb, a, a->kernels[k], NULL) ||
		      pair_sides(res, &sa, &sb, false, true, true);
		side_free(&sb);
	}
	/* pair_sides counted the base side once per other kernel */
	res->excluded_a = side_excluded(&sa);
	side_free(&sa);
	return err ? -1 : 0;
}

/* One run, --base-fault: each other fault's cells against the base fault's, kernel by kernel. */
static int build_faults(struct cmp_result *res, const struct rep_run *a, const char *base)
{
	struct side sa = { 0 };
	struct strv faults = { 0 };
	int err = side_collect(&sa, a, NULL, base);

	res->mode = "faults";
	res->dir_a = res->dir_b = a->dir;
	res->label_a = base;
	res->label_b = NULL;
	err |= cmp_run_faults(a, &faults);
	for (size_t k = 0; k < faults.n && !err; k++) {
		struct side sb = { 0 };

		if (!strcmp(faults.v[k], base))
			continue;
		if (!res->label_b)
			res->label_b = own(res, strdup(faults.v[k]));
		for (size_t i = 0; i < sa.n; i++)
			sa.b[i].matched = false;
		err = side_collect(&sb, a, NULL, faults.v[k]) ||
		      pair_sides(res, &sa, &sb, true, a->nkernels > 1, false);
		side_free(&sb);
	}
	res->excluded_a = side_excluded(&sa);
	strv_free(&faults);
	side_free(&sa);
	return err ? -1 : 0;
}

int cmp_run_faults(const struct rep_run *r, struct strv *out)
{
	for (size_t i = 0; i < r->n; i++) {
		bool seen = false;

		for (size_t k = 0; k < out->n && !seen; k++)
			seen = !strcmp(out->v[k], r->cells[i].fault);
		if (!seen && strv_push(out, r->cells[i].fault))
			return -1;
	}
	return 0;
}

int cmp_build(struct cmp_result *res, const struct rep_run *a, const struct rep_run *b,
	      const char *base, const struct cmp_opts *o)
{
	init_result(res, o);
	if (b)
		return build_runs(res, a, b);
	return o->base_fault ? build_faults(res, a, o->base_fault) : build_kernels(res, a, base);
}

void cmp_result_free(struct cmp_result *res)
{
	for (size_t i = 0; i < res->ng; i++) {
		for (size_t j = 0; j < res->g[i].nrows; j++) {
			free(res->g[i].rows[j].a.v);
			free(res->g[i].rows[j].b.v);
		}
		free(res->g[i].rows);
		free(res->g[i].vrows);
	}
	free(res->g);
	strv_free(&res->only_a);
	strv_free(&res->only_b);
	for (size_t i = 0; i < res->nowned; i++)
		free(res->owned[i]);
	free(res->owned);
	memset(res, 0, sizeof(*res));
}
