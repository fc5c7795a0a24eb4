/*
 * Exact tests of proportions, for counts such as "2 of 10 cells CRASHed":
 * the binomial CDF, the Clopper–Pearson interval of k in n (the binomial
 * CDF inverted by bisection), Fisher's exact test of a 2 × 2 table
 * (two-sided, as R's fisher.test) and the smallest number of trials per
 * side at which that test reaches a given power (exact enumeration).
 */
#ifndef HT_PROPORTION_H
#define HT_PROPORTION_H

/* Relative tolerance of "as or less probable than the observed table" (R's). */
#define ST_FISHER_REL_TOL 1e-7

/* P(X <= k) for X ~ Binomial(n, p); NAN for p outside [0, 1]. */
double st_binom_cdf(unsigned k, unsigned n, double p);

/*
 * Clopper–Pearson interval of the rate of k successes in n trials at
 * confidence level (0.95): lo solves P(X >= k | lo) = (1 - level) / 2 (0
 * when k == 0), hi solves P(X <= k | hi) = (1 - level) / 2 (1 when k == n).
 * 0 ok; -1 (lo, hi NAN) when n == 0, k > n or level is not in (0, 1).
 */
int st_clopper_pearson(unsigned k, unsigned n, double level, double *lo, double *hi);

/*
 * Fisher's exact test of the table [a b; c d], two-sided: the sum of the
 * hypergeometric probabilities (margins fixed) of every table at most
 * (1 + ST_FISHER_REL_TOL) times as probable as this one. NAN without memory.
 */
double st_fisher_exact(unsigned a, unsigned b, unsigned c, unsigned d);

/*
 * The probability that Fisher's test of Binomial(n, pa) against
 * Binomial(n, pb) successes (n trials a side) gives p < alpha, summed over
 * every outcome. NAN without memory or for rates outside [0, 1].
 */
double st_fisher_power(unsigned n, double pa, double pb, double alpha);

/*
 * The smallest n <= nmax at which st_fisher_power(n, pa, pb, alpha) >= power
 * (n by n from 1: the power of an exact test is not monotone in n). 0 when
 * pa == pb (no difference to see), nmax + 1 when no n up to nmax reaches it,
 * UINT_MAX without memory or for rates outside [0, 1].
 */
unsigned st_fisher_n_for_power(double pa, double pb, double alpha, double power, unsigned nmax);
#endif
