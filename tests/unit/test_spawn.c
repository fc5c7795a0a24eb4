/* The one child-process helper (lib/spawn.c) and the shell-free file helpers of lib/util.c. */
#include "testlib.h"

#include <sys/stat.h>
#include <unistd.h>

#include "lib/spawn.h"

static void test_spawn(void **s)
{
	char dir[] = "/tmp/ht-spawn-XXXXXX", log[128], *out = NULL, *text;
	struct spawn_opts o = { 0 };

	(void)s;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(spawn_run((char *[]){ "echo", "one two", NULL }, NULL, &out), 0);
	assert_string_equal(out, "one two\n");
	free(out);
	assert_int_equal(spawn_run((char *[]){ "false", NULL }, NULL, NULL), 1);
	assert_int_equal(spawn_run((char *[]){ "/bin/sh", "-c", "kill -9 $$", NULL }, NULL, NULL),
			 128 + 9);
	assert_int_equal(spawn_run((char *[]){ "/nonexistent/prog", NULL }, NULL, NULL), 127);
	/* In dir, stdout and stderr into the log, stdin empty. */
	snprintf(log, sizeof(log), "%s/log", dir);
	o.dir = dir;
	o.log = log;
	o.null_stdin = true;
	assert_int_equal(spawn_run((char *[]){ "/bin/sh", "-c", "pwd; cat; echo err >&2", NULL },
				   &o, NULL), 0);
	text = read_file(log, NULL);
	assert_non_null(text);
	assert_non_null(strstr(text, dir));
	assert_non_null(strstr(text, "err\n"));
	free(text);
	assert_int_equal(remove_tree(dir), 0);
}

static void test_remove_tree(void **s)
{
	char dir[] = "/tmp/ht-rmtree-XXXXXX", p[256];

	(void)s;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(dir_is_empty(dir), 1);
	snprintf(p, sizeof(p), "%s/a/b", dir);
	assert_int_equal(mkdir_p(p), 0);
	assert_int_equal(dir_is_empty(dir), 0);
	snprintf(p, sizeof(p), "%s/a/b/f", dir);
	assert_int_equal(write_file_atomic(p, "x", 1), 0);
	/* A symlink out of the tree is removed, not followed. */
	snprintf(p, sizeof(p), "%s/a/link", dir);
	assert_int_equal(symlink("/etc", p), 0);
	snprintf(p, sizeof(p), "%s/a", dir);
	assert_int_equal(remove_tree(p), 0);
	assert_false(file_exists(p));
	assert_true(file_exists("/etc/passwd"));
	assert_int_equal(dir_is_empty(dir), 1);
	assert_int_equal(remove_tree(p), 0);	/* already gone */
	assert_int_equal(dir_is_empty("/nonexistent/dir"), -1);
	assert_int_equal(remove_tree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spawn),
		cmocka_unit_test(test_remove_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
