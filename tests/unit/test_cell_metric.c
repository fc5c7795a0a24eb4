/* rundir/cell_metric.c: metrics by name, their units and which way is better. */
#include <math.h>

#include "testlib.h"
#include "rundir/cell_metric.h"

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(rep_metric_unit("module.ops_per_sec"), "ops/s");
	assert_int_equal(rep_metric_direction("module.ops_per_sec"), 1);
	assert_int_equal(rep_metric_direction("module.ops_per_sec_per_cpu"), 1);
	assert_string_equal(rep_metric_unit("bpftrace.pop.p99"), "ns");
	assert_int_equal(rep_metric_direction("bpftrace.pop.p50"), -1);
	assert_string_equal(rep_metric_unit("module.update.p50"), "ns");
	assert_int_equal(rep_metric_direction("module.lookup_batch.p99"), -1);
	assert_string_equal(rep_metric_unit("coverage.hashtab.lines_pct"), "%");
	assert_int_equal(rep_metric_direction("coverage.hashtab.branches_pct"), 1);
	assert_string_equal(rep_metric_unit("memory.peak_mib"), "MiB");
	assert_int_equal(rep_metric_direction("memory.avg_mib"), -1);
	/* not metrics */
	assert_null(rep_metric_unit("ops_per_sec"));
	assert_int_equal(rep_metric_direction("module.p50"), 0);
	assert_int_equal(rep_metric_direction("module.a.b.p50"), 0);
	assert_int_equal(rep_metric_direction("bpftrace.pop.p90"), 0);
	assert_int_equal(rep_metric_direction("coverage.nofile.lines_pct"), 0);
	assert_int_equal(rep_metric_direction("memory.max_mib"), 0);
}

static void test_values(void **state)
{
	struct rep_cell c = { .has_module = true, .ops_per_sec = 1000, .evs_per_cpu = 250 };

	(void)state;
	c.cell_json = json_pack("{s:{s:f}, s:{s:f}}", "memory", "peak_mib", 12.5,
				"coverage", "hashtab.lines_pct", 40.0);
	assert_true(rep_cell_metric(&c, "module.ops_per_sec") == 1000);
	assert_true(rep_cell_metric(&c, "module.ops_per_sec_per_cpu") == 250);
	assert_true(rep_cell_metric(&c, "memory.peak_mib") == 12.5);
	assert_true(rep_cell_metric(&c, "coverage.hashtab.lines_pct") == 40);
	assert_true(isnan(rep_cell_metric(&c, "memory.avg_mib")));
	assert_true(isnan(rep_cell_metric(&c, "module.update.p50")));
	assert_true(isnan(rep_cell_metric(&c, "bpftrace.pop.p50")));
	c.has_module = false;
	assert_true(isnan(rep_cell_metric(&c, "module.ops_per_sec")));
	json_decref(c.cell_json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
