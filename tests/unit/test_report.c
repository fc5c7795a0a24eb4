/*
 * Unit tests of `htab-torture report`: percentiles of log2 histograms (through
 * histogram.c and bpftrace_ndjson.c, as the report uses them), CSV escaping,
 * the text histogram, statistics over repeats, and whole reports of fixture
 * runs with missing files and crashed / timed-out cells.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/bpftrace_ndjson.h"
#include "lib/csv.h"
#include "lib/histogram.h"
#include "report/report.h"
#include "report/report_hist_text.h"
#include "rundir/run_load.h"
#include "report/report_out.h"
#include "lib/util.h"

static const char *fixtures(void)
{
	static const char *const cand[] = { "../fixtures/report", "tests/fixtures/report" };
	const char *env = getenv("HT_REPORT_FIXTURES");

	if (env)
		return env;
#ifdef FIXTURES
	if (file_exists(FIXTURES "/report"))
		return FIXTURES "/report";
#endif
	for (size_t i = 0; i < 2; i++)
		if (file_exists(cand[i]))
			return cand[i];
	fail_msg("fixtures/report not found (run from tests/unit or the repo root)");
	return NULL;
}

/* A fresh copy of a fixture run (report writes into the run dir). */
static char *copy_fixture(const char *name)
{
	char tmpl[] = "/tmp/test_report.XXXXXX", cmd[8192], *dir;

	assert_non_null(mkdtemp(tmpl));
	snprintf(cmd, sizeof(cmd), "cp -r '%s/%s' '%s/'", fixtures(), name, tmpl);
	assert_int_equal(system(cmd), 0);
	assert_true(asprintf(&dir, "%s/%s", tmpl, name) > 0);
	return dir;
}

/* dir is TMP/NAME: remove TMP, the mkdtemp directory. */
static void rm_tree(char *dir)
{
	char cmd[8192];

	*strrchr(dir, '/') = '\0';
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		print_message("could not remove %s\n", dir);
	free(dir);
}

static char *slurp(const char *dir, const char *name)
{
	char path[4200], *s;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	s = read_file(path, NULL);
	assert_non_null(s);
	return s;
}

/* [1K,2K) 5, [2K,4K) 10, [4K,8K) 5: 20 calls, worked by hand. */
static const char *hist_line =
	"{\"type\": \"hist\", \"data\": {\"@ns\": [{\"min\": 1024, \"max\": 2047, \"count\": 5}, "
	"{\"min\": 2048, \"max\": 4095, \"count\": 10}, {\"min\": 4096, \"max\": 8191, \"count\": 5}]}}";

static void test_percentiles_from_bpftrace_log2(void **state)
{
	struct bt_output o;
	struct hist_stats s;
	char err[128];

	(void)state;
	bt_output_init(&o);
	assert_int_equal(bt_parse_line(&o, hist_line, err, sizeof(err)), 0);
	assert_int_equal(o.nhists, 1);
	hist_summarize(&o.hists[0].h, &s);
	assert_int_equal(s.count, 20);
	/* p50: rank 10, 5 below, half-way into [2048,4096) */
	assert_float_equal(s.p50, 3072.0, 1e-6);
	/* p90: rank 18, 15 below, 3/5 into [4096,8192) */
	assert_float_equal(s.p90, 4096 + 0.6 * 4096, 1e-6);
	/* p99: rank 19.8, 0.96 into [4096,8192) */
	assert_float_equal(s.p99, 4096 + 0.96 * 4096, 1e-6);
	/* bpftrace gives no exact max: the top bucket's upper bound */
	assert_float_equal(s.max, 8191.0, 1e-6);
	bt_output_free(&o);
}

/* Repeats are summed bucket by bucket before the group's histogram is read. */
static void test_merge_repeats(void **state)
{
	struct hist a, b;

	(void)state;
	hist_init(&a);
	hist_init(&b);
	assert_int_equal(hist_add_bucket(&a, 1024, 2048, 5), 0);
	assert_int_equal(hist_add_bucket(&a, 4096, 8192, 5), 0);
	assert_int_equal(hist_add_bucket(&b, 2048, 4096, 10), 0);
	assert_int_equal(hist_add_bucket(&b, 4096, 8192, 0), 0);
	assert_int_equal(rep_hist_merge(&a, &b), 0);
	assert_int_equal(a.n, 3);
	assert_int_equal(a.count, 20);
	assert_float_equal(hist_percentile(&a, 50), 3072.0, 1e-6);
	hist_free(&a);
	hist_free(&b);
}

