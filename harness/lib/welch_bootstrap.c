/* Welch's t-test and a bootstrap CI of a ratio of means (see welch_bootstrap.h). */
#include <math.h>
#include <stdlib.h>

#include "lib/welch_bootstrap.h"

#define BETACF_MAXIT 300
#define BETACF_EPS 3e-16
#define BETACF_TINY 1e-300

size_t st_mean_sd(const double *v, size_t n, double *mean, double *sd)
{
	double sum = 0, sq = 0;
	size_t k = 0;

	*mean = *sd = NAN;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i])) {
			sum += v[i];
			k++;
		}
	if (!k)
		return 0;
	*mean = sum / (double)k;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			sq += (v[i] - *mean) * (v[i] - *mean);
	*sd = k > 1 ? sqrt(sq / (double)(k - 1)) : 0;
	return k;
}

/*
 * Continued fraction for the incomplete beta function, evaluated with the
 * modified Lentz method: the algorithm of `betacf` in Numerical Recipes in C,
 * 2nd ed., Press et al., section 6.4 (eq. 6.4.5). It converges quickly for
 * x < (a + 1) / (a + b + 2); st_betai uses the symmetry I_x(a,b) = 1 - I_1-x(b,a)
 * to stay in that region.
 */
static double betacf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < BETACF_TINY)
		d = BETACF_TINY;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= BETACF_MAXIT; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2)), del;

		/* even step of the recurrence */
		d = 1 + aa * d;
		if (fabs(d) < BETACF_TINY)
			d = BETACF_TINY;
		c = 1 + aa / c;
		if (fabs(c) < BETACF_TINY)
			c = BETACF_TINY;
		d = 1 / d;
		h *= d * c;
		/* odd step */
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < BETACF_TINY)
			d = BETACF_TINY;
		c = 1 + aa / c;
		if (fabs(c) < BETACF_TINY)
			c = BETACF_TINY;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < BETACF_EPS)
			break;
	}
	return h;
}

double st_betai(double a, double b, double x)
{
	double front;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

/* P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2) (Abramowitz & Stegun 26.7.1 / 26.5.27). */
double st_t_two_sided_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return st_betai(df / 2, 0.5, df / (df + t * t));
}

int st_welch_test(double mean_a, double sd_a, size_t na, double mean_b, double sd_b,
		  size_t nb, struct st_welch *w)
{
	double va, vb, se2;

	w->t = w->df = w->p = NAN;
	if (na < 2 || nb < 2)
		return -1;
	va = sd_a * sd_a / (double)na;
	vb = sd_b * sd_b / (double)nb;
	se2 = va + vb;
	if (se2 == 0) {
		/* No spread at all: the means differ or they do not. */
		w->df = (double)(na + nb - 2);
		w->t = mean_b == mean_a ? 0 : (mean_b > mean_a ? INFINITY : -INFINITY);
		w->p = mean_b == mean_a ? 1 : 0;
		return 0;
	}
	w->t = (mean_b - mean_a) / sqrt(se2);
	w->df = se2 * se2 / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	w->p = st_t_two_sided_p(w->t, w->df);
	return 0;
}

uint64_t st_rand_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double resample_mean(const double *v, size_t n, uint64_t *state)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[st_rand_next(state) % n];	/* modulo bias is ~n/2^64 */
	return sum / (double)n;
}

static int dbl_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* Linear interpolation between order statistics (type 7, as R and numpy default). */
static double quantile_sorted(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

int st_bootstrap_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
			  double level, unsigned resamples, uint64_t seed,
			  double *lo, double *hi)
{
	double *r;
	size_t k = 0;
	uint64_t state = seed;

	*lo = *hi = NAN;
	if (na < 2 || nb < 2 || !resamples || !(level > 0 && level < 1))
		return -1;
	r = malloc(resamples * sizeof(*r));
	if (!r)
		return -1;
	for (unsigned i = 0; i < resamples; i++) {
		double ma = resample_mean(a, na, &state), mb = resample_mean(b, nb, &state);

		if (ma != 0 && isfinite(mb / ma))
			r[k++] = mb / ma;
	}
	if (k) {
		qsort(r, k, sizeof(*r), dbl_cmp);
		*lo = quantile_sorted(r, k, (1 - level) / 2);
		*hi = quantile_sorted(r, k, 1 - (1 - level) / 2);
	}
	free(r);
	return k ? 0 : -1;
}
