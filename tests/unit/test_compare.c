/*
 * Unit tests of `htab-torture compare` on the fixture runs of
 * tests/fixtures/compare (make_fixtures.py states their exact figures):
 * a clear change (+50 %, significant), no change (not significant), too few
 * repeats (n=1, a CRASH excluded), two runs with unmatched groups and a FAIL,
 * the default base kernel, the table and JSON, the CLI's exit statuses, and
 * verdicts as data (verdicts_run: counts, intervals, Fisher p, the reading).
 */
#include <math.h>
#include <sys/stat.h>

#include "testlib.h"
#include "compare/compare.h"

#define FIX FIXTURES "/compare"

struct fx {
	struct rep_run run, run2;
	struct cmp_result res;
	struct cmp_opts o;
};

static void opts_default(struct cmp_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->resamples = ST_BOOT_RESAMPLES;
	o->seed = ST_BOOT_SEED;
}

static struct fx *load_kernels(const char *base, double alpha)
{
	struct fx *f = calloc(1, sizeof(*f));

	opts_default(&f->o);
	f->o.alpha = alpha;
	assert_int_equal(rep_run_load(&f->run, FIX "/kernels_run"), 0);
	assert_int_equal(cmp_build(&f->res, &f->run, NULL, base, &f->o), 0);
	return f;
}

static void fx_free(struct fx *f)
{
	cmp_result_free(&f->res);
	rep_run_free(&f->run);
	if (f->run2.dir)
		rep_run_free(&f->run2);
	free(f);
}

static const struct cmp_group *group_b(const struct cmp_result *r, const char *kb, int vcpus)
{
	for (size_t i = 0; i < r->ng; i++)
		if (!strcmp(r->g[i].kernel_b, kb) && r->g[i].vcpus == vcpus)
			return &r->g[i];
	fail_msg("no group with kernel_b %s v%d", kb, vcpus);
	return NULL;
}

static const struct cmp_row *row(const struct cmp_group *g, const char *name)
{
	for (size_t i = 0; i < g->nrows; i++)
		if (!strcmp(g->rows[i].name, name))
			return &g->rows[i];
	fail_msg("no metric %s", name);
	return NULL;
}

static void test_clear_change(void **state)
{
	struct fx *f = load_kernels("before-000", 0.05);
	const struct cmp_group *g = group_b(&f->res, "fixed", 16);
	const struct cmp_row *r = row(g, "module.ops_per_sec_per_cpu");

	(void)state;
	assert_string_equal(f->res.mode, "kernels");
	assert_string_equal(g->kernel_a, "before-000");
	assert_int_equal(g->ca.pass, 5);
	assert_int_equal(g->cb.pass, 5);
	assert_int_equal(r->a.n, 5);
	assert_float_equal(r->a.st.mean, 100000, 1e-6);
	assert_float_equal(r->a.st.sd, 1000 * sqrt(5), 1e-6);
	assert_float_equal(r->b.st.mean, 150000, 1e-6);
	assert_float_equal(r->b.st.sd, 1000 * sqrt(10), 1e-6);
	assert_float_equal(r->change_pct, 50, 1e-9);
	assert_float_equal(r->ratio, 1.5, 1e-12);
	assert_true(r->tested && r->significant);
	assert_float_equal(r->w.t, 50 / sqrt(3), 1e-9);
	assert_float_equal(r->w.df, 7.2, 1e-9);
	assert_true(fabs(r->w.p - 1.0416053908279821e-08) < 1e-11);
	assert_true(r->ci_lo > 1.4 && r->ci_lo < 1.5 && r->ci_hi > 1.5 && r->ci_hi < 1.6);
	/* total ops/s are 16 × the per-CPU figure */
	assert_float_equal(row(g, "module.ops_per_sec")->b.st.mean, 2400000, 1e-6);
	/* latency from bpftrace and the module: the fixed kernel's are lower */
	assert_true(row(g, "bpftrace.pop.p50")->change_pct < -50);
	assert_true(row(g, "module.update.p99")->change_pct < -50);
	fx_free(f);
}

