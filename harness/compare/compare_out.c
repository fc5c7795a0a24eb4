/*
 * compare's outputs: the LKP-style terminal table (base mean ±%stddev,
 * %change, compare mean ±%stddev, metric; a units row; * marks p < alpha),
 * each group's verdict rows under it, and compare.json (FORMAT.md,
 * "compare").
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"
#include "lib/numfmt.h"

static const char *fmt_sd(char *buf, size_t n, const struct rep_stat *s)
{
	if (!s->n || s->mean == 0 || !isfinite(s->sd))
		snprintf(buf, n, "     ");
	else
		snprintf(buf, n, "±%3.0f%%", s->sd / fabs(s->mean) * 100);
	return buf;
}

static void excluded_text(char *buf, size_t n, const struct cmp_count *c)
{
	buf[0] = 0;
	for (int i = 0; i < CV_NR; i++)
		if (c->excluded[i])
			snprintf(buf + strlen(buf), n - strlen(buf), "%s%zu %s", *buf ? ", " : "",
				 c->excluded[i], cmp_verdict_names[i]);
}

/* Fewer boots than PASS repeats: repeats that share a guest's layout (cmp_count.boots). */
static bool few_boots(const struct cmp_count *c)
{
	return c->pass > 1 && c->boots < c->pass;
}

static void side_text(char *buf, size_t n, const struct cmp_count *c)
{
	char ex[128], boots[32] = "";

	excluded_text(ex, sizeof(ex), c);
	if (few_boots(c))
		snprintf(boots, sizeof(boots), " in %zu boot%s", c->boots, c->boots == 1 ? "" : "s");
	snprintf(buf, n, "%zu PASS%s%s%s%s", c->pass, boots, *ex ? " (excluded: " : "", ex,
		 *ex ? ")" : "");
}

/* sd columns are 5 display columns ("±  2%": ± is two bytes), printed with %s. */
#define ROW "%14s %s  %9s%1s %14s %s  %8s  %-16s  %s\n"

static void print_row(FILE *f, const struct cmp_row *r)
{
	char am[32], asd[16], ch[32], bm[32], bsd[16], p[32], ci[64], metric[128];

	num_text(am, sizeof(am), r->a.st.mean, NUM_ADAPTIVE);
	num_text(bm, sizeof(bm), r->b.st.mean, NUM_ADAPTIVE);
	fmt_sd(asd, sizeof(asd), &r->a.st);
	fmt_sd(bsd, sizeof(bsd), &r->b.st);
	if (isfinite(r->change_pct))
		snprintf(ch, sizeof(ch), "%+.1f%%", r->change_pct);
	else
		snprintf(ch, sizeof(ch), "-");
	snprintf(metric, sizeof(metric), "%s [%s]", r->name, r->unit);
	if (!r->tested) {
		fprintf(f, "%14s %s  %9s  %14s %s  %-26s  %s\n", am, asd, ch, bm, bsd,
			r->note, metric);
		return;
	}
	num_p_text(p, sizeof(p), r->w.p);
	if (isfinite(r->ci_lo))
		snprintf(ci, sizeof(ci), "[%.3g, %.3g]", r->ci_lo, r->ci_hi);
	else
		snprintf(ci, sizeof(ci), "%s", r->note);
	fprintf(f, ROW, am, asd, ch, r->significant ? "*" : "", bm, bsd, p, ci, metric);
}

static const char *fmt_ci(char *buf, size_t n, const struct cmp_rate *r)
{
	if (isfinite(r->lo))
		snprintf(buf, n, "[%.3g, %.3g]", r->lo, r->hi);
	else
		snprintf(buf, n, "-");
	return buf;
}

static const char *fmt_power(char *buf, size_t n, const struct cmp_vrow *v)
{
	if (isnan(v->p) || !v->n_power)
		snprintf(buf, n, "-");
	else if (v->n_power > CMP_POWER_NMAX)
		snprintf(buf, n, ">%u", CMP_POWER_NMAX);
	else
		snprintf(buf, n, "%u", v->n_power);
	return buf;
}

