/*
 * Unit tests of harness/lib/welch_bootstrap.c: the regularized incomplete beta, the
 * Student t two-sided tail, Welch's t-test and the bootstrap ratio CI.
 * Reference values and where they come from are beside each check:
 *  - closed forms: df=1 (Cauchy) P(|T|>=t) = 1 - (2/pi) atan t;
 *    df=2: P(|T|>=t) = 1 - t / sqrt(2 + t^2); I_x(a,1) = x^a; I_x(1,1) = x.
 *  - t tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2): t(0.975, 4) = 2.776,
 *    t(0.975, 10) = 2.228, so the two-sided p there is 0.050 to 3 digits.
 *  - R: t.test(extra ~ group, data = sleep) prints "t = -1.8608, df = 17.776,
 *    p-value = 0.07939" (Welch, the default; the example in R's ?t.test).
 *  - Other p-values: Simpson integration of the t density (2e6 intervals), a
 *    route independent of the incomplete beta, by a 20-line Python script.
 */
#include <math.h>

#include "testlib.h"
#include "lib/welch_bootstrap.h"

#define REL(x, ref, tol) assert_true(fabs((x) - (ref)) <= (tol) * fabs(ref))

static void test_betai(void **state)
{
	(void)state;
	assert_float_equal(st_betai(2, 3, 0), 0, 0);
	assert_float_equal(st_betai(2, 3, 1), 1, 0);
	assert_float_equal(st_betai(1, 1, 0.3), 0.3, 1e-14);
	assert_float_equal(st_betai(3.5, 1, 0.6), pow(0.6, 3.5), 1e-14);
	assert_float_equal(st_betai(7, 7, 0.5), 0.5, 1e-14);	/* symmetry */
	assert_true(isnan(st_betai(0, 1, 0.5)));
	assert_true(isnan(st_betai(1, 1, 1.5)));
}

static void test_t_closed_forms(void **state)
{
	(void)state;
	for (double t = 0.25; t < 40; t *= 2) {
		assert_float_equal(st_t_two_sided_p(t, 1), 1 - 2 / M_PI * atan(t), 1e-12);
		assert_float_equal(st_t_two_sided_p(-t, 2), 1 - t / sqrt(2 + t * t), 1e-12);
	}
	assert_float_equal(st_t_two_sided_p(0, 5), 1, 1e-15);
	assert_float_equal(st_t_two_sided_p(INFINITY, 5), 0, 0);
	assert_true(isnan(st_t_two_sided_p(1, 0)));
}

static void test_t_tables(void **state)
{
	(void)state;
	/* table critical values: p = 0.05 to the table's 3 digits */
	assert_float_equal(st_t_two_sided_p(2.776, 4), 0.05, 5e-4);
	assert_float_equal(st_t_two_sided_p(2.228, 10), 0.05, 5e-4);
	/* numerical integration of the density */
	REL(st_t_two_sided_p(2.776, 4), 0.05002277831996549, 1e-9);
	REL(st_t_two_sided_p(2.228, 10), 0.0500117718170765, 1e-9);
	REL(st_t_two_sided_p(0.5, 7.2), 0.6319925470760315, 1e-9);
	REL(st_t_two_sided_p(3.0, 17.776), 0.007763856346552189, 1e-8);
}

static void stat_of(const double *v, size_t n, double *mean, double *sd)
{
	double s = 0, q = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*sd = sqrt(q / (double)(n - 1));
}

static void welch_of(const double *a, size_t na, const double *b, size_t nb, struct st_welch *w)
{
	double ma, sa, mb, sb;

	stat_of(a, na, &ma, &sa);
	stat_of(b, nb, &mb, &sb);
	assert_int_equal(st_welch_test(ma, sa, na, mb, sb, nb, w), 0);
}

static void test_welch_r_sleep(void **state)
{
	/* R's sleep data set (Cushny & Peebles): extra hours of sleep, two drugs. */
	static const double g1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
	static const double g2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
	struct st_welch w;

	(void)state;
	/* R tests group1 - group2; we test B - A with A = group1: same |t|. */
	welch_of(g1, 10, g2, 10, &w);
	assert_float_equal(w.t, 1.8608, 5e-5);
	assert_float_equal(w.df, 17.776, 5e-4);
	assert_float_equal(w.p, 0.07939, 5e-6);
}

