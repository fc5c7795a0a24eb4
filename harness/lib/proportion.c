/* Exact tests of proportions (see proportion.h). */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "lib/proportion.h"

/* Bisection steps: the interval [0, 1] halved 64 times is below 1e-19. */
#define CP_STEPS 64

static bool rate_ok(double p)
{
	return p >= 0 && p <= 1;
}

double st_binom_cdf(unsigned k, unsigned n, double p)
{
	double sum = 0, lp, lq;

	if (!rate_ok(p))
		return NAN;
	if (k >= n || p == 0)
		return 1;
	if (p == 1)
		return 0;
	lp = log(p);
	lq = log1p(-p);
	for (unsigned i = 0; i <= k; i++)
		sum += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) +
			   i * lp + (n - i) * lq);
	return sum < 1 ? sum : 1;
}

/* The p in [0, 1] where st_binom_cdf(k, n, p), falling in p, crosses target. */
static double cdf_inverse(unsigned k, unsigned n, double target)
{
	double lo = 0, hi = 1;

	for (int i = 0; i < CP_STEPS; i++) {
		double mid = (lo + hi) / 2;

		if (st_binom_cdf(k, n, mid) > target)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int st_clopper_pearson(unsigned k, unsigned n, double level, double *lo, double *hi)
{
	double tail = (1 - level) / 2;

	*lo = *hi = NAN;
	if (!n || k > n || !(level > 0 && level < 1))
		return -1;
	/* P(X >= k | lo) = tail, i.e. P(X <= k - 1 | lo) = 1 - tail */
	*lo = k ? cdf_inverse(k - 1, n, 1 - tail) : 0;
	*hi = k < n ? cdf_inverse(k, n, tail) : 1;
	return 0;
}

/* log(i!) for i = 0..n. */
static double *lfact_table(unsigned n)
{
	double *lf = malloc((n + 1) * sizeof(*lf));

	for (unsigned i = 0; lf && i <= n; i++)
		lf[i] = lgamma(i + 1.0);
	return lf;
}

static int dbl_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/*
 * Two-sided Fisher p of every table with row sums r1, r2 and first column
 * sum c1: pv[i] for a = lo + i, lo = max(0, c1 - r2), up to min(r1, c1).
 * The hypergeometric probabilities are scaled by their largest before
 * exp() and normalised, as R does. s and cum: scratch of as many doubles.
 */
static void fisher_pvals(const double *lf, unsigned r1, unsigned r2, unsigned c1,
			 double *pv, double *s, double *cum)
{
	unsigned lo = c1 > r2 ? c1 - r2 : 0, hi = r1 < c1 ? r1 : c1, k = hi - lo + 1;
	double top = -INFINITY, sum = 0;

	for (unsigned i = 0; i < k; i++) {
		unsigned x = lo + i;

		pv[i] = lf[r1] - lf[x] - lf[r1 - x] + lf[r2] - lf[c1 - x] - lf[r2 - c1 + x];
		if (pv[i] > top)
			top = pv[i];
	}
	for (unsigned i = 0; i < k; i++) {
		pv[i] = exp(pv[i] - top);
		sum += pv[i];
	}
	for (unsigned i = 0; i < k; i++)
		s[i] = pv[i] /= sum;
	qsort(s, k, sizeof(*s), dbl_cmp);
	for (unsigned i = 0; i < k; i++)	/* smallest first: the tails' sum stays exact */
		cum[i] = (i ? cum[i - 1] : 0) + s[i];
	for (unsigned i = 0; i < k; i++) {
		double lim = pv[i] * (1 + ST_FISHER_REL_TOL);
		unsigned a = 0, b = k;	/* the number of s[] <= lim, by bisection */

		while (a < b) {
			unsigned m = (a + b) / 2;

			if (s[m] <= lim)
				a = m + 1;
			else
				b = m;
		}
		pv[i] = a ? (cum[a - 1] < 1 ? cum[a - 1] : 1) : 0;
	}
}

double st_fisher_exact(unsigned a, unsigned b, unsigned c, unsigned d)
{
	unsigned r1 = a + b, r2 = c + d, c1 = a + c;
	unsigned lo = c1 > r2 ? c1 - r2 : 0, k = (r1 < c1 ? r1 : c1) - lo + 1;
	double *lf = lfact_table(r1 + r2), *buf = malloc(3 * k * sizeof(*buf)), p = NAN;

	if (lf && buf) {
		fisher_pvals(lf, r1, r2, c1, buf, buf + k, buf + 2 * k);
		p = buf[a - lo];
	}
	free(lf);
	free(buf);
	return p;
}

/* Binomial(n, p) probabilities of 0..n into pmf. */
static void binom_pmf(const double *lf, unsigned n, double p, double *pmf)
{
	double lp = log(p), lq = log1p(-p);

	for (unsigned x = 0; x <= n; x++) {
		if (p == 0 || p == 1)
			pmf[x] = x == (p == 0 ? 0 : n);
		else
			pmf[x] = exp(lf[n] - lf[x] - lf[n - x] + x * lp + (n - x) * lq);
	}
}

/* Scratch for power_at: five arrays of n + 1 doubles each, n the largest asked. */
struct power_buf {
	double *lf, *pa, *pb, *pv, *s, *cum;
};

static int power_buf_get(struct power_buf *w, unsigned n)
{
	w->lf = lfact_table(2 * n);
	w->pa = malloc(5 * (n + 1) * sizeof(double));
	if (!w->lf || !w->pa) {
		free(w->lf);
		free(w->pa);
		return -1;
	}
	w->pb = w->pa + (n + 1);
	w->pv = w->pb + (n + 1);
	w->s = w->pv + (n + 1);
	w->cum = w->s + (n + 1);
	return 0;
}

static void power_buf_put(struct power_buf *w)
{
	free(w->lf);
	free(w->pa);
}

/* Every outcome (xa, xb) of n trials a side, grouped by xa + xb (one margin). */
static double power_at(struct power_buf *w, unsigned n, double pa, double pb, double alpha)
{
	double pw = 0;

	binom_pmf(w->lf, n, pa, w->pa);
	binom_pmf(w->lf, n, pb, w->pb);
	for (unsigned m = 0; m <= 2 * n; m++) {
		unsigned lo = m > n ? m - n : 0, hi = m < n ? m : n;

		fisher_pvals(w->lf, n, n, m, w->pv, w->s, w->cum);
		for (unsigned xa = lo; xa <= hi; xa++)
			if (w->pv[xa - lo] < alpha)
				pw += w->pa[xa] * w->pb[m - xa];
	}
	return pw < 1 ? pw : 1;
}

double st_fisher_power(unsigned n, double pa, double pb, double alpha)
{
	struct power_buf w;
	double pw;

	if (!rate_ok(pa) || !rate_ok(pb) || power_buf_get(&w, n))
		return NAN;
	pw = power_at(&w, n, pa, pb, alpha);
	power_buf_put(&w);
	return pw;
}

unsigned st_fisher_n_for_power(double pa, double pb, double alpha, double power, unsigned nmax)
{
	struct power_buf w;
	unsigned n;

	if (!rate_ok(pa) || !rate_ok(pb))
		return UINT_MAX;
	if (pa == pb)
		return 0;
	if (power_buf_get(&w, nmax))
		return UINT_MAX;
	for (n = 1; n <= nmax; n++)
		if (power_at(&w, n, pa, pb, alpha) >= power)
			break;
	power_buf_put(&w);
	return n;
}