static void test_csv_escaping(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "plain", "plain" },
		{ "", "" },
		{ "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "two\nlines", "\"two\nlines\"" },
		{ "cr\rhere", "\"cr\rhere\"" },
		{ " padded", "\" padded\"" },
		{ "BUG: soft lockup - CPU#1 stuck for 22s!", "BUG: soft lockup - CPU#1 stuck for 22s!" },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	struct csv c;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *e = csv_escape(cases[i].in);

		assert_string_equal(e, cases[i].out);
		free(e);
	}
	f = open_memstream(&buf, &len);
	csv_init(&c, f);
	csv_str(&c, "x,y");
	csv_num(&c, NAN, "%.1f");
	csv_num(&c, 2.5, "%.1f");
	csv_int(&c, -3);
	csv_end_row(&c);
	fclose(f);
	assert_string_equal(buf, "\"x,y\",,2.5,-3\n");
	free(buf);
}

static void test_bucket_labels_and_draw(void **state)
{
	char l[64], *buf = NULL;
	size_t len = 0;
	struct hist h;
	FILE *f;

	(void)state;
	rep_bucket_label(l, sizeof(l), 1024, 2048);
	assert_string_equal(l, "[1K, 2K)");
	rep_bucket_label(l, sizeof(l), 0, 1);
	assert_string_equal(l, "[0]");
	rep_bucket_label(l, sizeof(l), 4, 8);
	assert_string_equal(l, "[4, 8)");
	rep_bucket_label(l, sizeof(l), 1 << 20, 1 << 21);
	assert_string_equal(l, "[1M, 2M)");
	/* the module lists non-empty buckets only: the gap is drawn as a 0 row */
	hist_init(&h);
	hist_add_bucket(&h, 1024, 2048, 10);
	hist_add_bucket(&h, 4096, 8192, 5);
	f = open_memstream(&buf, &len);
	rep_hist_draw(f, "@ns", &h);
	fclose(f);
	assert_non_null(strstr(buf, "@ns:\n[1K, 2K)               10 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"));
	assert_non_null(strstr(buf, "[2K, 4K)                0 |"));
	/* 5 of a top of 10: half of the 52-column bar */
	assert_non_null(strstr(buf, "[4K, 8K)                5 |@@@@@@@@@@@@@@@@@@@@@@@@@@ "));
	assert_null(strstr(buf, "@@@@@@@@@@@@@@@@@@@@@@@@@@@ "));
	free(buf);
	hist_free(&h);
}

static void test_stats_and_pct_change(void **state)
{
	double v[] = { 10, 14, NAN };
	struct rep_stat s;

	(void)state;
	rep_stat_of(&s, v, 3);
	assert_int_equal(s.n, 2);
	assert_float_equal(s.mean, 12, 1e-9);
	assert_float_equal(s.sd, sqrt(8), 1e-9);	/* sample sd of {10, 14} */
	rep_stat_of(&s, v, 1);
	assert_float_equal(s.sd, 0, 1e-9);
	assert_float_equal(rep_pct_change(200, 150), -25.0, 1e-9);
	assert_true(isnan(rep_pct_change(0, 1)));
}

/* Group means over the repeats of the A/B fixture equal the hand sum. */
static void test_groups_of_ab_run(void **state)
{
	char *dir = copy_fixture("ab_run");
	struct rep_run r;
	const struct rep_group *g;
	const struct rep_cell *c0 = NULL, *c1 = NULL;

	(void)state;
	assert_int_equal(rep_run_load(&r, dir), 0);
	assert_int_equal(r.n, 8);
	assert_int_equal(r.nkernels, 2);
	assert_int_equal(r.nvcpus, 2);
	assert_true(r.any_tcg);
	g = rep_group_find(&r, "full_update", "revert", 4);
	assert_non_null(g);
	assert_int_equal(g->ncells, 2);
	for (size_t i = 0; i < r.n; i++)
		if (!strcmp(r.cells[i].kernel, "revert") && r.cells[i].vcpus == 4)
			*(r.cells[i].repeat ? &c1 : &c0) = &r.cells[i];
	assert_non_null(c0);
	assert_non_null(c1);
	assert_float_equal(g->evs_per_cpu.mean, (c0->evs_per_cpu + c1->evs_per_cpu) / 2, 1e-6);
	assert_float_equal(g->evs_per_cpu.sd, fabs(c0->evs_per_cpu - c1->evs_per_cpu) / sqrt(2),
			   1e-6);
	assert_int_equal(g->pop.count, rep_cell_pop(c0)->h.count + rep_cell_pop(c1)->h.count);
	rep_run_free(&r);
	rm_tree(dir);
}

