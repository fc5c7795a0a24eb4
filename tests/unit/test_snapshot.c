/*
 * --restore (issue 15, item 3): the snapshot key is the guest, not the boot
 * (a cell's directory, its console, its group leave it unchanged; vCPUs,
 * RAM, lpj=, a --boot-opt word and the files change it), the cache's
 * validity check, and the command lines of a save and a restore.
 */
#include <sys/stat.h>
#include <unistd.h>
#include "testlib.h"

#include "run/guest/boot_marks.h"
#include "run/plan/qemu_argv.h"
#include "lib/util.h"
#include "run/guest/boot.h"
#include "run/guest/snapshot.h"

static struct qemu_cfg base(void)
{
	return (struct qemu_cfg){
		.accel = ACCEL_TCG, .vcpus = 4, .kernel_image = "/k/vmlinuz", .initrd = "/k/initrd",
		.runner = "/repo/vm-images/guest/run-job.sh", .cell_dir = "/out/v4-a", .host_cpus = 2,
		.lpj = 8000000, .restore = QR_RESTORE,
	};
}

static bool has(const struct strv *a, const char *w)
{
	for (size_t i = 0; i < a->n; i++)
		if (strstr(a->v[i], w))
			return true;
	return false;
}

static void test_key_is_the_guest(void **state)
{
	struct qemu_cfg a = base(), b = base();
	struct strv opt = { 0 };
	char *ka, *kb;

	(void)state;
	ka = snapshot_key(&a, "f1");
	/* Another boot of the same guest: its share, console and group. */
	b.cell_dir = "/other/out";
	b.log_dir = "/other/out/boots/v4-a.1";
	b.group = "v4-a.1";
	b.restore = QR_SAVE;
	kb = snapshot_key(&b, "f1");
	assert_string_equal(ka, kb);
	assert_non_null(strstr(ka, "htab.restore=1"));
	assert_null(strstr(ka, "/out/v4-a"));
	free(kb);
	/* Anything that makes another guest. */
	for (int i = 0; i < 5; i++) {
		b = base();
		if (i == 0)
			b.vcpus = 8;
		else if (i == 1)
			b.map_bytes = 1LL << 30;
		else if (i == 2)
			b.lpj = 8000001;
		else if (i == 3)
			assert_int_equal(strv_push(&opt, "maxcpus=2"), 0), b.boot_opts = &opt;
		kb = snapshot_key(&b, i == 4 ? "f2" : "f1");
		assert_string_not_equal(ka, kb);
		free(kb);
	}
	strv_free(&opt);
	free(ka);
}

static void test_save_and_restore_argv(void **state)
{
	struct qemu_cfg q = base();
	struct strv save = { 0 }, rest = { 0 }, cold = { 0 };

	(void)state;
	q.group = "v4-a.1";
	assert_int_equal(qemu_argv_build(&q, &rest), 0);
	q.restore = QR_SAVE;
	assert_int_equal(qemu_argv_build(&q, &save), 0);
	q.restore = QR_NONE;
	assert_int_equal(qemu_argv_build(&q, &cold), 0);
	/* Same devices either way; the group only on a cold boot's command line. */
	for (int i = 0; i < 2; i++) {
		const struct strv *a = i ? &save : &rest;

		assert_true(has(a, "name=htab.ctl"));
		assert_true(has(a, "vmgenid,guid=auto"));
		assert_true(has(a, "pipe,id=ctl,path=/out/v4-a/ctl"));
		assert_false(has(a, "htab.group="));
	}
	/* Every boot has its QMP monitor (the save migrates through it, run/guest/hang.h asks it). */
	for (int i = 0; i < 3; i++) {
		const struct strv *a = i == 0 ? &save : i == 1 ? &rest : &cold;

		assert_true(has(a, "chardev=qmp,mode=control"));
		assert_true(has(a, "pipe,id=qmp,path=/out/v4-a/qmp"));
	}
	assert_false(has(&save, "-incoming"));
	/* The state arrives on a descriptor (boot_spawn opens it), not a pipe from cat. */
	assert_true(has(&rest, "-incoming"));
	assert_true(has(&rest, "fd:3"));
	assert_false(has(&rest, "exec:"));
	assert_true(has(&cold, "htab.group=v4-a.1"));
	assert_false(has(&cold, "htab.restore") || has(&cold, "vmgenid") || has(&cold, "htab.ctl"));
	strv_free(&save);
	strv_free(&rest);
	strv_free(&cold);
}

