/* bisect/decide.c: a step's decision from its counts or samples and the base's. */
#include <math.h>

#include "testlib.h"
#include "bisect/decide.h"

static void test_rate(void **state)
{
	struct bs_rate_eval e;

	(void)state;
	/* 4 of 4 against 0 of 4: Fisher p 0.0286 < 0.05 */
	bs_decide_rate(&e, 4, 4, 0, 4, 0.95, 0.2);
	assert_int_equal(e.d, BS_BAD);
	assert_true(fabs(e.p - 0.028571) < 1e-5);
	/* 2 of 10 against 2 of 10: never BAD (stray crashes of the base too); bound 0.556 */
	bs_decide_rate(&e, 2, 10, 2, 10, 0.95, 0.2);
	assert_int_equal(e.d, BS_PENDING);
	/* 0 of 16: bound 0.206, not below 0.2; 0 of 20: 0.168, GOOD */
	bs_decide_rate(&e, 0, 16, 0, 16, 0.95, 0.2);
	assert_int_equal(e.d, BS_PENDING);
	bs_decide_rate(&e, 0, 20, 0, 20, 0.95, 0.2);
	assert_int_equal(e.d, BS_GOOD);
	/* fewer bad cells than the base: not BAD however small p */
	bs_decide_rate(&e, 0, 20, 10, 20, 0.95, 0.1);
	assert_int_equal(e.d, BS_PENDING);
	bs_decide_rate(&e, 0, 0, 0, 0, 0.95, 0.2);
	assert_int_equal(e.d, BS_PENDING);
}

static void test_metric(void **state)
{
	double base[] = { 1000, 1010, 990, 1005 }, slow[] = { 800, 805, 795, 810 },
	       same[] = { 1002, 998, 1008, 995 }, near[] = { 900, 905, 895, 900 };
	struct bs_metric_eval e;

	(void)state;
	bs_decide_metric(&e, slow, 4, base, 4, 1, 10, 0.95);
	assert_int_equal(e.d, BS_BAD);
	bs_decide_metric(&e, same, 4, base, 4, 1, 10, 0.95);
	assert_int_equal(e.d, BS_GOOD);
	/* worse by about the limit: neither */
	bs_decide_metric(&e, near, 4, base, 4, 1, 10, 0.95);
	assert_int_equal(e.d, BS_PENDING);
	/* lower is better (ns): 20% slower latency is 1.25x, beyond 1.10 */
	bs_decide_metric(&e, base, 4, slow, 4, -1, 10, 0.95);
	assert_int_equal(e.d, BS_BAD);
	/* too few samples */
	bs_decide_metric(&e, slow, 2, base, 2, 1, 10, 0.95);
	assert_int_equal(e.d, BS_PENDING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_metric),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
