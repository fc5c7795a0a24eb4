/*
 * Unit tests of the run table (summary_print): the per-repeat rows and the
 * "over repeats" rows that give mean ± stddev per configuration.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "rundir/summary.h"

static json_t *cell(const char *kernel, int repeat, const char *verdict, double ops)
{
	return json_pack("{s:i, s:s, s:s, s:s, s:s, s:i, s:s, s:f, s:f}",
			 "vcpus", 16, "workload", "full_update", "kernel", kernel,
			 "noise", "none", "accel", "tcg", "repeat", repeat,
			 "verdict", verdict, "ops_per_sec", ops, "ops_per_sec_per_cpu", ops / 16);
}

static char *table(json_t *cells)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	summary_print(f, cells);
	fclose(f);
	return buf;
}

/* Cells without a test_action key still group by configuration. */
static void test_spread_rows(void **state)
{
	json_t *cells = json_array();
	char *out;

	(void)state;
	json_array_append_new(cells, cell("fixed", 0, "PASS", 100));
	json_array_append_new(cells, cell("before-000", 0, "PASS", 10));
	json_array_append_new(cells, cell("fixed", 1, "PASS", 200));
	json_array_append_new(cells, cell("before-000", 1, "CRASH", 0));
	json_array_append_new(cells, cell("before-000", 2, "PASS", 20));
	out = table(cells);
	/* fixed: mean 150, sample stddev 70.7 -> "150±71" */
	assert_non_null(strstr(out, "150±71"));
	assert_non_null(strstr(out, "2/2 PASS"));
	/* before-000: the CRASH is counted, not averaged: mean 15, sd 7 */
	assert_non_null(strstr(out, "15±7"));
	assert_non_null(strstr(out, "2/3 PASS"));
	assert_non_null(strstr(out, "(tcg: emulated"));
	free(out);
	json_decref(cells);
}

/* A single repeat gets no spread row. */
static void test_no_spread_without_repeats(void **state)
{
	json_t *cells = json_array();
	char *out;

	(void)state;
	json_array_append_new(cells, cell("distro", 0, "PASS", 100));
	out = table(cells);
	assert_null(strstr(out, "over repeats"));
	free(out);
	json_decref(cells);
}

/* Coverage cells get a line each: lines%/branches% per file of the coverage list, or the error. */
static void test_coverage_lines(void **state)
{
	json_t *cells = json_array(), *a = cell("coverage", 0, "PASS", 100);
	json_t *b = cell("coverage", 1, "PASS", 100);
	char *out;

	(void)state;
	json_object_set_new(a, "cell", json_string("v16-full_update-coverage-none-r0"));
	json_object_set_new(a, "coverage", json_pack("{s:s, s:f, s:f, s:f, s:n}",
		"snapshot", "workload", "percpu_freelist.lines_pct", 45.0,
		"percpu_freelist.branches_pct", 30.25, "hashtab.lines_pct", 12.5,
		"hashtab.branches_pct"));
	json_object_set_new(b, "cell", json_string("v16-full_update-coverage-none-r1"));
	json_object_set_new(b, "coverage", json_pack("{s:s}", "error", "gcov failed on x.gcda"));
	json_array_append_new(cells, a);
	json_array_append_new(cells, b);
	out = table(cells);
	assert_non_null(strstr(out, "coverage (workload snapshot: lines%/branches% hit):\n"));
	assert_non_null(strstr(out, "  v16-full_update-coverage-none-r0  percpu_freelist.c 45.0/30.2"
				    "  hashtab.c 12.5/-  bpf_lru_list.c -/-"));
	assert_non_null(strstr(out, "  v16-full_update-coverage-none-r1  error: gcov failed on x.gcda\n"));
	free(out);
	json_decref(cells);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread_rows),
		cmocka_unit_test(test_coverage_lines),
		cmocka_unit_test(test_no_spread_without_repeats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