static void test_ab_report_files(void **state)
{
	char *dir = copy_fixture("ab_run"), *html, *txt, *csv, path[4200];
	json_t *j;

	(void)state;
	assert_int_equal(report_run_dir(dir, true), 0);
	html = slurp(dir, "report.html");
	txt = slurp(dir, "report.txt");
	csv = slurp(dir, "summary.csv");
	assert_non_null(strstr(html, "id=ab"));
	assert_non_null(strstr(html, "EMULATED"));
	assert_non_null(strstr(html, "src=\"plots/scaling_full_update_evs.png\""));
	assert_non_null(strstr(txt, "0:full_update "));
	assert_non_null(strstr(txt, " events per sec\n"));
	assert_non_null(strstr(txt, "A/B: each kernel against distro"));
	assert_non_null(strstr(csv, "ops_per_sec [ops/s]"));
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	j = json_load_file(path, 0, NULL);
	assert_non_null(j);
	/* the harness's keys survive, the report's are added */
	assert_string_equal(json_string_value(json_object_get(j, "run")), "ab_run");
	assert_int_equal(json_array_size(json_object_get(j, "cells")), 8);
	assert_non_null(json_object_get(json_array_get(json_object_get(j, "cells"), 0), "ops"));
	assert_non_null(json_object_get(json_object_get(json_array_get(json_object_get(j, "cells"), 0),
							"pop_ns"), "p90"));
	json_decref(j);
	free(html);
	free(txt);
	free(csv);
	rm_tree(dir);
}

/* A crashed, a timed-out, a skipped and an unfinished cell: listed, rest plotted. */
static void test_partial_run(void **state)
{
	char *dir = copy_fixture("partial_run"), *html, *txt, *csv;
	char path[4200];
	json_t *j, *c;
	size_t i;
	int crash = 0, timeout = 0, incomplete = 0;

	(void)state;
	assert_int_equal(report_run_dir(dir, true), 0);
	html = slurp(dir, "report.html");
	txt = slurp(dir, "report.txt");
	csv = slurp(dir, "summary.csv");
	assert_non_null(strstr(html, "data-verdict=\"CRASH\""));
	assert_non_null(strstr(html, "BUG: soft lockup in __pcpu_freelist_pop"));
	assert_non_null(strstr(html, "data-verdict=\"TIMEOUT\""));
	assert_non_null(strstr(html, "no console output for 120 s"));
	assert_non_null(strstr(txt, "CRASH      v4-full_update-distro-none-r0: BUG: soft lockup in __pcpu_freelist_pop"));
	assert_non_null(strstr(txt, "TIMEOUT    v8-full_update-distro-none-r0: no console output"));
	assert_non_null(strstr(txt, "SKIP       v2-full_update-distro-none-r1: bpftrace did not attach"));
	/* no cell.json: titled from its console by console_scan, quotes escaped in CSV */
	assert_non_null(strstr(txt, "INCOMPLETE v8-full_update-distro-none-r1: "));
	assert_non_null(strstr(csv, "\"\"quoted\"\""));
	/* the cells that finished still plot */
	snprintf(path, sizeof(path), "%s/plots/scaling_full_update_evs.png", dir);
	assert_true(file_exists(path));
	snprintf(path, sizeof(path), "%s/plots/pophist_full_update_distro.png", dir);
	assert_true(file_exists(path));
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	j = json_load_file(path, 0, NULL);
	assert_non_null(j);
	assert_int_equal(json_array_size(json_object_get(j, "cells")), 6);
	json_array_foreach(json_object_get(j, "cells"), i, c) {
		const char *v = json_string_value(json_object_get(c, "verdict"));
		const char *sig = json_string_value(json_object_get(c, "signature"));

		if (!strcmp(v, "CRASH")) {
			crash++;
			assert_string_equal(sig, "BUG: soft lockup in __pcpu_freelist_pop");
		} else if (!strcmp(v, "TIMEOUT")) {
			timeout++;
			assert_non_null(sig);
		} else if (!strcmp(v, "INCOMPLETE")) {
			incomplete++;
			assert_false(json_is_true(json_object_get(json_object_get(c, "files"),
								  "cell_json")));
		}
	}
	assert_int_equal(crash, 1);
	assert_int_equal(timeout, 1);
	assert_int_equal(incomplete, 1);
	json_decref(j);
	free(html);
	free(txt);
	free(csv);
	rm_tree(dir);
}