static void test_no_change(void **state)
{
	struct fx *f = load_kernels("before-000", 0.05);
	const struct cmp_row *r = row(group_b(&f->res, "before-000-again", 16),
				      "module.ops_per_sec_per_cpu");

	(void)state;
	assert_float_equal(r->change_pct, 0.4, 1e-9);
	assert_true(r->tested);
	assert_false(r->significant);
	assert_float_equal(r->w.p, 0.7768029535340315, 1e-9);
	assert_true(r->ci_lo < 1 && r->ci_hi > 1);
	fx_free(f);
}

static void test_too_few_repeats(void **state)
{
	struct fx *f = load_kernels("before-000", 0.05);
	const struct cmp_group *g = group_b(&f->res, "lockdep", 16);
	const struct cmp_row *r = row(g, "module.ops_per_sec_per_cpu");

	(void)state;
	assert_int_equal(g->cb.cells, 2);
	assert_int_equal(g->cb.pass, 1);
	assert_int_equal(g->cb.excluded[CV_CRASH], 1);
	assert_false(r->tested);
	assert_false(r->significant);
	assert_string_equal(r->note, "too few repeats (n=1)");
	assert_float_equal(r->change_pct, -10, 1e-9);	/* still shown, untested */
	assert_true(isnan(r->w.p) && isnan(r->ci_lo));
	assert_string_equal(row(g, "bpftrace.pop.p50")->note, "not measured in B");
	assert_int_equal(f->res.excluded_a, 0);
	assert_int_equal(f->res.excluded_b, 1);
	fx_free(f);
}

static void test_alpha(void **state)
{
	/* p = 1.04e-8: significant at 0.05, not at 1e-9 */
	struct fx *f = load_kernels("before-000", 1e-9);
	const struct cmp_row *r = row(group_b(&f->res, "fixed", 16), "module.ops_per_sec_per_cpu");

	(void)state;
	assert_true(r->tested);
	assert_false(r->significant);
	/*
	 * The CI follows alpha too: at 1 - 1e-9 it spans every resample, wider
	 * than the 95 % one (about 1.47 .. 1.54) but inside the extreme possible
	 * ratios 146.8/102.6 .. 153.2/97.4 (resample means of all-min / all-max).
	 */
	assert_true(r->ci_lo >= 146.8 / 102.6 - 1e-9 && r->ci_lo < 1.45);
	assert_true(r->ci_hi <= 153.2 / 97.4 + 1e-9 && r->ci_hi > 1.55);
	fx_free(f);
}

static void test_default_base(void **state)
{
	struct rep_run r;

	(void)state;
	assert_int_equal(rep_run_load(&r, FIX "/kernels_run"), 0);
	/* summary.json order (the run's --kernel order), not alphabetical */
	assert_string_equal(cmp_first_kernel(&r), "fixed");
	rep_run_free(&r);
}

static void test_two_runs(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	const struct cmp_group *g;
	const struct cmp_row *r;

	(void)state;
	opts_default(&f->o);
	assert_int_equal(rep_run_load(&f->run, FIX "/run_a"), 0);
	assert_int_equal(rep_run_load(&f->run2, FIX "/run_b"), 0);
	assert_int_equal(cmp_build(&f->res, &f->run, &f->run2, NULL, &f->o), 0);
	assert_string_equal(f->res.mode, "runs");
	assert_string_equal(f->res.label_a, "run_a");
	assert_int_equal(f->res.ng, 2);
	assert_false(f->res.tcg);
	assert_string_equal(f->res.accel_a, "kvm");
	/* v8 and the prealloc=0 cells have no partner in A */
	assert_int_equal(f->res.only_a.n, 0);
	assert_int_equal(f->res.only_b.n, 2);
	assert_string_equal(f->res.only_b.v[0], "v4 full_update noise=none prealloc=0");
	assert_int_equal(f->res.excluded_b, 1);
	g = group_b(&f->res, "distro", 2);
	assert_int_equal(g->cb.excluded[CV_FAIL], 1);
	r = row(g, "module.ops_per_sec_per_cpu");
	assert_int_equal(r->b.n, 3);	/* the FAIL cell's 20K is not a sample */
	assert_float_equal(r->change_pct, 0, 1e-9);
	assert_false(r->significant);
	r = row(group_b(&f->res, "distro", 4), "module.ops_per_sec_per_cpu");
	/* by hand: 40 41 42 vs 48 49 50: t = 8 / sqrt(2/3) = 9.798, df = 4 */
	assert_float_equal(r->change_pct, 800.0 / 41, 1e-9);
	assert_float_equal(r->w.t, 8 / sqrt(2.0 / 3), 1e-9);
	assert_float_equal(r->w.df, 4, 1e-9);
	assert_float_equal(r->w.p, 0.0006081849444785625, 1e-10);
	assert_true(r->significant);
	fx_free(f);
}

