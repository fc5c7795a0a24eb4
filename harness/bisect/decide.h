/*
 * bisect's decision for one step from its rounds and the base's (step 0):
 * a rate of bad cells (Fisher's exact test against the base, Clopper–Pearson
 * bound against the rate the bug showed) or a metric (Welch's t and the
 * bootstrap interval of the ratio to the base). Rules: FORMAT.md, "bisect".
 */
#ifndef HT_BISECT_DECIDE_H
#define HT_BISECT_DECIDE_H
#include <stddef.h>

enum bs_decision { BS_PENDING, BS_GOOD, BS_BAD, BS_UNDECIDED };
extern const char *const bs_decision_names[];

/* Fewer PASS samples a side than this: a metric is not decided yet. */
#define BS_METRIC_MIN_N 3

struct bs_rate_eval {
	size_t k, n;		/* the step's bad cells of its cells */
	size_t k0, n0;		/* the base's, over as many rounds */
	double rate, lo, hi;	/* k / n and its Clopper–Pearson interval */
	double rate0, lo0, hi0;
	double p;		/* Fisher's exact, two-sided; NAN when a side has no cell */
	double threshold;	/* GOOD needs hi below it */
	enum bs_decision d;	/* BS_PENDING: neither yet */
};

/*
 * BAD when the step's rate is above the base's and Fisher's p < 1 -
 * confidence; else GOOD when hi < threshold; else pending.
 */
void bs_decide_rate(struct bs_rate_eval *e, size_t k, size_t n, size_t k0, size_t n0,
		    double confidence, double threshold);

struct bs_metric_eval {
	size_t n, n0;
	double mean, sd, mean0, sd0;
	double ratio, lo, hi;	/* mean / mean0 and its bootstrap interval */
	double p;		/* Welch's two-sided p */
	double limit;		/* the ratio worse than the base by worse_by_pct */
	enum bs_decision d;
};

/*
 * dir +1: higher is better (limit 1 - pct/100; BAD when p < 1 - confidence
 * and hi < limit, GOOD when lo > limit); -1: lower is (limit 1 + pct/100;
 * BAD when p < 1 - confidence and lo > limit, GOOD when hi < limit).
 * Pending with fewer than BS_METRIC_MIN_N samples a side.
 */
void bs_decide_metric(struct bs_metric_eval *e, const double *v, size_t n, const double *v0,
		      size_t n0, int dir, double worse_by_pct, double confidence);
#endif
