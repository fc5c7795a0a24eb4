/* The one number formatter (lib/numfmt.c): fixed and adaptive text, "-" and null without data. */
#include "testlib.h"

#include <math.h>

#include "lib/numfmt.h"

static void test_num_text(void **s)
{
	char b[32];

	(void)s;
	assert_string_equal(num_text(b, sizeof(b), 1234.6, 0), "1235");
	assert_string_equal(num_text(b, sizeof(b), 2.5, 2), "2.50");
	assert_string_equal(num_text(b, sizeof(b), NAN, 0), "-");
	assert_string_equal(num_text(b, sizeof(b), INFINITY, 0), "-");
	assert_string_equal(num_text(b, sizeof(b), 123456.7, NUM_ADAPTIVE), "123457");
	assert_string_equal(num_text(b, sizeof(b), 12.34, NUM_ADAPTIVE), "12.3");
	assert_string_equal(num_text(b, sizeof(b), 0.012345, NUM_ADAPTIVE), "0.0123");
}

static void test_num_json(void **s)
{
	json_t *j = num_json(1.5);

	(void)s;
	assert_true(json_is_real(j));
	json_decref(j);
	assert_true(json_is_null(num_json(NAN)));
	assert_true(json_is_null(num_json(-INFINITY)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_num_text),
		cmocka_unit_test(test_num_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