static void test_welch_fixture_values(void **state)
{
	/* The compare fixtures' clear change and no change (K ops/s per CPU). */
	static const double a[] = { 97, 99, 100, 101, 103 };
	static const double b[] = { 146, 148, 150, 152, 154 };
	static const double same[] = { 98, 99, 100, 102, 103 };
	struct st_welch w;

	(void)state;
	welch_of(a, 5, b, 5, &w);
	/* by hand: var a = 5, var b = 10; t = 50 / sqrt(5/5 + 10/5) = 50/sqrt 3;
	 * df = (1 + 2)^2 / (1/4 + 4/4) = 7.2 */
	assert_float_equal(w.t, 50 / sqrt(3), 1e-9);
	assert_float_equal(w.df, 7.2, 1e-12);
	REL(w.p, 1.0416053908279821e-08, 1e-4);
	welch_of(a, 5, same, 5, &w);
	assert_float_equal(w.t, 0.29329423004271077, 1e-12);
	assert_float_equal(w.df, 7.954932168314555, 1e-9);
	assert_float_equal(w.p, 0.7768029535340315, 1e-9);
}

static void test_welch_edges(void **state)
{
	struct st_welch w;

	(void)state;
	assert_int_equal(st_welch_test(1, 0, 1, 2, 1, 5, &w), -1);
	assert_true(isnan(w.p));
	assert_int_equal(st_welch_test(5, 0, 3, 5, 0, 3, &w), 0);
	assert_float_equal(w.p, 1, 0);
	assert_int_equal(st_welch_test(5, 0, 3, 6, 0, 3, &w), 0);
	assert_float_equal(w.p, 0, 0);
	assert_true(w.t == INFINITY);
}

static void test_bootstrap_ratio(void **state)
{
	static const double a[] = { 97, 99, 100, 101, 103 };
	static const double b[] = { 146, 148, 150, 152, 154 };
	static const double same[] = { 98, 99, 100, 102, 103 };
	static const double zeros[] = { 0, 0, 0 }, fives[] = { 5, 5, 5 };
	double lo, hi, lo2, hi2;

	(void)state;
	assert_int_equal(st_bootstrap_ratio_ci(a, 5, b, 5, 0.95, 10000, ST_BOOT_SEED, &lo, &hi), 0);
	/* the ratio of means is 1.5; resample means stay within [97.4, 102.6] and
	 * [146.8, 153.2] for most draws, so the interval is about 1.47 .. 1.54 */
	assert_true(lo < 1.5 && hi > 1.5);
	assert_true(lo > 1.45 && hi < 1.55);
	/* fixed seed: the same interval every time; another seed: close to it */
	assert_int_equal(st_bootstrap_ratio_ci(a, 5, b, 5, 0.95, 10000, ST_BOOT_SEED, &lo2, &hi2), 0);
	assert_true(lo == lo2 && hi == hi2);
	assert_int_equal(st_bootstrap_ratio_ci(a, 5, b, 5, 0.95, 10000, 42, &lo2, &hi2), 0);
	assert_float_equal(lo, lo2, 0.005);
	assert_float_equal(hi, hi2, 0.005);
	/* no change: 1 inside */
	assert_int_equal(st_bootstrap_ratio_ci(a, 5, same, 5, 0.95, 10000, ST_BOOT_SEED, &lo, &hi), 0);
	assert_true(lo < 1 && hi > 1);
	/* a wider level gives a wider interval */
	assert_int_equal(st_bootstrap_ratio_ci(a, 5, same, 5, 0.99, 10000, ST_BOOT_SEED, &lo2, &hi2), 0);
	assert_true(lo2 <= lo && hi2 >= hi);
	/* constant samples: exactly 1; n < 2 or a zero base mean: no interval */
	assert_int_equal(st_bootstrap_ratio_ci(fives, 3, fives, 3, 0.95, 100, 1, &lo, &hi), 0);
	assert_true(lo == 1 && hi == 1);
	assert_int_equal(st_bootstrap_ratio_ci(b, 1, b, 1, 0.95, 100, 1, &lo, &hi), -1);
	assert_int_equal(st_bootstrap_ratio_ci(zeros, 3, b, 3, 0.95, 100, 1, &lo, &hi), -1);
	assert_true(isnan(lo) && isnan(hi));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_betai),
		cmocka_unit_test(test_t_closed_forms),
		cmocka_unit_test(test_t_tables),
		cmocka_unit_test(test_welch_r_sleep),
		cmocka_unit_test(test_welch_fixture_values),
		cmocka_unit_test(test_welch_edges),
		cmocka_unit_test(test_bootstrap_ratio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
