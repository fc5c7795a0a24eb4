/*
 * The gcda → table step (rundir/coverage.h) on a real gcov run: the fixture
 * tests/fixtures/coverage/fx.c is built with gcc --coverage in a scratch
 * "tree", run with known arguments, and its .gcda laid out like a cell's
 * (gcov/<snapshot>/<absolute path of the tree>/sub/fx.gcda). The figures
 * are gcc 12's (Debian 12, the kernel's compiler).
 */
#include "testlib.h"

#include <limits.h>
#include <sys/stat.h>

#include "lib/spawn.h"
#include "rundir/coverage.h"

struct scratch {
	char root[64], tree[PATH_MAX], cell[PATH_MAX];
};

static void run_in(const char *dir, char *const argv[])
{
	struct spawn_opts o = { .dir = dir, .null_stdin = true };

	assert_int_equal(spawn_run(argv, &o, NULL), 0);
}

/* tree/sub/fx.c built with coverage: tree/sub/fx.gcno, tree/fx. */
static void build(struct scratch *x, const char *cflag)
{
	char src[PATH_MAX], dst[PATH_MAX], *text;

	strcpy(x->root, "/tmp/ht-cov-XXXXXX");
	assert_non_null(mkdtemp(x->root));
	snprintf(x->tree, sizeof(x->tree), "%s/tree", x->root);
	snprintf(x->cell, sizeof(x->cell), "%s/cell", x->root);
	assert_int_equal(pathf(dst, sizeof(dst), "%s/sub", x->tree), 0);
	assert_int_equal(mkdir_p(dst), 0);
	fixture_path(src, sizeof(src), "coverage", "fx.c");
	text = read_file(src, NULL);
	assert_non_null(text);
	assert_int_equal(pathf(dst, sizeof(dst), "%s/sub/fx.c", x->tree), 0);
	assert_int_equal(write_file_atomic(dst, text, strlen(text)), 0);
	free(text);
	run_in(x->tree, (char *[]){ "gcc", "--coverage", (char *)cflag, "-c", "-o", "sub/fx.o",
				    "sub/fx.c", NULL });
	run_in(x->tree, (char *[]){ "gcc", "--coverage", "-o", "fx", "sub/fx.o", NULL });
}

/* Runs `fx arg` and moves its .gcda to CELL/gcov/<snap>/<prefix>/sub/fx.gcda. */
static void run_fx(struct scratch *x, const char *arg, const char *snap, const char *prefix)
{
	char from[PATH_MAX], to[PATH_MAX];

	assert_int_equal(pathf(from, sizeof(from), "%s/sub/fx.gcda", x->tree), 0);
	unlink(from);
	run_in(x->tree, (char *[]){ "./fx", (char *)arg, NULL });
	assert_int_equal(pathf(to, sizeof(to), "%s/gcov/%s/%s/sub", x->cell, snap, prefix), 0);
	assert_int_equal(mkdir_p(to), 0);
	strcat(to, "/fx.gcda");
	assert_int_equal(rename(from, to), 0);
}

static const struct cov_func *func(const struct cov_file *f, const char *name)
{
	for (size_t i = 0; i < f->nfuncs; i++)
		if (!strcmp(f->funcs[i].name, name))
			return &f->funcs[i];
	fail_msg("no function %s", name);
	return NULL;
}

#define assert_count(c, h, t) do { \
	assert_int_equal((c).hit, (h)); \
	assert_int_equal((c).total, (t)); \
} while (0)

static void test_map_to_tree(void **s)
{
	struct scratch x;
	char *m;

	(void)s;
	build(&x, "-O2");
	/* The build-time path of another checkout: only the tree's suffix matches. */
	m = cov_map_to_tree("/old/checkout/sub/fx.gcda", x.tree);
	assert_non_null(m);
	assert_string_equal(m, "sub/fx");
	free(m);
	m = cov_map_to_tree(x.tree + 1, x.tree);	/* not a .gcda */
	assert_null(m);
	m = cov_map_to_tree("old/other/fy.gcda", x.tree);
	assert_null(m);
	assert_int_equal(remove_tree(x.root), 0);
}

/* Kernel-style definitions, and what only looks like one. */
static void test_func_ranges(void **s)
{
	static const char src[] =
		"static int proto(int a);\n"			/* 1 */
		"static const struct ops o = {\n"		/* 2 */
		"\t.f = proto,\n"
		"};\n"
		"static unsigned int shrink(int a,\n"		/* 5 */
		"\t\t\t   int b)\n"
		"\n"
		"{\n"
		"\treturn a;\n"
		"}\n"						/* 10 */
		"__attribute__((noinline)) static struct x *\n"
		"pop_nmi(struct s *s)\n"			/* 12 */
		"{\n"
		"\tif (s)\n"
		"\t\treturn 0;\n"
		"}\n"						/* 16 */
		"EXPORT_SYMBOL(pop_nmi);\n";
	char path[] = "/tmp/ht-covfn-XXXXXX", err[256];
	struct cov_file f = { 0 };
	int fd = mkstemp(path);

	(void)s;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, src, sizeof(src) - 1), (ssize_t)sizeof(src) - 1);
	close(fd);
	assert_int_equal(cov_func_ranges(path, &f, err, sizeof(err)), 0);
	unlink(path);
	assert_int_equal(f.nfuncs, 2);
	assert_string_equal(f.funcs[0].name, "shrink");
	assert_int_equal(f.funcs[0].start, 5);
	assert_int_equal(f.funcs[0].end, 10);
	assert_string_equal(f.funcs[1].name, "pop_nmi");
	assert_int_equal(f.funcs[1].start, 12);
	assert_int_equal(f.funcs[1].end, 16);
	for (size_t i = 0; i < f.nfuncs; i++)
		free(f.funcs[i].name);
	free(f.funcs);
}