/* "A 0 of 5 -> 0.522", or "" when cells is 0 (no zero of that side shown). */
static const char *zero_side(char *buf, size_t n, const char *side, size_t cells, double hi)
{
	if (cells)
		snprintf(buf, n, "%s 0 of %zu -> %.3g", side, cells, hi);
	else
		buf[0] = 0;
	return buf;
}

#define VROW "%9s  %-16s %9s  %-16s %9s%1s %-12s %10s  %s\n"

/* Rows with a cell on either side; non-PASS always (0 of n says how far the run can see). */
static void print_verdicts(FILE *f, const struct cmp_result *res, const struct cmp_group *g)
{
	char ka[32], kb[32], cia[48], cib[48], p[32], pw[32], head[64], ha[40], hb[40], what[320];
	char za[64], zb[64];
	const struct cmp_vrow *v0 = &g->vrows[0];
	bool zero_a = false, zero_b = false;

	snprintf(ha, sizeof(ha), "%.0f%% CI of A", (1 - res->alpha) * 100);
	snprintf(hb, sizeof(hb), "%.0f%% CI of B", (1 - res->alpha) * 100);
	snprintf(head, sizeof(head), "n/side %.0f%%", CMP_POWER * 100);
	fputc('\n', f);
	fprintf(f, VROW, "A cells", ha, "B cells", hb, "p(Fisher)", "", "reading", head, "verdict");
	for (size_t i = 0; i < g->nvrows; i++) {
		const struct cmp_vrow *v = &g->vrows[i];

		if (i && !v->a.k && !v->b.k)
			continue;
		zero_a |= v->a.n && !v->a.k;
		zero_b |= v->b.n && !v->b.k;
		snprintf(ka, sizeof(ka), "%zu/%zu", v->a.k, v->a.n);
		snprintf(kb, sizeof(kb), "%zu/%zu", v->b.k, v->b.n);
		snprintf(what, sizeof(what), "%s%s%s", v->verdict, v->signature ? ": " : "",
			 v->signature ? v->signature : "");
		fprintf(f, VROW, ka, fmt_ci(cia, sizeof(cia), &v->a), kb, fmt_ci(cib, sizeof(cib), &v->b),
			num_p_text(p, sizeof(p), v->p), v->significant ? "*" : "", v->reading,
			fmt_power(pw, sizeof(pw), v), what);
	}
	if (zero_a || zero_b)
		fprintf(f, "  0 of n still allows a rate up to its %.0f%% Clopper-Pearson upper bound: %s%s%s\n",
			(1 - res->alpha) * 100, zero_side(za, sizeof(za), "A", zero_a ? v0->a.n : 0,
							  g->zero_hi_a),
			zero_a && zero_b ? ", " : "",
			zero_side(zb, sizeof(zb), "B", zero_b ? v0->b.n : 0, g->zero_hi_b));
}

