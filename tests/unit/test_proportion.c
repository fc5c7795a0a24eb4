/*
 * Unit tests of harness/lib/proportion.c: the binomial CDF, Clopper–Pearson,
 * Fisher's exact test and its power. Reference values and where they come
 * from are beside each check:
 *  - closed forms: Clopper–Pearson of 0 in n is [0, 1 - (a/2)^(1/n)], of n
 *    in n [(a/2)^(1/n), 1], of 1 in n starts at 1 - (1 - a/2)^(1/n);
 *    P(X <= 2 | n = 10, p = 1/2) = (1 + 10 + 45) / 1024.
 *  - R: binom.test(2, 10) prints the 95 % interval 0.02521073 0.55609546;
 *    Fisher's tea-tasting table [3 1; 1 3] has p = 34/70 = 0.4857.
 *  - By hand: [2 8; 0 10] (2 of 10 against 0 of 10) has tables of
 *    probability 45, 100, 45 (/190), so p = 90/190 = 9/19.
 *  - Other p-values and the powers: a Python script with exact fractions
 *    (math.comb, fractions.Fraction), enumerating every table.
 */
#include <limits.h>
#include <math.h>

#include "testlib.h"
#include "lib/proportion.h"

#define REL(x, ref, tol) assert_true(fabs((x) - (ref)) <= (tol) * fabs(ref))

static void test_binom_cdf(void **state)
{
	(void)state;
	assert_float_equal(st_binom_cdf(2, 10, 0.5), 56.0 / 1024, 1e-15);
	assert_float_equal(st_binom_cdf(0, 10, 0.3), pow(0.7, 10), 1e-15);
	assert_float_equal(st_binom_cdf(10, 10, 0.3), 1, 0);
	assert_float_equal(st_binom_cdf(3, 10, 0), 1, 0);
	assert_float_equal(st_binom_cdf(3, 10, 1), 0, 0);
	assert_true(isnan(st_binom_cdf(3, 10, 1.5)));
}

static void test_clopper_pearson(void **state)
{
	double lo, hi;

	(void)state;
	assert_int_equal(st_clopper_pearson(0, 10, 0.95, &lo, &hi), 0);
	assert_float_equal(lo, 0, 0);
	REL(hi, 1 - pow(0.025, 0.1), 1e-12);
	assert_float_equal(hi, 0.3085, 5e-5);
	assert_int_equal(st_clopper_pearson(2, 10, 0.95, &lo, &hi), 0);
	REL(lo, 0.02521073, 1e-6);
	REL(hi, 0.55609546, 1e-7);
	/* the bounds are where the tails are 2.5 % */
	REL(st_binom_cdf(2, 10, hi), 0.025, 1e-12);
	REL(1 - st_binom_cdf(1, 10, lo), 0.025, 1e-10);
	assert_int_equal(st_clopper_pearson(10, 10, 0.95, &lo, &hi), 0);
	REL(lo, pow(0.025, 0.1), 1e-12);
	assert_float_equal(hi, 1, 0);
	assert_int_equal(st_clopper_pearson(1, 10, 0.95, &lo, &hi), 0);
	REL(lo, 1 - pow(0.975, 0.1), 1e-10);
	assert_int_equal(st_clopper_pearson(0, 5, 0.95, &lo, &hi), 0);
	REL(hi, 1 - pow(0.025, 0.2), 1e-12);
	/* the level follows: 0 of 10 at 90 % */
	assert_int_equal(st_clopper_pearson(0, 10, 0.9, &lo, &hi), 0);
	REL(hi, 1 - pow(0.05, 0.1), 1e-12);
	assert_int_equal(st_clopper_pearson(0, 0, 0.95, &lo, &hi), -1);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(st_clopper_pearson(3, 2, 0.95, &lo, &hi), -1);
	assert_int_equal(st_clopper_pearson(1, 2, 1, &lo, &hi), -1);
}

static void test_fisher(void **state)
{
	(void)state;
	REL(st_fisher_exact(3, 1, 1, 3), 34.0 / 70, 1e-12);
	assert_float_equal(st_fisher_exact(3, 1, 1, 3), 0.4857, 5e-5);
	REL(st_fisher_exact(2, 8, 0, 10), 9.0 / 19, 1e-12);
	/* the same table turned around: rows, columns swapped */
	REL(st_fisher_exact(0, 10, 2, 8), 9.0 / 19, 1e-12);
	REL(st_fisher_exact(2, 0, 8, 10), 9.0 / 19, 1e-12);
	REL(st_fisher_exact(0, 10, 5, 5), 0.032507739938080496, 1e-10);
	REL(st_fisher_exact(2, 15, 10, 3), 0.0005367241191434358, 1e-9);
	/* the most probable table and nothing to test: p = 1 */
	assert_float_equal(st_fisher_exact(0, 10, 0, 10), 1, 1e-15);
	assert_float_equal(st_fisher_exact(5, 5, 5, 5), 1, 1e-12);
	assert_float_equal(st_fisher_exact(0, 0, 0, 0), 1, 0);
}

static void test_power(void **state)
{
	(void)state;
	REL(st_fisher_power(10, 0, 0.5, 0.05), 0.623046875, 1e-12);
	REL(st_fisher_power(12, 0, 0.5, 0.05), 0.80615234375, 1e-12);
	REL(st_fisher_power(5, 0.2, 0.6, 0.05), 0.1423589376, 1e-10);
	/* symmetric in the sides */
	REL(st_fisher_power(5, 0.6, 0.2, 0.05), 0.1423589376, 1e-10);
	assert_true(st_fisher_power(8, 0.3, 0.3, 0.05) < 0.05);	/* an exact test holds its size */
	assert_int_equal(st_fisher_n_for_power(0, 0.5, 0.05, 0.8, 200), 12);
	assert_int_equal(st_fisher_n_for_power(0.5, 0, 0.05, 0.8, 200), 12);
	assert_int_equal(st_fisher_n_for_power(0, 0.2, 0.05, 0.8, 200), 39);
	/* equal rates: nothing to see; beyond nmax: nmax + 1 */
	assert_int_equal(st_fisher_n_for_power(0.2, 0.2, 0.05, 0.8, 200), 0);
	assert_int_equal(st_fisher_n_for_power(0, 0.2, 0.05, 0.8, 30), 31);
	assert_int_equal(st_fisher_n_for_power(0, 1.2, 0.05, 0.8, 30), UINT_MAX);
	assert_true(isnan(st_fisher_power(5, -0.1, 0.5, 0.05)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binom_cdf),
		cmocka_unit_test(test_clopper_pearson),
		cmocka_unit_test(test_fisher),
		cmocka_unit_test(test_power),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