/* `fx 12` runs sum_to() and the inlined clamp(); `fx 2` neither. */
static void test_cell_figures(void **s)
{
	struct scratch x;
	struct cov_set w = { 0 }, v = { 0 };
	const struct cov_file *f, *g;
	char err[512], info[PATH_MAX + 32], *text;
	json_t *fig = NULL;

	(void)s;
	build(&x, "-O2");
	run_fx(&x, "12", COV_MAIN_SNAPSHOT, x.tree);
	run_fx(&x, "2", "verdict", "old/checkout");
	if (cov_cell_write(x.cell, x.tree, "fixture", &fig, err, sizeof(err)))
		fail_msg("%s", err);
	assert_non_null(fig);
	assert_string_equal(json_string_value(json_object_get(fig, "snapshot")), "workload");
	assert_true(json_is_null(json_object_get(fig, "hashtab.lines_pct")));
	json_decref(fig);

	assert_int_equal(cov_cell_load(x.cell, COV_MAIN_SNAPSHOT, &w), 0);
	f = cov_set_find(&w, "fx.c");
	assert_non_null(f);
	assert_string_equal(f->path, "sub/fx.c");
	assert_int_equal(f->nfuncs, 3);
	/* Inlined: no function in gcov's output, still its own row from the source. */
	assert_int_equal(func(f, "clamp")->start, 10);
	assert_int_equal(func(f, "clamp")->end, 15);
	assert_int_equal(func(f, "clamp")->calls, -1);
	assert_count(func(f, "clamp")->lines, 1, 1);
	assert_count(func(f, "sum_to")->lines, 4, 4);
	assert_count(func(f, "sum_to")->branches, 2, 2);
	assert_int_equal(func(f, "sum_to")->calls, 1);
	assert_count(func(f, "main")->lines, 4, 4);
	assert_count(func(f, "main")->branches, 2, 4);
	assert_count(f->lines_c, 9, 9);
	assert_count(f->branches_c, 4, 6);

	assert_int_equal(cov_cell_load(x.cell, "verdict", &v), 0);
	g = cov_set_find(&v, "fx.c");
	assert_non_null(g);
	assert_count(func(g, "clamp")->lines, 0, 1);
	assert_count(func(g, "sum_to")->lines, 0, 4);
	assert_int_equal(func(g, "sum_to")->calls, 0);
	assert_count(func(g, "main")->branches, 2, 4);
	assert_count(g->lines_c, 3, 9);
	assert_count(g->branches_c, 2, 6);

	/* Union: main's n > 10 went both ways over the two runs. */
	assert_int_equal(cov_set_merge(&v, &w), 0);
	g = cov_set_find(&v, "fx.c");
	assert_count(func(g, "main")->branches, 3, 4);
	assert_count(g->lines_c, 9, 9);
	assert_count(g->branches_c, 5, 6);
	assert_int_equal(func(g, "sum_to")->calls, 1);

	snprintf(info, sizeof(info), "%s/coverage-workload.info", x.cell);
	text = read_file(info, NULL);
	assert_non_null(text);
	assert_non_null(strstr(text, "SF:"));
	assert_non_null(strstr(text, "sub/fx.c\n"));
	assert_non_null(strstr(text, "BRDA:"));
	assert_null(strstr(text, "stdlib.h"));	/* only the covered source, not headers */
	free(text);
	cov_set_free(&w);
	cov_set_free(&v);
	assert_int_equal(remove_tree(x.root), 0);
}

/* Errors name the file and say why; nothing is written. */
static void test_errors(void **s)
{
	struct scratch x;
	char err[512], p[PATH_MAX + 32];

	(void)s;
	build(&x, "-O2");
	run_fx(&x, "12", COV_MAIN_SNAPSHOT, x.tree);
	/* A .gcda whose .gcno the tree does not have. */
	snprintf(p, sizeof(p), "%s/gcov/workload/elsewhere", x.cell);
	assert_int_equal(mkdir_p(p), 0);
	strcat(p, "/fy.gcda");
	assert_int_equal(write_file_atomic(p, "x", 1), 0);
	assert_int_equal(cov_cell_write(x.cell, x.tree, "fixture", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "fy.gcda"));
	assert_non_null(strstr(err, "no .gcno"));
	unlink(p);
	/* The tree rebuilt another way: gcov's stamp mismatch is an error, with its words. */
	run_in(x.tree, (char *[]){ "gcc", "--coverage", "-O0", "-c", "-o", "sub/fx.o",
				   "sub/fx.c", NULL });
	assert_int_equal(cov_cell_write(x.cell, x.tree, "fixture", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "gcov failed on"));
	assert_non_null(strstr(err, "fx.gcda"));
	snprintf(p, sizeof(p), "%s/coverage.json", x.cell);
	assert_false(file_exists(p));
	assert_int_equal(remove_tree(x.root), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_to_tree),
		cmocka_unit_test(test_func_ranges),
		cmocka_unit_test(test_cell_figures),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
