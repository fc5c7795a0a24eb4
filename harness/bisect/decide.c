/* bisect's decision for one step (decide.h; the rules: FORMAT.md, "bisect"). */
#include <math.h>

#include "bisect/decide.h"
#include "lib/proportion.h"
#include "lib/welch_bootstrap.h"

const char *const bs_decision_names[] = { "pending", "GOOD", "BAD", "UNDECIDED" };

void bs_decide_rate(struct bs_rate_eval *e, size_t k, size_t n, size_t k0, size_t n0,
		    double confidence, double threshold)
{
	*e = (struct bs_rate_eval){ .k = k, .n = n, .k0 = k0, .n0 = n0, .threshold = threshold,
				    .rate = NAN, .lo = NAN, .hi = NAN, .rate0 = NAN,
				    .lo0 = NAN, .hi0 = NAN, .p = NAN, .d = BS_PENDING };
	if (n)
		e->rate = (double)k / n;
	if (n0)
		e->rate0 = (double)k0 / n0;
	st_clopper_pearson(k, n, confidence, &e->lo, &e->hi);
	st_clopper_pearson(k0, n0, confidence, &e->lo0, &e->hi0);
	if (!n || !n0)
		return;
	e->p = st_fisher_exact(k, n - k, k0, n0 - k0);
	if (e->rate > e->rate0 && e->p < 1 - confidence)
		e->d = BS_BAD;
	else if (e->hi < threshold)
		e->d = BS_GOOD;
}

void bs_decide_metric(struct bs_metric_eval *e, const double *v, size_t n, const double *v0,
		      size_t n0, int dir, double worse_by_pct, double confidence)
{
	struct st_welch w;

	*e = (struct bs_metric_eval){ .n = n, .n0 = n0, .ratio = NAN, .lo = NAN, .hi = NAN,
				      .p = NAN, .d = BS_PENDING };
	e->limit = dir > 0 ? 1 - worse_by_pct / 100 : 1 + worse_by_pct / 100;
	st_mean_sd(v, n, &e->mean, &e->sd);
	st_mean_sd(v0, n0, &e->mean0, &e->sd0);
	if (n && n0 && e->mean0 != 0)
		e->ratio = e->mean / e->mean0;
	if (n < BS_METRIC_MIN_N || n0 < BS_METRIC_MIN_N)
		return;
	if (!st_welch_test(e->mean0, e->sd0, n0, e->mean, e->sd, n, &w))
		e->p = w.p;
	if (st_bootstrap_ratio_ci(v0, n0, v, n, confidence, ST_BOOT_RESAMPLES, ST_BOOT_SEED,
				  &e->lo, &e->hi))
		return;
	if (dir > 0 ? e->hi < e->limit : e->lo > e->limit) {
		if (e->p < 1 - confidence)
			e->d = BS_BAD;
	} else if (dir > 0 ? e->lo > e->limit : e->hi < e->limit) {
		e->d = BS_GOOD;
	}
}
