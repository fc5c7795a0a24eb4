/*
 * kmod/tasks_proto.h, the lines the module and its task callers exchange
 * (the module and vm-images/guest/tasks.c both parse with it): fields
 * by name, every bad token refused with its offset, the contract, window
 * and report lists as the module prints them.
 */
#include <errno.h>
#include "testlib.h"

#include "../kmod/tasks_proto.h"

static void test_contract_line(void **s)
{
	/* as kmod/callers_task.c prints it */
	const char *line = "map_id=12 value_size=16 percpu=1 possible_cpus=2 tasks=8 key0=3271557120 "
			   "key_stride=4 keys=4 writer0=50331648 keeps_full=0 verify=1\n";
	unsigned long long c[HT_TC_NR] = { 0 }, seen;

	(void)s;
	assert_int_equal(ht_tp_parse(line, ht_task_contract_names, HT_TC_NR, c, &seen), 0);
	assert_true(ht_tp_all(seen, HT_TC_NR));
	assert_int_equal(c[HT_TC_map_id], 12);
	assert_int_equal(c[HT_TC_tasks], 8);
	assert_int_equal(c[HT_TC_key0], 0xc3000000ULL);
	assert_int_equal(c[HT_TC_writer0], 3U << 24);
	assert_int_equal(c[HT_TC_verify], 1);
	/* a field missing is seen as missing, not as 0 */
	assert_int_equal(ht_tp_parse("map_id=1 tasks=2", ht_task_contract_names, HT_TC_NR, c, &seen), 0);
	assert_false(ht_tp_all(seen, HT_TC_NR));
	assert_int_equal(seen, (1ULL << HT_TC_map_id) | (1ULL << HT_TC_tasks));
}

/* -(1 + offset) of the token refused */
static void test_bad_tokens(void **s)
{
	unsigned long long v[HT_TW_NR], seen;
	const char *const *n = ht_task_window_names;

	(void)s;
	assert_int_equal(ht_tp_parse("start_ns=1 bogus=2", n, HT_TW_NR, v, &seen), -12);
	assert_int_equal(ht_tp_parse("start_ns=1 start_ns=2", n, HT_TW_NR, v, &seen), -12);
	assert_int_equal(ht_tp_parse("start_ns", n, HT_TW_NR, v, &seen), -1);
	assert_int_equal(ht_tp_parse("start_ns=", n, HT_TW_NR, v, &seen), -1);
	assert_int_equal(ht_tp_parse("start_ns=-1", n, HT_TW_NR, v, &seen), -1);
	assert_int_equal(ht_tp_parse("start_ns=12x", n, HT_TW_NR, v, &seen), -1);
	assert_int_equal(ht_tp_parse("start_ns=0x10", n, HT_TW_NR, v, &seen), -1);
	/* a prefix or an extension of a name is not that name */
	assert_int_equal(ht_tp_parse("start=1", n, HT_TW_NR, v, &seen), -1);
	assert_int_equal(ht_tp_parse("start_nsx=1", n, HT_TW_NR, v, &seen), -1);
	/* 2^64 - 1 fits, 2^64 does not */
	assert_int_equal(ht_tp_parse("end_ns=18446744073709551615", n, HT_TW_NR, v, &seen), 0);
	assert_true(v[HT_TW_end_ns] == ~0ULL);
	assert_int_equal(ht_tp_parse("end_ns=18446744073709551616", n, HT_TW_NR, v, &seen), -1);
	/* spaces, tabs and newlines separate; nothing is an empty line */
	assert_int_equal(ht_tp_parse(" \tabort=0\n", n, HT_TW_NR, v, &seen), 0);
	assert_int_equal(seen, 1ULL << HT_TW_abort);
	assert_int_equal(ht_tp_parse("", n, HT_TW_NR, v, &seen), 0);
	assert_int_equal(seen, 0);
}

/* Every report field and errno name round-trips, the errnos after the fields. */
static void test_report_fields(void **s)
{
	unsigned long long v[HT_TR_NR], w[HT_TR_NR], seen;
	char line[HT_TASK_LINE_MAX];
	size_t len = 0;

	(void)s;
	assert_true(HT_TR_NR <= 64);
	assert_string_equal(ht_task_report_names[HT_TR_ERR0], "E2BIG");
	assert_string_equal(ht_task_report_names[HT_TR_NR - 1], "EINVAL");
	assert_int_equal(HT_TR_NR_ERRNOS, 6);
	for (int i = 0; i < HT_TR_NR; i++) {
		v[i] = ~0ULL - (unsigned long long)i;
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s=%llu", i ? " " : "",
					ht_task_report_names[i], v[i]);
	}
	/* the longest report fits the module's line */
	assert_true(len < HT_TASK_LINE_MAX);
	assert_int_equal(ht_tp_parse(line, ht_task_report_names, HT_TR_NR, w, &seen), 0);
	assert_true(ht_tp_all(seen, HT_TR_NR));
	assert_memory_equal(v, w, sizeof(v));
	/* "ready task=I" is the first field alone */
	assert_int_equal(ht_tp_parse("task=3", ht_task_report_names, 1, w, &seen), 0);
	assert_true(ht_tp_all(seen, 1));
	assert_int_equal(ht_tp_parse("task=3 pid=4", ht_task_report_names, 1, w, &seen), -8);
}

static void test_bad_codes(void **s)
{
	(void)s;
	assert_int_equal(HT_TASK_NR_BADS, 4);
	assert_null(ht_task_bad_names[0]);
	assert_string_equal(ht_task_bad_names[1], "stamp mismatch");
	assert_string_equal(ht_task_bad_names[2], "stored key missing");
	assert_string_equal(ht_task_bad_names[3], "key present though never stored");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_contract_line),
		cmocka_unit_test(test_bad_tokens),
		cmocka_unit_test(test_report_fields),
		cmocka_unit_test(test_bad_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