/*
 * Problems grouped by verdict and title: the Oops of two kernels is one
 * group of two, CRASH before FAIL before TIMEOUT, the excerpt from cell.json
 * (or the console, for a cell.json without one), the module's failures for
 * a FAIL, the runner's last line for a TIMEOUT.
 */
static void test_problems_grouping(void **state)
{
	char *dir = copy_fixture("problems_run");
	struct rep_run r;
	struct rep_problems p;
	const struct rep_problem *g;

	(void)state;
	assert_int_equal(rep_run_load(&r, dir), 0);
	assert_int_equal(r.n, 7);
	assert_int_equal(rep_problems_build(&r, &p), 0);
	assert_int_equal(p.n, 4);
	g = &p.v[0];
	assert_string_equal(g->verdict, "CRASH");
	assert_string_equal(g->title, "BUG: kernel NULL pointer dereference in __pcpu_freelist_pop");
	assert_int_equal(g->ncells, 2);
	assert_int_equal(g->nkernels, 2);
	assert_string_equal(g->kernels[0], "distro");
	assert_string_equal(g->kernels[1], "revert");
	assert_string_equal(g->cells[0]->id, "v2-full_update-distro-none-r0");
	assert_string_equal(g->cells[1]->id, "v2-full_update-revert-none-r0");
	/* the first cell's own excerpt (9.1 s), not the second's (8.7 s) */
	assert_non_null(strstr(g->excerpt, "[    9.100000] BUG: kernel NULL pointer dereference"));
	assert_null(strstr(g->excerpt, "8.700000"));
	assert_string_equal(g->console, "v2-full_update-distro-none-r0/console.log");
	g = &p.v[1];
	assert_string_equal(g->verdict, "CRASH");
	assert_string_equal(g->title, "BUG: soft lockup in __pcpu_freelist_pop (TCG overcommit 2\u00d7)");
	assert_int_equal(g->ncells, 1);
	/* no crash.excerpt in that cell.json: cut from its console, without the runner's line */
	assert_non_null(strstr(g->excerpt, "watchdog: BUG: soft lockup - CPU#1 stuck for 44s!"));
	assert_non_null(strstr(g->excerpt, "</TASK>"));
	assert_null(strstr(g->excerpt, "runner:"));
	g = &p.v[2];
	assert_string_equal(g->verdict, "FAIL");
	assert_string_equal(g->title, "module: FAILURE: corrupt value: key 17 on CPU 1");
	assert_string_equal(g->excerpt,
			    "corrupt value: key 17 on CPU 1 holds the stamp of key 4113 (writer CPU 0, seq 88)\n"
			    "residual 4095 != capacity 4096\n");
	g = &p.v[3];
	assert_string_equal(g->verdict, "TIMEOUT");
	assert_string_equal(g->title, "no console output for 126 s");
	assert_string_equal(g->excerpt, "runner: insmod /path/to/htab-torture/kmod/htab_torture.ko workload=full_update");
	/* cell.json known_bug: said with the group; no other group has one */
	assert_string_equal(g->known, "fixture-known-deadlock in 1 of 1 cells: a deadlock of the kernel "
				      "under test (see tests/unit/test_report.c)");
	for (int i = 0; i < 3; i++)
		assert_null(p.v[i].known);
	rep_problems_free(&p);
	rep_run_free(&r);
	rm_tree(dir);
}

static size_t at(const char *hay, const char *needle)
{
	const char *p = strstr(hay, needle);

	assert_non_null(p);
	return (size_t)(p - hay);
}