static void print_group(FILE *f, const struct cmp_result *res, const struct cmp_group *g)
{
	char sa[256], sb[256], ci_head[64];

	bool runs = !strcmp(res->mode, "runs"), faults = !strcmp(res->mode, "faults");
	bool one_fault = !strcmp(g->fault_a, g->fault_b) && !axis_is_default(AX_FAULT, g->fault_a);

	side_text(sa, sizeof(sa), &g->ca);
	side_text(sb, sizeof(sb), &g->cb);
	fprintf(f, "\nv%d %s noise=%s%s%s %s\n", g->vcpus, g->workload, g->noise,
		faults ? " kernel=" : one_fault ? " fault=" : "",
		faults ? g->kernel_a : one_fault ? g->fault_a : "",
		*g->params ? g->params : "(default module params)");
	if (faults)
		fprintf(f, "  A = fault %s: %s\n  B = fault %s: %s\n", g->fault_a, sa, g->fault_b, sb);
	else
		fprintf(f, "  A = %s%skernel %s: %s\n  B = %s%skernel %s: %s\n",
			runs ? res->label_a : "", runs ? " " : "", g->kernel_a, sa,
			runs ? res->label_b : "", runs ? " " : "", g->kernel_b, sb);
	snprintf(ci_head, sizeof(ci_head), "%.0f%% CI of B/A", (1 - res->alpha) * 100);
	fprintf(f, "%20.20s %32.32s\n", faults ? g->fault_a : g->kernel_a,
		faults ? g->fault_b : g->kernel_b);
	fprintf(f, "-------------------- --------------------------------\n");
	fprintf(f, ROW, "A mean", " ±%sd", "%change", "", "B mean", " ±%sd", "p(Welch)",
		ci_head, "metric");
	fprintf(f, ROW, "[unit]", "  [%]", "[%]", "", "[unit]", "  [%]", "[1]", "[B/A]",
		"[unit]");
	for (size_t i = 0; i < g->nrows; i++)
		print_row(f, &g->rows[i]);
	print_verdicts(f, res, g);
}

void cmp_print(FILE *f, const struct cmp_result *res)
{
	bool shared = false;
	size_t nrows = 0, nsig = 0, nfew = 0, nreg = 0, nfix = 0;

	if (!strcmp(res->mode, "runs"))
		fprintf(f, "compare: A = %s  B = %s\n", res->dir_a, res->dir_b);
	else if (!strcmp(res->mode, "faults"))
		fprintf(f, "compare: %s: every fault (B) against base fault %s (A), kernel by kernel\n",
			res->dir_a, res->label_a);
	else
		fprintf(f, "compare: %s: every kernel (B) against base kernel %s (A)\n",
			res->dir_a, res->label_a);
	fprintf(f, "accel: A %s, B %s%s\n", *res->accel_a ? res->accel_a : "-",
		*res->accel_b ? res->accel_b : "-", res->tcg ? "  (tcg: emulated)" : "");
	fprintf(f, "boots: A %s, B %s%s\n", *res->boot_a ? res->boot_a : "-",
		*res->boot_b ? res->boot_b : "-", strcmp(res->boot_a, res->boot_b)
		? "  (different: a cell of a shared boot ran after others in its guest, a restored "
		  "one started from a saved guest, a pvh one booted its vmlinux through PVH; compare "
		  "runs of one kind, or see bench/RESULTS.md)" : "");
	fprintf(f, "observers: A %s, B %s%s\n", *res->observers_a ? res->observers_a : "-",
		*res->observers_b ? res->observers_b : "-", strcmp(res->observers_a, res->observers_b)
		? "  (different: a preattached observer went live before its guest was saved, "
		  "bpftrace or aot in the cell; under TCG that moved figures at 16 vCPUs: compare runs "
		  "of one kind, or see bench/RESULTS.md)" : "");
	fprintf(f, "samples: PASS repeats; * = Welch's t-test p < %g; CI: %.0f%% percentile "
		"bootstrap of mean(B)/mean(A), %u resamples, seed %#llx\n", res->alpha,
		(1 - res->alpha) * 100, res->resamples, (unsigned long long)res->seed);
	for (size_t i = 0; i < res->ng; i++) {
		print_group(f, res, &res->g[i]);
		shared |= few_boots(&res->g[i].ca) || few_boots(&res->g[i].cb);
		for (size_t j = 0; j < res->g[i].nrows; j++) {
			nrows++;
			nsig += res->g[i].rows[j].significant;
			nfew += !res->g[i].rows[j].tested;
		}
		for (size_t j = 0; j < res->g[i].nvrows; j++) {
			nreg += !strcmp(res->g[i].vrows[j].reading, "regressed");
			nfix += !strcmp(res->g[i].vrows[j].reading, "fixed");
		}
	}
	fputc('\n', f);
	for (size_t i = 0; i < res->only_a.n; i++)
		fprintf(f, "only in A: %s\n", res->only_a.v[i]);
	for (size_t i = 0; i < res->only_b.n; i++)
		fprintf(f, "only in B: %s\n", res->only_b.v[i]);
	fprintf(f, "%zu groups, %zu metrics: %zu significant, %zu untested (too few repeats); "
		"non-PASS cells excluded: A %zu, B %zu; verdict rows (Fisher's exact p < %g): "
		"%zu regressed, %zu fixed\n", res->ng, nrows, nsig, nfew,
		res->excluded_a, res->excluded_b, res->alpha, nreg, nfix);
	if (shared)
		fprintf(f, "(in N boots) repeats of one boot (a restored snapshot, a shared boot) share "
			"its layout (KASLR, per-CPU areas): the spread leaves out what varies between "
			"boots, so a difference may be two boots'; --restore-boots N spreads repeats over "
			"N boots, --restore off --boot-per-cell gives each its own (bench/RESULTS.md, "
			"\"Why update p50 moved\").\n");
	if (res->tcg)
		fprintf(f, "(tcg: emulated) vCPUs are host threads on this machine's cores: "
			"ratios are this host's, not real hardware's.\n");
}