static char *table_of(const struct cmp_result *res)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	cmp_print(f, res);
	fclose(f);
	return buf;
}

static void test_table(void **state)
{
	struct fx *f = load_kernels("before-000", 0.05);
	char *t = table_of(&f->res);

	(void)state;
	assert_non_null(strstr(t, "(tcg: emulated)"));
	assert_non_null(strstr(t, "[unit]   [%]"));		/* units row */
	assert_non_null(strstr(t, "+50.0%*"));			/* significant, marked */
	assert_non_null(strstr(t, "+0.4% "));			/* not marked */
	assert_null(strstr(t, "+0.4%*"));
	assert_non_null(strstr(t, "too few repeats (n=1)"));
	assert_non_null(strstr(t, "1 PASS (excluded: 1 CRASH)"));
	assert_non_null(strstr(t, "module.ops_per_sec_per_cpu [ops/s]"));
	assert_non_null(strstr(t, "        100000 ±  2%"));
	free(t);
	fx_free(f);
}

static void test_json(void **state)
{
	struct fx *f = load_kernels("before-000", 0.05);
	json_t *j = cmp_to_json(&f->res), *g, *m = NULL, *v;
	size_t i;

	(void)state;
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "mode")), "kernels");
	assert_true(json_is_true(json_object_get(j, "tcg")));
	assert_int_equal(json_array_size(json_object_get(j, "groups")), 3);
	json_array_foreach(json_object_get(j, "groups"), i, g)
		if (!strcmp(json_string_value(json_object_get(g, "kernel_b")), "fixed"))
			m = json_array_get(json_object_get(g, "metrics"), 1);
	assert_non_null(m);
	assert_string_equal(json_string_value(json_object_get(m, "name")),
			    "module.ops_per_sec_per_cpu");
	assert_float_equal(json_real_value(json_object_get(m, "change_pct")), 50, 1e-9);
	v = json_object_get(json_object_get(m, "test"), "welch");
	assert_float_equal(json_real_value(json_object_get(v, "df")), 7.2, 1e-9);
	assert_true(json_is_true(json_object_get(json_object_get(m, "test"), "significant")));
	assert_int_equal(json_array_size(json_object_get(json_object_get(m, "a"), "values")), 5);
	json_decref(j);
	fx_free(f);
}

static int run_cli(const char *const *args)
{
	char *argv[16];
	int argc = 0;

	for (; args[argc]; argc++)
		argv[argc] = (char *)args[argc];
	argv[argc] = NULL;
	return cmd_compare(argc, argv);
}

