/*
 * Significance tests for `compare` and `stats`: mean and sd, Welch's
 * unequal-variance t-test (two-sided p from the Student t distribution
 * through the regularized incomplete beta function) and a percentile-bootstrap
 * confidence interval of the ratio of two means, with a fixed-seed generator so a rerun prints the same interval.
 */
#ifndef HT_STATS_TEST_H
#define HT_STATS_TEST_H
#include <stddef.h>
#include <stdint.h>

struct st_welch {
	double t;	/* (mean_b - mean_a) / se; ±INFINITY when both spreads are 0 */
	double df;	/* Welch–Satterthwaite degrees of freedom */
	double p;	/* two-sided; NAN when undefined (n < 2 on a side) */
};

/*
 * Mean and sample sd (k - 1: repeats are a sample of the machine; 0 when
 * k == 1) of the k finite values of v[0..n); both NAN when k == 0. Returns k.
 */
size_t st_mean_sd(const double *v, size_t n, double *mean, double *sd);

/* Regularized incomplete beta I_x(a, b); NAN outside a, b > 0, 0 <= x <= 1. */
double st_betai(double a, double b, double x);
/* Two-sided tail P(|T| >= |t|) of Student's t with df degrees of freedom. */
double st_t_two_sided_p(double t, double df);
/* Welch's t-test from summary statistics (sd: sample sd, n - 1). 0 ok, -1 if n < 2. */
int st_welch_test(double mean_a, double sd_a, size_t na, double mean_b, double sd_b,
		  size_t nb, struct st_welch *w);

/* splitmix64: small, seedable, good enough to resample a handful of repeats. */
uint64_t st_rand_next(uint64_t *state);

#define ST_BOOT_RESAMPLES 10000
#define ST_BOOT_SEED 0x5eed000ULL

/*
 * Percentile-bootstrap interval of mean(b) / mean(a) at confidence `level`
 * (0.95): each side resampled with replacement `resamples` times. Resamples
 * whose mean(a) is 0 are dropped. 0 ok, -1 if a side has n < 2 or no
 * resample was usable (lo/hi NAN). With few repeats (n = 5) the percentile
 * interval is narrower than the truth: read it with the t-test beside it.
 */
int st_bootstrap_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
			  double level, unsigned resamples, uint64_t seed,
			  double *lo, double *hi);
#endif