static json_t *sample_json(const struct cmp_sample *s)
{
	json_t *vals = json_array();

	for (size_t i = 0; i < s->n; i++)
		json_array_append_new(vals, json_real(s->v[i]));
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "n", (json_int_t)s->st.n,
			 "mean", num_json(s->st.mean), "stddev", num_json(s->st.sd),
			 "stddev_pct", num_json(s->st.n && s->st.mean != 0 ?
					   s->st.sd / fabs(s->st.mean) * 100 : NAN),
			 "min", num_json(s->st.min), "max", num_json(s->st.max), "values", vals);
}

static json_t *row_json(const struct cmp_row *r)
{
	json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "name", r->name, "unit", r->unit,
			      "a", sample_json(&r->a), "b", sample_json(&r->b),
			      "change_pct", num_json(r->change_pct), "ratio", num_json(r->ratio));

	if (r->tested) {
		json_object_set_new(o, "test", json_pack("{s:{s:o, s:o, s:o}, s:[o, o], s:b}",
			"welch", "t", num_json_inf(r->w.t),
			"df", num_json(r->w.df), "p", num_json(r->w.p),
			"ratio_ci", num_json(r->ci_lo), num_json(r->ci_hi), "significant", r->significant));
	} else {
		json_object_set_new(o, "test", json_null());
	}
	json_object_set_new(o, "note", *r->note ? json_string(r->note) : json_null());
	return o;
}

static json_t *count_json(const struct cmp_count *c)
{
	json_t *ex = json_object();

	for (int i = 0; i < CV_NR; i++)
		if (c->excluded[i])
			json_object_set_new(ex, cmp_verdict_names[i], json_integer((json_int_t)c->excluded[i]));
	return json_pack("{s:I, s:I, s:I, s:o}", "cells", (json_int_t)c->cells,
			 "pass", (json_int_t)c->pass, "boots", (json_int_t)c->boots, "excluded", ex);
}

static json_t *rate_json(const struct cmp_rate *r)
{
	return json_pack("{s:I, s:I, s:o, s:[o, o]}", "k", (json_int_t)r->k, "n", (json_int_t)r->n,
			 "rate", num_json(r->rate), "ci", num_json(r->lo), num_json(r->hi));
}

static json_t *vrow_json(const struct cmp_vrow *v)
{
	bool tested = !isnan(v->p), over = v->n_power > CMP_POWER_NMAX;

	return json_pack("{s:s, s:s?, s:o, s:o, s:o, s:b, s:s, s:{s:o, s:s?}}",
		"verdict", v->verdict, "signature", v->signature,
		"a", rate_json(&v->a), "b", rate_json(&v->b),
		"fisher_p", num_json(v->p), "significant", v->significant, "reading", v->reading,
		"power", "n_per_side", tested && v->n_power && !over ?
		json_integer(v->n_power) : json_null(),
		"why_none", !tested ? "a side has no cell" : !v->n_power ? "equal rates" :
		over ? "more than power_max_n" : NULL);
}

