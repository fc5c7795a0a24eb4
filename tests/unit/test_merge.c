/*
 * `htab-torture merge` (merge.c) on shard directories built here: the
 * manifests of shards 1/2 and 2/2 of a real plan (plan_build,
 * manifest_build), each holding the cell.json of its cells, taken from the
 * report fixture ab_run (the same 8 cell ids). Merged: every cell once, one
 * manifest without a shard, a summary in plan order. Refused, exit 2 with the
 * reason and no OUT written: different parameters, a different plan, a cell
 * finished in both shards, a non-empty OUT.
 */
#include <fcntl.h>
#include <ftw.h>
#include "testlib.h"

#include "run/plan/cli.h"
#include "run/plan/matrix.h"
#include "run/merge.h"

static char tmp[] = "/tmp/test_merge.XXXXXX";

/*
 * The plan of ab_run: 2 and 4 vCPUs x full_update x distro, revert x none x
 * 2 repeats. The plan points into o: free o after the plan.
 */
struct ab {
	struct run_opts o;
	struct plan p;
};

static void ab_plan(struct ab *ab, const char *kernels, const char *cpus)
{
	char err[128];

	run_opts_init(&ab->o);
	assert_int_equal(parse_cpu_list(cpus, ab->o.cpus, &ab->o.ncpus, 64, err, sizeof(err)), 0);
	assert_int_equal(strv_split(&ab->o.workloads, "full_update", ','), 0);
	assert_int_equal(strv_split(&ab->o.kernels, kernels, ','), 0);
	assert_int_equal(strv_split(&ab->o.noises, "none", ','), 0);
	ab->o.repeat = 2;
	assert_int_equal(plan_build(&ab->o, &ab->p), 0);
}

static void ab_free(struct ab *ab)
{
	plan_free(&ab->p);
	run_opts_free(&ab->o);
}

static void path_of(char *out, size_t n, const char *dir, const char *id, const char *file)
{
	if (id)
		snprintf(out, n, "%s/%s/%s/%s", tmp, dir, id, file);
	else
		snprintf(out, n, "%s/%s/%s", tmp, dir, file);
}

/* Cell id's cell.json from ab_run into tmp/dir/id/. */
static void put_cell(const char *dir, const char *id)
{
	char src[1024], dst[1024], *text;
	size_t len;

	snprintf(src, sizeof(src), "%s/report/ab_run/%s/cell.json", FIXTURES, id);
	text = read_file(src, &len);
	assert_non_null(text);
	snprintf(dst, sizeof(dst), "%s/%s/%s", tmp, dir, id);
	assert_int_equal(mkdir_p(dst), 0);
	path_of(dst, sizeof(dst), dir, id, "cell.json");
	assert_int_equal(write_file_atomic(dst, text, len), 0);
	free(text);
}

/* Shard shard_i of 2 of the plan in tmp/dir: its manifest and its cells' cell.json. */
static void make_shard(const char *dir, const struct plan *p, int shard_i, int duration_s)
{
	json_t *params = json_pack("{s:i, s:s}", "duration_s", duration_s, "accel", "tcg");
	json_t *m = manifest_build(p, params, shard_i, 2);
	char d[1024];

	snprintf(d, sizeof(d), "%s/%s", tmp, dir);
	assert_int_equal(mkdir_p(d), 0);
	assert_int_equal(manifest_write(d, m), 0);
	for (size_t i = 0; i < p->n; i++)
		if (shard_selects(p->cells[i].index, shard_i, 2))
			put_cell(dir, p->cells[i].id);
	json_decref(params);
	json_decref(m);
}

/* The plan of ab_run in ab, its shards 1/2 and 2/2 in tmp/NAME1 and tmp/NAME2. */
static struct plan *two_shards(struct ab *ab, const char *name)
{
	char d[64];

	ab_plan(ab, "distro,revert", "2,4");
	for (int i = 1; i <= 2; i++) {
		snprintf(d, sizeof(d), "%s%d", name, i);
		make_shard(d, &ab->p, i, 3);
	}
	return &ab->p;
}

static void redirect(const char *path, int to)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	dup2(fd, to);
	close(fd);
}

/* merge OUT DIR...; its stdout and stderr into out and err (malloc'd). */
static int merge(char **out, char **err, const char *outdir, const char *d1, const char *d2)
{
	char o[1024], a[1024], b[1024], so[1024], se[1024];
	char *argv[] = { "merge", o, a, b, NULL };
	int fo = dup(1), fe = dup(2), rc;

	snprintf(o, sizeof(o), "%s/%s", tmp, outdir);
	snprintf(a, sizeof(a), "%s/%s", tmp, d1);
	snprintf(b, sizeof(b), "%s/%s", tmp, d2);
	snprintf(so, sizeof(so), "%s/merge.stdout", tmp);
	snprintf(se, sizeof(se), "%s/merge.stderr", tmp);
	fflush(stdout);
	fflush(stderr);
	redirect(so, 1);
	redirect(se, 2);
	rc = cmd_merge(4, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(fo, 1);
	dup2(fe, 2);
	close(fo);
	close(fe);
	*out = read_file(so, NULL);
	*err = read_file(se, NULL);
	assert_non_null(*out);
	assert_non_null(*err);
	return rc;
}

static bool exists(const char *dir)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/%s", tmp, dir);
	return file_exists(p);
}