/* Both reports open with the problems, before the environment; a clean run says so. */
static void test_problems_first(void **state)
{
	char *dir = copy_fixture("problems_run"), *html, *txt;

	(void)state;
	assert_int_equal(report_run_dir(dir, true), 0);
	html = slurp(dir, "report.html");
	txt = slurp(dir, "report.txt");
	assert_true(at(txt, "Problems") < at(txt, "Environment"));
	assert_true(at(txt, "Environment") < at(txt, "Cells\n"));
	assert_non_null(strstr(txt, "  1. CRASH   x2  BUG: kernel NULL pointer dereference in __pcpu_freelist_pop\n"
				    "     kernels: distro, revert\n"
				    "     cells: v2-full_update-distro-none-r0, v2-full_update-revert-none-r0\n"
				    "     console: v2-full_update-distro-none-r0/console.log\n"
				    "     | [    9.100000] BUG: kernel NULL pointer dereference"));
	assert_non_null(strstr(txt, "  3. FAIL    x1  module: FAILURE: corrupt value: key 17 on CPU 1\n"));
	assert_non_null(strstr(txt, "     | residual 4095 != capacity 4096\n"));
	assert_non_null(strstr(txt, "  4. TIMEOUT x1  no console output for 126 s\n"));
	assert_non_null(strstr(txt, "\n     known kernel bug: fixture-known-deadlock in 1 of 1 cells: "));
	assert_non_null(strstr(html, "<span class=known>known kernel bug: fixture-known-deadlock in 1 of 1"));
	assert_true(at(html, "id=problems") < at(html, "id=env"));
	assert_non_null(strstr(html, "<a href=\"v2-full_update-distro-none-r0/console.log\">"));
	assert_non_null(strstr(html, "<td class=n>2</td>"));
	assert_non_null(strstr(html, "<pre class=excerpt>[    9.100000] BUG: kernel NULL pointer"));
	assert_non_null(strstr(html, "ht_worker+0xa8/0x140 [htab_torture]"));
	assert_null(strstr(html, "no problems"));
	free(html);
	free(txt);
	rm_tree(dir);
	dir = copy_fixture("ab_run");
	assert_int_equal(report_run_dir(dir, true), 0);
	html = slurp(dir, "report.html");
	txt = slurp(dir, "report.txt");
	assert_true(at(txt, "  no problems\n") < at(txt, "Environment"));
	assert_true(at(html, "no problems") < at(html, "id=env"));
	assert_null(strstr(html, "id=problems>"));
	free(html);
	free(txt);
	rm_tree(dir);
}

/* Nothing but a console: no summary.json, no cell.json, no module.json. */
static void test_bare_cell_dir(void **state)
{
	char tmpl[] = "/tmp/test_report.XXXXXX", path[4200], *dir, *txt;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	snprintf(path, sizeof(path), "%s/run/v16-full_update-my-kernel-none-r3", tmpl);
	assert_int_equal(mkdir_p(path), 0);
	strcat(path, "/console.log");
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[    1.0] booting\n", f);
	fclose(f);
	assert_true(asprintf(&dir, "%s/run", tmpl) > 0);
	assert_int_equal(report_run_dir(dir, true), 0);
	txt = slurp(dir, "report.txt");
	/* the id is parsed back into its parts; the kernel label holds a dash */
	assert_non_null(strstr(txt, "v16-full_update-my-kernel-none-r3    INCOMPLETE"));
	assert_non_null(strstr(txt, "my-kernel"));
	free(txt);
	rm_tree(dir);
}

static void test_not_a_dir(void **state)
{
	(void)state;
	assert_int_equal(report_run_dir("/nonexistent/run", true), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles_from_bpftrace_log2),
		cmocka_unit_test(test_merge_repeats),
		cmocka_unit_test(test_csv_escaping),
		cmocka_unit_test(test_bucket_labels_and_draw),
		cmocka_unit_test(test_stats_and_pct_change),
		cmocka_unit_test(test_groups_of_ab_run),
		cmocka_unit_test(test_ab_report_files),
		cmocka_unit_test(test_partial_run),
		cmocka_unit_test(test_problems_grouping),
		cmocka_unit_test(test_problems_first),
		cmocka_unit_test(test_bare_cell_dir),
		cmocka_unit_test(test_not_a_dir),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