static void test_cli(void **state)
{
	char tmpl[] = "/tmp/test_compare.XXXXXX", json[256], empty[256];
	json_t *j;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	snprintf(json, sizeof(json), "%s/c.json", tmpl);
	snprintf(empty, sizeof(empty), "%s/empty", tmpl);
	assert_int_equal(mkdir(empty, 0755), 0);
	{
		const char *ok[] = { "compare", FIX "/kernels_run", "--base", "before-000",
				     "--json", json, NULL };
		const char *runs[] = { "compare", FIX "/run_a", FIX "/run_b", "--alpha", "0.01",
				       "--json", json, NULL };
		const char *nodir[] = { "compare", "/nonexistent/run", NULL };
		const char *nocells[] = { "compare", empty, NULL };
		const char *onekernel[] = { "compare", FIX "/run_a", NULL };
		const char *badbase[] = { "compare", FIX "/kernels_run", "--base", "nosuch", NULL };
		const char *baseruns[] = { "compare", FIX "/run_a", FIX "/run_b", "--base", "x", NULL };
		const char *badalpha[] = { "compare", FIX "/run_a", FIX "/run_b", "--alpha", "2", NULL };
		const char *noargs[] = { "compare", NULL };
		const char *three[] = { "compare", "a", "b", "c", NULL };

		assert_int_equal(run_cli(ok), 0);
		j = json_load_file(json, 0, NULL);
		assert_non_null(j);
		assert_string_equal(json_string_value(json_object_get(json_object_get(j, "a"),
								      "label")), "before-000");
		json_decref(j);
		assert_int_equal(run_cli(runs), 0);
		j = json_load_file(json, 0, NULL);
		assert_float_equal(json_real_value(json_object_get(j, "alpha")), 0.01, 1e-12);
		json_decref(j);
		assert_int_equal(run_cli(nodir), 2);
		assert_int_equal(run_cli(nocells), 2);
		assert_int_equal(run_cli(onekernel), 2);
		assert_int_equal(run_cli(badbase), 2);
		assert_int_equal(run_cli(baseruns), 2);
		assert_int_equal(run_cli(badalpha), 2);
		assert_int_equal(run_cli(noargs), 2);
		assert_int_equal(run_cli(three), 2);
	}
	unlink(json);
	rmdir(empty);
	rmdir(tmpl);
}

/*
 * A run with the fault axis, built in a temporary directory from a fixture
 * cell's module.json: none and a delay, two repeats each, the delay halving
 * ops/s. One more directory has no cell.json (its id alone names it).
 */
static void make_fault_run(const char *dir)
{
	static const char *const faults[] = { "none", "delay:__pcpu_freelist_pop:10us" };
	static const char *const slugs[] = { "", "-fdelay___pcpu_freelist_pop_10us" };
	char *mod = load_fixture("compare/kernels_run/v16-full_update-before-000-again-none-r0",
				 "module.json");
	char p[4200], *cj;

	assert_int_equal(mkdir_p(dir), 0);
	for (int f = 0; f < 2; f++)
		for (int r = 0; r < 2; r++) {
			snprintf(p, sizeof(p), "%s/v16-full_update-distro-none-r%d%s", dir, r, slugs[f]);
			assert_int_equal(mkdir_p(p), 0);
			assert_true(asprintf(&cj, "{\"cell\": \"v16-full_update-distro-none-r%d%s\", "
					     "\"vcpus\": 16, \"workload\": \"full_update\", "
					     "\"kernel\": \"distro\", \"noise\": \"none\", "
					     "\"fault\": \"%s\", \"repeat\": %d, \"accel\": \"tcg\", "
					     "\"modparams\": [\"workload=full_update\", \"duration_ms=3000\"%s%s%s], "
					     "\"verdict\": \"PASS\", \"signature\": \"\"}",
					     r, slugs[f], faults[f], r, f ? ", \"fault=" : "",
					     f ? faults[f] : "", f ? "\"" : "") > 0);
			strcat(p, "/cell.json");
			assert_int_equal(write_file_atomic(p, cj, strlen(cj)), 0);
			free(cj);
			snprintf(p, sizeof(p), "%s/v16-full_update-distro-none-r%d%s/module.json", dir, r,
				 slugs[f]);
			assert_int_equal(write_file_atomic(p, mod, strlen(mod)), 0);
		}
	free(mod);
}

