/*
 * A shared boot's protocol without a VM (run/guest/boot.h): what the guest says
 * on the port per cell, where the shared console is cut into each cell's
 * part, the cut copied once and only once, the QEMU command line of a
 * shared boot, and the ETA that pays a boot once per group.
 */
#include <math.h>
#include <sys/stat.h>
#include "testlib.h"

#include "run/guest/boot.h"
#include "run/progress.h"
#include "run/plan/qemu_argv.h"

static void put(const char *dir, const char *name, const char *text)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	assert_int_equal(write_file_atomic(p, text, strlen(text)), 0);
}

static struct boot fake_boot(char *tmpl)
{
	struct boot b = { 0 };

	assert_non_null(mkdtemp(tmpl));
	snprintf(b.dir, sizeof(b.dir), "%s", tmpl);
	snprintf(b.name, sizeof(b.name), "v2-w-k-none-r0.1");
	return b;
}

static void test_cell_status(void **s)
{
	char tmpl[] = "/tmp/htab-boot-XXXXXX", state[32];
	struct boot b = fake_boot(tmpl);
	int st = -1;

	(void)s;
	assert_int_equal(boot_cell_status(&b, 1, &st, state, sizeof(state)), 0);	/* no port file yet */
	put(b.dir, "exit_status", "cell 1 0 ok\ncell 2 1 exit-1\n");
	assert_int_equal(boot_cell_status(&b, 1, &st, state, sizeof(state)), 1);
	assert_int_equal(st, 0);
	assert_string_equal(state, "ok");
	assert_int_equal(boot_cell_status(&b, 2, &st, state, sizeof(state)), 1);
	assert_int_equal(st, 1);
	assert_string_equal(state, "exit-1");
	assert_int_equal(boot_cell_status(&b, 3, &st, state, sizeof(state)), 0);
	put(b.dir, "exit_status", "cell 1 0 taint-512\nend 0\n");
	assert_int_equal(boot_cell_status(&b, 1, &st, state, sizeof(state)), 1);
	assert_string_equal(state, "taint-512");
	assert_int_equal(boot_cell_status(&b, 2, &st, state, sizeof(state)), 0);	/* "end" is no cell */
	/* init's own status (its mounts failed) before any cell: cell 1's. */
	put(b.dir, "exit_status", "2\n");
	assert_int_equal(boot_cell_status(&b, 1, &st, state, sizeof(state)), 1);
	assert_int_equal(st, 2);
	assert_string_equal(state, "init");
	assert_int_equal(boot_cell_status(&b, 2, &st, state, sizeof(state)), 0);
	assert_int_equal(remove_tree(tmpl), 0);
}

static void test_console_cut(void **s)
{
	static const char con[] =
		"[    0.1] boot\r\n[9.0] runner: job /run/cell/a\r\n"
		"htab-group: cell 1 done: a exit 0, ok\r\n"
		"[12.0] runner: job /run/cell/b\r\n"
		"htab-group: cell 2 done: b exit 0, ok";	/* no newline yet */
	char tmpl[] = "/tmp/htab-boot-XXXXXX", out[PATH_MAX + 16], *text;
	struct boot b = fake_boot(tmpl);
	long long cut;

	(void)s;
	assert_int_equal(boot_cell_cut(&b, 1), -1);	/* no console yet */
	put(b.dir, "console.log", con);
	cut = boot_cell_cut(&b, 1);
	assert_int_equal(cut, strstr(con, "[12.0]") - con);
	assert_int_equal(boot_cell_cut(&b, 2), -1);	/* its line is not complete */
	assert_int_equal(boot_cell_cut(&b, 3), -1);
	snprintf(out, sizeof(out), "%s/a.log", tmpl);
	assert_int_equal(boot_split_console(&b, cut, out), 0);
	text = read_file(out, NULL);
	assert_non_null(text);
	assert_int_equal(strlen(text), cut);
	assert_int_equal(strncmp(text, con, cut), 0);
	free(text);
	assert_int_equal(b.con_off, cut);
	/* Cell 1's line lies before con_off now: only cell 2's part is searched. */
	assert_int_equal(boot_cell_cut(&b, 1), -1);
	{
		FILE *f;
		char p[PATH_MAX + 16];

		snprintf(p, sizeof(p), "%s/console.log", b.dir);
		f = fopen(p, "w");
		assert_non_null(f);
		fputs(con, f);
		fputs("\r\n[13.0] reboot: Power down\r\n", f);
		fclose(f);
	}
	cut = boot_cell_cut(&b, 2);
	assert_int_equal(cut, strlen(con) + 2);
	/* A boot that ended with its cell: the part is everything left. */
	snprintf(out, sizeof(out), "%s/b.log", tmpl);
	assert_int_equal(boot_split_console(&b, boot_console_size(&b), out), 0);
	text = read_file(out, NULL);
	assert_non_null(strstr(text, "runner: job /run/cell/b"));
	assert_non_null(strstr(text, "Power down"));
	assert_null(strstr(text, "job /run/cell/a"));
	free(text);
	assert_int_equal(b.con_off, boot_console_size(&b));
	assert_int_equal(remove_tree(tmpl), 0);
}