static void test_cache_validity(void **state)
{
	char dir[] = "/tmp/htab-snapshot-XXXXXX", p[128], named[256];
	struct qemu_cfg q = base();
	char *key = snapshot_key(&q, "f1");

	(void)state;
	assert_non_null(mkdtemp(dir));
	snapshot_dir_of(dir, key, named, sizeof(named));
	assert_int_equal(strncmp(named, dir, strlen(dir)), 0);
	assert_int_equal(strlen(named), strlen(dir) + 1 + 16);
	assert_false(snapshot_valid(dir, key));
	snprintf(p, sizeof(p), "%s/key", dir);
	assert_int_equal(write_file_atomic(p, key, strlen(key)), 0);
	assert_false(snapshot_valid(dir, key));	/* no state yet */
	snprintf(p, sizeof(p), "%s/state", dir);
	assert_int_equal(write_file_atomic(p, "x", 1), 0);
	assert_true(snapshot_valid(dir, key));
	key[strlen(key) - 2] ^= 1;	/* another guest */
	assert_false(snapshot_valid(dir, key));
	assert_int_equal(remove_tree(dir), 0);
	free(key);
}

static void test_files_id(void **state)
{
	char dir[] = "/tmp/htab-snapfiles-XXXXXX", k[128], i[128], q[128], a[24], b[24];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(k, sizeof(k), "%s/k", dir);
	snprintf(i, sizeof(i), "%s/i", dir);
	snprintf(q, sizeof(q), "%s/qemu", dir);
	assert_int_equal(write_file_atomic(k, "kernel", 6), 0);
	assert_int_equal(write_file_atomic(i, "initrd", 6), 0);
	assert_int_equal(write_file_atomic(q, "qemu", 4), 0);
	assert_int_equal(snapshot_files_id(q, k, i, a, sizeof(a)), 0);
	assert_int_equal(write_file_atomic(i, "initrD", 6), 0);	/* a new init */
	assert_int_equal(snapshot_files_id(q, k, i, b, sizeof(b)), 0);
	assert_string_not_equal(a, b);
	unlink(i);
	assert_int_equal(snapshot_files_id(q, k, i, b, sizeof(b)), -1);
	assert_int_equal(remove_tree(dir), 0);
}

/*
 * The save boot's wait (snapshot_wait_ready): "ready" in exit_status ends it
 * at once; a console that stops growing ends it after quiet_s, said; without
 * a silence limit the budget does; a QEMU that ends is reported as ended.
 */
static void test_wait_ready(void **state)
{
	char dir[] = "/tmp/htab-wait-XXXXXX", p[64];
	char *sleeper[] = { "sleep", "30", NULL }, *quick[] = { "true", NULL };
	volatile sig_atomic_t stop = 0;
	struct save_wait quiet1 = { .budget_s = 30, .quiet_s = 1 }, budget1 = { .budget_s = 1 };
	struct save_wait quiet10 = { .budget_s = 30, .quiet_s = 10 };
	/* Looked at after 1 s (no monitor here: QEMU not asked), ended by its silence. */
	struct save_wait probed = { .budget_s = 30, .quiet_s = 2, .probe_s = 1, .vcpus = 2 };
	pid_t pid;
	int st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/console.log", dir);
	assert_int_equal(write_file_atomic(p, "boot\n", 5), 0);
	pid = boot_spawn(sleeper, "/dev/null", NULL);
	assert_true(pid > 0);
	assert_int_equal(snapshot_wait_ready(dir, pid, &quiet1, &stop, &st), -1);
	assert_true(quiet1.silent);
	assert_string_equal(quiet1.stall, "");
	pid = boot_spawn(sleeper, "/dev/null", NULL);
	assert_int_equal(snapshot_wait_ready(dir, pid, &probed, &stop, &st), -1);
	assert_true(probed.silent);
	assert_string_equal(probed.stall, "");
	pid = boot_spawn(sleeper, "/dev/null", NULL);
	assert_int_equal(snapshot_wait_ready(dir, pid, &budget1, &stop, &st), -1);
	assert_false(budget1.silent);
	pid = boot_spawn(quick, "/dev/null", NULL);
	assert_int_equal(snapshot_wait_ready(dir, pid, &quiet10, &stop, &st), 0);
	snprintf(p, sizeof(p), "%s/exit_status", dir);
	assert_int_equal(write_file_atomic(p, "ready\n", 6), 0);
	pid = boot_spawn(sleeper, "/dev/null", NULL);
	assert_int_equal(snapshot_wait_ready(dir, pid, &quiet10, &stop, &st), 1);
	boot_kill_group(pid);
	assert_int_equal(remove_tree(dir), 0);
}

static void test_restored_mark(void **state)
{
	(void)state;
	assert_int_equal(boot_marks_of_line("htab-init: restored at 9.01s, urandom 01 before the reseed, 02 after", 4),
			 1u << BM_RESTORED);
	assert_string_equal(boot_mark_keys[BM_RESTORED], "restored_s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_is_the_guest),
		cmocka_unit_test(test_save_and_restore_argv),
		cmocka_unit_test(test_cache_validity),
		cmocka_unit_test(test_files_id),
		cmocka_unit_test(test_wait_ready),
		cmocka_unit_test(test_restored_mark),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
