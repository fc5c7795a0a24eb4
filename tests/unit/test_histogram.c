/* Percentiles by linear interpolation inside the bucket, against hand-computed values. */
#include <math.h>
#include "testlib.h"

#include "lib/histogram.h"

static void test_two_log2_buckets(void **s)
{
	struct hist h;
	struct hist_stats st;

	(void)s;
	hist_init(&h);
	assert_int_equal(hist_add_bucket(&h, 1024, 2048, 5), 0);
	assert_int_equal(hist_add_bucket(&h, 2048, 4096, 5), 0);
	assert_int_equal(h.count, 10);
	/* rank 5 ends bucket 1: 1024 + 5/5 * 1024 */
	assert_float_equal(hist_percentile(&h, 50), 2048.0, 1e-9);
	/* rank 9: bucket 2, (9-5)/5 = 0.8 -> 2048 + 0.8 * 2048 */
	assert_float_equal(hist_percentile(&h, 90), 3686.4, 1e-9);
	/* rank 9.9: (9.9-5)/5 = 0.98 -> 2048 + 0.98 * 2048 */
	assert_float_equal(hist_percentile(&h, 99), 4055.04, 1e-9);
	hist_summarize(&h, &st);
	assert_int_equal(st.count, 10);
	assert_float_equal(st.max, 4095.0, 1e-9);	/* top bucket's upper bound */
	hist_free(&h);
}

static void test_zero_bucket_and_gaps(void **s)
{
	struct hist h;

	(void)s;
	hist_init(&h);
	hist_add_bucket(&h, 0, 1, 2);
	hist_add_bucket(&h, 1, 2, 0);
	hist_add_bucket(&h, 2, 4, 2);
	hist_add_bucket(&h, 4, 8, 4);
	assert_float_equal(hist_percentile(&h, 25), 1.0, 1e-9);	/* rank 2 ends [0,1) */
	assert_float_equal(hist_percentile(&h, 50), 4.0, 1e-9);	/* rank 4 ends [2,4) */
	assert_float_equal(hist_percentile(&h, 90), 7.2, 1e-9);	/* 4 + 3.2/4 * 4 */
	assert_float_equal(hist_percentile(&h, 0), 0.0, 1e-9);
	assert_float_equal(hist_percentile(&h, 100), 8.0, 1e-9);
	hist_free(&h);
}

static void test_exact_minmax_clamps(void **s)
{
	struct hist h;
	struct hist_stats st;

	(void)s;
	hist_init(&h);
	hist_add_bucket(&h, 1024, 2048, 10);
	h.min = 1500;
	h.max = 1600;
	h.has_minmax = true;
	assert_float_equal(hist_percentile(&h, 50), 1536.0, 1e-9);
	assert_float_equal(hist_percentile(&h, 99), 1600.0, 1e-9);	/* 2037.76 clamped */
	assert_float_equal(hist_percentile(&h, 1), 1500.0, 1e-9);	/* 1034.24 clamped */
	hist_summarize(&h, &st);
	assert_float_equal(st.max, 1600.0, 1e-9);
	hist_free(&h);
}

static void test_empty_and_bad(void **s)
{
	struct hist h;
	struct hist_stats st;

	(void)s;
	hist_init(&h);
	assert_true(isnan(hist_percentile(&h, 50)));
	hist_summarize(&h, &st);
	assert_true(isnan(st.max));
	assert_int_equal(hist_add_bucket(&h, 8, 16, 1), 0);
	assert_int_equal(hist_add_bucket(&h, 4, 8, 1), -1);	/* descending */
	assert_int_equal(hist_add_bucket(&h, 32, 32, 1), -1);	/* empty range */
	assert_int_equal(hist_add_bucket(&h, 12, 20, 1), -1);	/* overlap */
	hist_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_log2_buckets),
		cmocka_unit_test(test_zero_bucket_and_gaps),
		cmocka_unit_test(test_exact_minmax_clamps),
		cmocka_unit_test(test_empty_and_bad),
	};

	return cmocka_run_group_tests_name("histogram", tests, NULL, NULL);
}