static json_t *verdicts_json(const struct cmp_group *g)
{
	json_t *rows = json_array();

	for (size_t i = 0; i < g->nvrows; i++)
		json_array_append_new(rows, vrow_json(&g->vrows[i]));
	return json_pack("{s:{s:I, s:o}, s:{s:I, s:o}, s:o}",
		"a", "n", (json_int_t)(g->nvrows ? g->vrows[0].a.n : 0), "zero_bound",
		num_json(g->zero_hi_a),
		"b", "n", (json_int_t)(g->nvrows ? g->vrows[0].b.n : 0), "zero_bound",
		num_json(g->zero_hi_b), "rows", rows);
}

static json_t *strv_json_arr(const struct strv *sv)
{
	json_t *a = json_array();

	for (size_t i = 0; i < sv->n; i++)
		json_array_append_new(a, json_string(sv->v[i]));
	return a;
}

json_t *cmp_to_json(const struct cmp_result *res)
{
	json_t *groups = json_array();
	char seed[32];

	for (size_t i = 0; i < res->ng; i++) {
		const struct cmp_group *g = &res->g[i];
		json_t *rows = json_array();

		for (size_t j = 0; j < g->nrows; j++)
			json_array_append_new(rows, row_json(&g->rows[j]));
		json_array_append_new(groups, json_pack(
			"{s:i, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o}",
			"vcpus", g->vcpus, "workload", g->workload, "noise", g->noise,
			"params", g->params, "kernel_a", g->kernel_a, "kernel_b", g->kernel_b,
			"fault_a", g->fault_a, "fault_b", g->fault_b,
			"a", count_json(&g->ca), "b", count_json(&g->cb), "metrics", rows,
			"verdicts", verdicts_json(g)));
	}
	snprintf(seed, sizeof(seed), "%#llx", (unsigned long long)res->seed);
	return json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:s}, s:{s:s, s:s?, s:s, s:s, s:s}, s:b, s:f, s:f,"
			 " s:{s:s, s:I, s:s}, s:i, s:{s:s, s:s, s:s, s:s, s:f, s:i, s:s}, s:o,"
			 " s:{s:o, s:o}, s:{s:I, s:I}}",
		"mode", res->mode,
		"a", "dir", res->dir_a, "label", res->label_a, "accel", res->accel_a, "boot", res->boot_a,
		"observers", res->observers_a,
		"b", "dir", res->dir_b, "label", !strcmp(res->mode, "runs") ? res->label_b : NULL,
		"accel", res->accel_b, "boot", res->boot_b, "observers", res->observers_b,
		"tcg", res->tcg, "alpha", res->alpha, "ci_level", 1 - res->alpha,
		"bootstrap", "method", "percentile, ratio of means",
		"resamples", (json_int_t)res->resamples,
		"seed", seed,
		"min_repeats", CMP_MIN_REPEATS,
		"verdict_test", "cells", "PASS, FAIL, CRASH, TIMEOUT (not SKIP, not unfinished)",
		"interval", "Clopper-Pearson", "test", "Fisher's exact, two-sided, relative tolerance 1e-7",
		"reading", "p < alpha: regressed (B more) or fixed (B fewer), else no evidence",
		"power", CMP_POWER, "power_max_n", CMP_POWER_NMAX,
		"power_method", "exact: every outcome of n binomial trials a side at the observed rates",
		"groups", groups,
		"unmatched", "a", strv_json_arr(&res->only_a), "b", strv_json_arr(&res->only_b),
		"excluded", "a", (json_int_t)res->excluded_a, "b", (json_int_t)res->excluded_b);
}