static void test_faults(void **state)
{
	char dir[] = "/tmp/ht-cmp-fault-XXXXXX", cmd[128];
	struct rep_run run;
	struct cmp_result res;
	struct cmp_opts o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	make_fault_run(dir);
	assert_int_equal(rep_run_load(&run, dir), 0);
	assert_int_equal(run.n, 4);
	assert_true(run.any_fault);
	/* cells sort by fault after noise, no fault first */
	assert_string_equal(run.cells[0].fault, "none");
	assert_string_equal(run.cells[3].fault, "delay:__pcpu_freelist_pop:10us");
	assert_string_equal(run.cells[3].series, "distro/delay:__pcpu_freelist_pop:10us");
	assert_string_equal(run.cells[0].series, "distro/none");
	assert_int_equal(run.ngroups, 2);
	/* The run against itself: equal faults pair, none with delay never. */
	opts_default(&o);
	assert_int_equal(cmp_build(&res, &run, &run, NULL, &o), 0);
	assert_int_equal(res.ng, 2);
	for (size_t i = 0; i < res.ng; i++) {
		assert_string_equal(res.g[i].fault_a, res.g[i].fault_b);
		/* fault= is the key's fault, not part of params */
		assert_string_equal(res.g[i].params, "");
	}
	cmp_result_free(&res);
	/* --base-fault none: the delay beside none, one group. */
	o.base_fault = "none";
	assert_int_equal(cmp_build(&res, &run, NULL, NULL, &o), 0);
	assert_string_equal(res.mode, "faults");
	assert_int_equal(res.ng, 1);
	assert_string_equal(res.g[0].fault_a, "none");
	assert_string_equal(res.g[0].fault_b, "delay:__pcpu_freelist_pop:10us");
	assert_int_equal(res.g[0].ca.pass, 2);
	assert_int_equal(res.g[0].cb.pass, 2);
	cmp_result_free(&res);
	rep_run_free(&run);
	/* No cell.json: the id names vcpus, kernel, noise, repeat past the -f suffix. */
	snprintf(cmd, sizeof(cmd), "rm -f %s/v16-full_update-distro-none-r1-f*/cell.json", dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(rep_run_load(&run, dir), 0);
	for (size_t i = 0; i < run.n; i++) {
		assert_int_equal(run.cells[i].vcpus, 16);
		assert_string_equal(run.cells[i].kernel, "distro");
		assert_string_equal(run.cells[i].noise, "none");
	}
	rep_run_free(&run);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A run on the coverage kernel: two PASS repeats whose cell.json "coverage" says pct, pct + 1. */
static void make_cov_run(const char *dir, double pct)
{
	char *mod = load_fixture("compare/kernels_run/v16-full_update-before-000-again-none-r0",
				 "module.json");
	char p[4200], *cj;

	for (int r = 0; r < 2; r++) {
		snprintf(p, sizeof(p), "%s/v4-full_update-coverage-none-r%d", dir, r);
		assert_int_equal(mkdir_p(p), 0);
		assert_true(asprintf(&cj, "{\"cell\": \"v4-full_update-coverage-none-r%d\", "
				     "\"vcpus\": 4, \"workload\": \"full_update\", "
				     "\"kernel\": \"coverage\", \"noise\": \"none\", \"repeat\": %d, "
				     "\"accel\": \"tcg\", \"modparams\": [\"workload=full_update\"], "
				     "\"verdict\": \"PASS\", \"signature\": \"\", \"coverage\": "
				     "{\"snapshot\": \"workload\", \"percpu_freelist.lines_pct\": %g, "
				     "\"hashtab.branches_pct\": null}}", r, r, pct + r) > 0);
		strcat(p, "/cell.json");
		assert_int_equal(write_file_atomic(p, cj, strlen(cj)), 0);
		free(cj);
		snprintf(p, sizeof(p), "%s/v4-full_update-coverage-none-r%d/module.json", dir, r);
		assert_int_equal(write_file_atomic(p, mod, strlen(mod)), 0);
	}
	free(mod);
}

/* Coverage percentages are metrics (one per rundir/coverage.h cov_metrics[] entry measured). */
static void test_coverage_metrics(void **state)
{
	char da[] = "/tmp/ht-cmp-cova-XXXXXX", db[] = "/tmp/ht-cmp-covb-XXXXXX";
	struct rep_run a, b;
	struct cmp_result res;
	struct cmp_opts o;
	const struct cmp_row *row = NULL;

	(void)state;
	assert_non_null(mkdtemp(da));
	assert_non_null(mkdtemp(db));
	make_cov_run(da, 50);
	make_cov_run(db, 80);
	assert_int_equal(rep_run_load(&a, da), 0);
	assert_int_equal(rep_run_load(&b, db), 0);
	opts_default(&o);
	assert_int_equal(cmp_build(&res, &a, &b, NULL, &o), 0);
	assert_int_equal(res.ng, 1);
	for (size_t i = 0; i < res.g[0].nrows; i++) {
		const char *n = res.g[0].rows[i].name;

		if (!strcmp(n, "coverage.percpu_freelist.lines_pct"))
			row = &res.g[0].rows[i];
		/* null on both sides: no row */
		assert_string_not_equal(n, "coverage.hashtab.branches_pct");
	}
	assert_non_null(row);
	assert_string_equal(row->unit, "%");
	assert_float_equal(row->a.st.mean, 50.5, 1e-9);
	assert_float_equal(row->b.st.mean, 80.5, 1e-9);
	assert_float_equal(row->ratio, 80.5 / 50.5, 1e-9);
	cmp_result_free(&res);
	rep_run_free(&a);
	rep_run_free(&b);
	assert_int_equal(remove_tree(da), 0);
	assert_int_equal(remove_tree(db), 0);
}

/*
 * The map axes: cells of prealloc 1 (default, no -p) and 0 (-p0), two repeats
 * each, in one run. They sort default first, the report draws a line each,
 * and compare pairs them by their module parameter only with their like.
 */
static void test_map_axes(void **state)
{
	char dir[] = "/tmp/ht-cmp-map-XXXXXX", p[4200], cmd[128], *cj;
	char *mod = load_fixture("compare/kernels_run/v16-full_update-before-000-again-none-r0",
				 "module.json");
	struct rep_run run;
	struct cmp_result res;
	struct cmp_opts o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (int pa = 1; pa >= 0; pa--)
		for (int r = 0; r < 2; r++) {
			snprintf(p, sizeof(p), "%s/v16-full_update-distro-none-r%d%s", dir, r,
				 pa ? "" : "-p0");
			assert_int_equal(mkdir_p(p), 0);
			assert_true(asprintf(&cj, "{\"cell\": \"v16-full_update-distro-none-r%d%s\", "
					     "\"vcpus\": 16, \"workload\": \"full_update\", "
					     "\"kernel\": \"distro\", \"noise\": \"none\", \"fault\": \"none\", "
					     "\"map_type\": \"hash\", \"prealloc\": %d, \"max_entries\": 4096, "
					     "\"repeat\": %d, \"accel\": \"tcg\", \"modparams\": "
					     "[\"workload=full_update\", \"duration_ms=3000\"%s], "
					     "\"verdict\": \"PASS\", \"signature\": \"\"}",
					     r, pa ? "" : "-p0", pa, r, pa ? "" : ", \"prealloc=0\"") > 0);
			strcat(p, "/cell.json");
			assert_int_equal(write_file_atomic(p, cj, strlen(cj)), 0);
			free(cj);
			snprintf(p, sizeof(p), "%s/v16-full_update-distro-none-r%d%s/module.json", dir, r,
				 pa ? "" : "-p0");
			assert_int_equal(write_file_atomic(p, mod, strlen(mod)), 0);
		}
	free(mod);
	assert_int_equal(rep_run_load(&run, dir), 0);
	assert_int_equal(run.n, 4);
	assert_string_equal(run.cells[0].prealloc, "1");
	assert_string_equal(run.cells[3].prealloc, "0");
	assert_string_equal(run.cells[0].series, "distro/prealloc=1");
	assert_string_equal(run.cells[3].series, "distro/prealloc=0");
	assert_string_equal(run.cells[3].max_entries, "4096");
	opts_default(&o);
	assert_int_equal(cmp_build(&res, &run, &run, NULL, &o), 0);
	assert_int_equal(res.ng, 2);
	for (size_t i = 0; i < res.ng; i++) {
		assert_int_equal(res.g[i].ca.pass, 2);
		assert_int_equal(res.g[i].cb.pass, 2);
	}
	/* The default map keys as before the axes (""), prealloc 0 by its parameter. */
	assert_string_equal(res.g[0].params, "");
	assert_string_equal(res.g[1].params, "prealloc=0");
	cmp_result_free(&res);
	rep_run_free(&run);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static const struct cmp_vrow *vrow(const struct cmp_group *g, const char *verdict,
				   const char *sig)
{
	for (size_t i = 0; i < g->nvrows; i++)
		if (!strcmp(g->vrows[i].verdict, verdict) &&
		    (sig ? g->vrows[i].signature && !strcmp(g->vrows[i].signature, sig)
			 : !g->vrows[i].signature))
			return &g->vrows[i];
	fail_msg("no verdict row %s %s", verdict, sig ? sig : "");
	return NULL;
}

/* make_fixtures.py, verdicts_run: p-values by hand from the tables' probabilities. */
static void test_verdicts(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	const struct cmp_group *g;
	const struct cmp_vrow *v;
	char *t;

	(void)state;
	opts_default(&f->o);
	assert_int_equal(rep_run_load(&f->run, FIX "/verdicts_run"), 0);
	assert_int_equal(cmp_build(&f->res, &f->run, NULL, "base", &f->o), 0);
	assert_int_equal(f->res.ng, 3);
	/* v2: 6 TIMEOUT of 8 against none: fixed */
	v = vrow(group_b(&f->res, "patched", 2), "non-PASS", NULL);
	assert_int_equal(v->a.k, 6);
	assert_int_equal(v->a.n, 8);
	assert_int_equal(v->b.k, 0);
	assert_float_equal(v->p, 1.0 / 143, 1e-12);
	assert_true(v->significant);
	assert_string_equal(v->reading, "fixed");
	assert_int_equal(vrow(group_b(&f->res, "patched", 2), "TIMEOUT",
			      "no console output for 60 s")->a.k, 6);
	/* v4: the CRASHes regress, one signature alone does not */
	g = group_b(&f->res, "patched", 4);
	assert_string_equal(vrow(g, "non-PASS", NULL)->reading, "regressed");
	v = vrow(g, "CRASH", NULL);
	assert_int_equal(v->b.k, 5);
	assert_float_equal(v->p, 1.0 / 39, 1e-12);
	assert_string_equal(v->reading, "regressed");
	assert_int_equal(v->n_power, 10);
	v = vrow(g, "CRASH", "WARNING in __pcpu_freelist_pop");
	assert_int_equal(v->b.k, 3);
	assert_float_equal(v->p, 0.2, 1e-12);
	assert_string_equal(v->reading, "no evidence");
	assert_int_equal(vrow(g, "FAIL", "elements lost: 3")->b.k, 1);
	v = vrow(g, "TIMEOUT", NULL);
	assert_int_equal(v->a.k + v->b.k, 0);
	assert_float_equal(v->p, 1, 1e-12);
	assert_int_equal(v->n_power, 0);	/* equal rates */
	/* v8: 2 of 10 against 0 of 10 is no evidence; what 0 of 10 bounds */
	g = group_b(&f->res, "patched", 8);
	v = vrow(g, "CRASH", NULL);
	assert_float_equal(v->p, 9.0 / 19, 1e-12);
	assert_string_equal(v->reading, "no evidence");
	assert_float_equal(v->a.lo, 0.02521073, 1e-7);
	assert_float_equal(v->a.hi, 0.55609546, 1e-7);
	assert_float_equal(v->b.hi, 1 - pow(0.025, 0.1), 1e-12);
	assert_float_equal(g->zero_hi_b, 1 - pow(0.025, 0.1), 1e-12);
	assert_int_equal(v->n_power, 39);
	t = table_of(&f->res);
	assert_non_null(strstr(t, "     2/10  [0.0252, 0.556]       0/10  [0, 0.308]           0.474  "
			       "no evidence          39  CRASH: WARNING in __pcpu_freelist_pop"));
	assert_non_null(strstr(t, "0.007* fixed"));
	assert_non_null(strstr(t, "B 0 of 10 -> 0.308"));
	assert_non_null(strstr(t, "verdict rows (Fisher's exact p < 0.05): 2 regressed, 3 fixed"));
	free(t);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_map_axes),
		cmocka_unit_test(test_clear_change),
		cmocka_unit_test(test_no_change),
		cmocka_unit_test(test_too_few_repeats),
		cmocka_unit_test(test_alpha),
		cmocka_unit_test(test_default_base),
		cmocka_unit_test(test_two_runs),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_coverage_metrics),
		cmocka_unit_test(test_verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