/* Refused with exit 2, a one-line error holding want, and no OUT. */
static void expect_refused(const char *outdir, const char *d1, const char *d2, const char *want)
{
	char *out, *err;

	assert_int_equal(merge(&out, &err, outdir, d1, d2), 2);
	if (!strstr(err, want))
		fail_msg("merge %s %s: error '%s' lacks '%s'", d1, d2, err, want);
	assert_int_equal(strchr(err, '\n') - err + 1, (long)strlen(err));
	assert_false(exists(outdir));
	free(out);
	free(err);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

static int setup(void **s)
{
	(void)s;
	return mkdtemp(tmp) ? 0 : -1;
}

/* HT_TEST_KEEP=1 leaves the directories for a look. */
static int teardown(void **s)
{
	(void)s;
	return getenv("HT_TEST_KEEP") ? 0 : nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Two shards of one plan: every cell once, the manifest of the whole plan, the summary in plan order. */
static void test_merge_two_shards(void **s)
{
	struct ab ab;
	struct plan *p;
	char *out, *err, path[1024];
	json_t *m, *sum;

	(void)s;
	p = two_shards(&ab, "s");
	assert_int_equal(p->n, 8);
	assert_int_equal(merge(&out, &err, "merged", "s1", "s2"), 0);
	assert_string_equal(err, "");
	assert_non_null(strstr(out, "merged 8 cells from 2 directories into "));
	path_of(path, sizeof(path), "merged", NULL, "manifest.json");
	m = json_load_file(path, 0, NULL);
	assert_non_null(m);
	assert_true(json_is_null(json_object_get(m, "shard")));
	assert_int_equal(json_array_size(json_object_get(m, "cells")), 8);
	assert_int_equal(json_array_size(json_object_get(m, "missing_cells")), 0);
	assert_int_equal(json_array_size(json_object_get(m, "merged_from")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		json_array_get(json_object_get(m, "merged_from"), 1), "shard"), "index")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(m, "params"),
							    "duration_s")), 3);
	path_of(path, sizeof(path), "merged", NULL, "summary.json");
	sum = json_load_file(path, 0, NULL);
	assert_non_null(sum);
	assert_int_equal(json_array_size(json_object_get(sum, "cells")), 8);
	for (size_t i = 0; i < p->n; i++) {
		char src[1024];
		json_t *want;

		snprintf(src, sizeof(src), "%s/report/ab_run/%s/cell.json", FIXTURES, p->cells[i].id);
		want = json_load_file(src, 0, NULL);
		assert_non_null(want);
		assert_true(json_equal(json_array_get(json_object_get(sum, "cells"), i), want));
		json_decref(want);
		path_of(path, sizeof(path), "merged", p->cells[i].id, "cell.json");
		assert_true(file_exists(path));
	}
	json_decref(sum);
	json_decref(m);
	free(out);
	free(err);
	/* the same again into the non-empty OUT: refused, OUT left as it was */
	assert_int_equal(merge(&out, &err, "merged", "s1", "s2"), 2);
	assert_non_null(strstr(err, "exists and is not empty"));
	free(out);
	free(err);
	ab_free(&ab);
}

/* A cell no shard finished is merged as missing, named in the manifest. */
static void test_merge_missing_cell(void **s)
{
	struct ab ab;
	struct plan *p;
	char *out, *err, path[1024];
	json_t *m;

	(void)s;
	p = two_shards(&ab, "m");
	path_of(path, sizeof(path), "m2", p->cells[1].id, "cell.json");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(merge(&out, &err, "mmerged", "m1", "m2"), 0);
	assert_non_null(strstr(out, "merged 7 cells from 2 directories"));
	assert_non_null(strstr(out, "1 cells of the plan never finished"));
	path_of(path, sizeof(path), "mmerged", NULL, "manifest.json");
	m = json_load_file(path, 0, NULL);
	assert_int_equal(json_array_size(json_object_get(m, "missing_cells")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(m, "missing_cells"), 0)),
			    p->cells[1].id);
	json_decref(m);
	free(out);
	free(err);
	ab_free(&ab);
}

/* A cell finished in both shards: which one counts is not merge's to guess. */
static void test_refuse_cell_finished_twice(void **s)
{
	struct ab ab;
	struct plan *p;

	(void)s;
	p = two_shards(&ab, "d");
	put_cell("d2", p->cells[0].id);	/* shard 1's cell, finished again in shard 2 */
	expect_refused("dmerged", "d1", "d2", "finished in both");
	ab_free(&ab);
}

/* Different parameters, a plan of another size, other cells: not one plan. */
static void test_refuse_different_plans(void **s)
{
	struct ab ab, smaller, other;
	struct plan *p = &ab.p;

	(void)s;
	ab_plan(&ab, "distro,revert", "2,4");
	ab_plan(&smaller, "distro,revert", "2");
	ab_plan(&other, "revert,distro", "2,4");	/* the same cells, in another order */
	make_shard("p1", p, 1, 3);
	make_shard("p2_duration", p, 2, 9);
	make_shard("p2_smaller", &smaller.p, 2, 3);
	make_shard("p2_other", &other.p, 2, 3);
	expect_refused("pmerged", "p1", "p2_duration", "different parameters");
	expect_refused("pmerged", "p1", "p2_smaller", "plans 8 cells");
	expect_refused("pmerged", "p1", "p2_other", "v2-full_update-revert-none-r0");
	/* and what is no run directory at all */
	expect_refused("pmerged", "p1", "nosuch", "no manifest.json");
	ab_free(&ab);
	ab_free(&smaller);
	ab_free(&other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_two_shards),
		cmocka_unit_test(test_merge_missing_cell),
		cmocka_unit_test(test_refuse_cell_finished_twice),
		cmocka_unit_test(test_refuse_different_plans),
	};

	return cmocka_run_group_tests_name("merge", tests, setup, teardown);
}