static const char *after(const struct strv *a, const char *opt, int nth)
{
	for (size_t i = 0; i + 1 < a->n; i++)
		if (!strcmp(a->v[i], opt) && nth-- == 0)
			return a->v[i + 1];
	return NULL;
}

/* A shared boot shares the run directory; its console and port live in the boot's own. */
static void test_shared_argv(void **s)
{
	struct qemu_cfg c = {
		.accel = ACCEL_TCG, .vcpus = 2, .kernel_image = "/k", .initrd = "/i",
		.runner = "/r/vm-images/guest/run-job.sh", .cell_dir = "/out",
		.log_dir = "/out/boots/v2-w-k-none-r0.1", .group = "v2-w-k-none-r0.1",
	};
	struct strv a = { 0 };

	(void)s;
	assert_int_equal(qemu_argv_build(&c, &a), 0);
	assert_non_null(strstr(after(&a, "-append", 0),
			       "htab.runner=/r/vm-images/guest/run-job.sh htab.group=v2-w-k-none-r0.1"));
	assert_string_equal(after(&a, "-fsdev", 1), "local,id=cell,path=/out,security_model=none");
	assert_string_equal(after(&a, "-chardev", 0),
			    "file,id=con,path=/out/boots/v2-w-k-none-r0.1/console.log");
	assert_string_equal(after(&a, "-chardev", 1),
			    "file,id=ret,path=/out/boots/v2-w-k-none-r0.1/exit_status");
	strv_free(&a);
	/* Its own boot: no htab.group=, everything in the cell's directory. */
	c.log_dir = NULL;
	c.group = NULL;
	c.cell_dir = "/out/c";
	assert_int_equal(qemu_argv_build(&c, &a), 0);
	assert_null(strstr(after(&a, "-append", 0), "htab.group="));
	assert_string_equal(after(&a, "-chardev", 0), "file,id=con,path=/out/c/console.log");
	strv_free(&a);
}

/*
 * One slot: a boot of 10 s and cells of 4 s. After the first cell (14 s,
 * 10 of it boot) and a second in the same boot (4 s), 7 cells in 2 boots
 * are left: 7 x 4 + 2 x 10 = 48 s. Per-cell thinking would say 7 x 9.
 */
static void test_eta_boots(void **s)
{
	struct progress p;

	(void)s;
	progress_init(&p, 9, false);
	assert_true(progress_eta_boots(0, &p, 9, 3) < 0);
	progress_cell_cost(&p, 14, 10);
	progress_cell_cost(&p, 4, NAN);
	p.done_here = 2;
	assert_true(fabs(progress_eta_boots(18, &p, 7, 2) - 48) < 1e-9);
	/* Two slots in parallel: the elapsed is half the cells' sum, so is the ETA. */
	assert_true(fabs(progress_eta_boots(9, &p, 7, 2) - 24) < 1e-9);
	/* A boot that never reached its runner: all of its wall time is boot. */
	progress_init(&p, 2, false);
	progress_cell_cost(&p, 30, 45);
	p.done_here = 1;
	assert_true(fabs(progress_eta_boots(30, &p, 1, 1) - 30) < 1e-9);
}

/* The monitor's FIFOs: made afresh (over a stale file), gone after the boot. */
static void test_monitor_fifos(void **s)
{
	char tmpl[] = "/tmp/htab-boot-XXXXXX", p[PATH_MAX + 16];
	struct boot b = fake_boot(tmpl);
	struct stat st;

	(void)s;
	put(b.dir, "qmp.in", "stale");
	assert_int_equal(boot_monitor_make(b.dir), 0);
	for (const char *const *f = (const char *const[]){ "qmp.in", "qmp.out", NULL }; *f; f++) {
		snprintf(p, sizeof(p), "%s/%s", b.dir, *f);
		assert_int_equal(stat(p, &st), 0);
		assert_true(S_ISFIFO(st.st_mode));
	}
	boot_monitor_remove(b.dir);
	assert_int_equal(dir_is_empty(b.dir), 1);
	assert_int_equal(remove_tree(b.dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cell_status),
		cmocka_unit_test(test_console_cut),
		cmocka_unit_test(test_shared_argv),
		cmocka_unit_test(test_eta_boots),
		cmocka_unit_test(test_monitor_fifos),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
