/* Console classification against fixture consoles modeled on 6.1 output. */
#include "testlib.h"

#include "console_fixture.h"
#include "parse/console_scan.h"

static void check(const char *file, enum crash_kind kind, const char *sig)
{
	char *text = console_fixture_text(file);
	struct console_report r;
	int found = console_scan(text, &r);

	free(text);
	if (kind == CK_NONE) {
		assert_int_equal(found, 0);
		assert_int_equal(r.kind, CK_NONE);
		return;
	}
	assert_int_equal(found, 1);
	assert_string_equal(crash_kind_name(r.kind), crash_kind_name(kind));
	assert_string_equal(r.signature, sig);
	assert_true(r.lineno > 0);
}

/* Every fixture is classified as its own header says ("# kind:", "# title:"). */
static void test_every_fixture(void **s)
{
	struct dirent **names;
	int n = console_fixture_names(&names);

	(void)s;
	for (int k = 0; k < n; k++) {
		struct console_fixture fx;
		struct console_report r;
		int found;

		console_fixture_load(names[k]->d_name, &fx);
		found = console_scan(fx.text, &r);
		print_message("%s: %s: %s\n", names[k]->d_name, crash_kind_name(r.kind), r.signature);
		if (!fx.kind[0])
			fail_msg("%s: no '# kind:' line", names[k]->d_name);
		assert_string_equal(crash_kind_name(r.kind), fx.kind);
		assert_int_equal(found, strcmp(fx.kind, "none") != 0);
		if (found) {
			assert_string_equal(r.signature, fx.title);
			assert_true(r.lineno > 0);
		}
		free(fx.text);
		free(names[k]);
	}
	free(names);
}

static void test_clean(void **s) { (void)s; check("clean.log", CK_NONE, NULL); }

static void test_panic(void **s)
{
	(void)s;
	check("panic_sysrq.log", CK_PANIC, "kernel panic: sysrq triggered crash");
}

static void test_oops(void **s)
{
	char *text = console_fixture_text("oops_null.log");
	struct console_report r;

	(void)s;
	check("oops_null.log", CK_OOPS, "BUG: kernel NULL pointer dereference in __pcpu_freelist_pop");
	/* The Oops and the panic that follows it are one incident; the first names it. */
	console_scan(text, &r);
	assert_true(r.nreports >= 2);
	assert_string_equal(r.line, "BUG: kernel NULL pointer dereference, address: 0000000000000010");
	assert_int_equal(r.lineno, 5);
	free(text);
}

static void test_warning(void **s)
{
	(void)s;
	check("warning.log", CK_WARNING, "WARNING in htab_map_update_elem");
	check("test_action_warn.log", CK_WARNING, "WARNING in test_warning");
}

static void test_soft_lockup(void **s)
{
	(void)s;
	/* RIP is in the spinlock slow path; the title names its caller. */
	check("soft_lockup.log", CK_SOFT_LOCKUP, "BUG: soft lockup in __pcpu_freelist_pop");
}

static void test_rcu_stall(void **s)
{
	(void)s;
	check("rcu_stall.log", CK_RCU_STALL, "INFO: rcu detected stall in __pcpu_freelist_pop");
}

static void test_hung_task(void **s)
{
	(void)s;
	check("hung_task.log", CK_HUNG_TASK, "INFO: task hung in kthread_stop");
}

static void test_lockdep(void **s)
{
	(void)s;
	check("lockdep.log", CK_LOCKDEP, "possible deadlock in htab_lock_bucket");
	check("recursive_locking.log", CK_LOCKDEP, "possible deadlock in __pcpu_freelist_push");
}

static void test_gpf(void **s)
{
	(void)s;
	check("gpf.log", CK_GPF, "general protection fault in pcpu_freelist_pop");
}

static void test_inline_titles(void **s)
{
	struct console_report r;

	(void)s;
	assert_int_equal(console_scan("[ 5.1] BUG: scheduling while atomic: htab_torture/0/212/0x00000002\n", &r), 1);
	assert_string_equal(r.signature, "BUG: scheduling while atomic");
	assert_int_equal(console_scan("BUG: workqueue lockup - pool cpus=1 node=0 flags=0x0 nice=0 stuck for 33s!\r\n", &r), 1);
	assert_string_equal(r.signature, "BUG: workqueue lockup");
	assert_int_equal(console_scan("BUG: sleeping function called from invalid context at kernel/bpf/hashtab.c:1100\n", &r), 1);
	assert_string_equal(r.signature, "BUG: sleeping function called from invalid context");
	assert_int_equal(console_scan("[    7.000001] kernel BUG at kernel/bpf/percpu_freelist.c:42!\n"
				      "[    7.000002] RIP: 0010:pcpu_freelist_push+0x10/0x20\n", &r), 1);
	assert_string_equal(r.signature, "kernel BUG in pcpu_freelist_push");
	assert_int_equal(console_scan("[ 1.0] BUG: KASAN: use-after-free in htab_map_delete_elem+0x1/0x2\n", &r), 1);
	/* offsets differ from build to build: not in the title */
	assert_string_equal(r.signature, "KASAN: use-after-free in htab_map_delete_elem");
	/* KFENCE's and UBSAN's report lines as mm/kfence/report.c and lib/ubsan.c print them */
	assert_int_equal(console_scan("[ 2.0] BUG: KFENCE: use-after-free read in htab_map_lookup_elem+0x4f/0x90\n", &r), 1);
	assert_int_equal(r.kind, CK_KFENCE);
	assert_string_equal(r.signature, "KFENCE: use-after-free read in htab_map_lookup_elem");
	/* a module's function: titled without its module, as the kernel's are */
	assert_int_equal(console_scan("[ 2.5] BUG: KFENCE: out-of-bounds read in test_out_of_bounds_read+0xef/0x120 [kfence_test]\n", &r), 1);
	assert_string_equal(r.signature, "KFENCE: out-of-bounds read in test_out_of_bounds_read");
	assert_int_equal(console_scan("[ 3.0] UBSAN: array-index-out-of-bounds in kernel/bpf/hashtab.c:612:9\n"
				      "[ 3.1] index 8 is out of range for type 'u32 [8]'\n"
				      "[ 3.2] Call Trace:\n[ 3.3]  <TASK>\n[ 3.4]  dump_stack_lvl+0x33/0x42\n"
				      "[ 3.5]  __ubsan_handle_out_of_bounds.cold+0x44/0x49\n"
				      "[ 3.6]  htab_map_hash.isra.0+0x2c/0x40\n[ 3.7]  </TASK>\n", &r), 1);
	assert_int_equal(r.kind, CK_UBSAN);
	assert_string_equal(r.signature, "UBSAN: array-index-out-of-bounds in htab_map_hash");
	/* Not reports: our own logs, the module's end line, taint notices. */
	assert_int_equal(console_scan("[3.6] runner: kernel 6.1.0-57-amd64\n"
				      "htab_torture: End of test: SUCCESS: workload=full_update\n"
				      "htab_torture: loading out-of-tree module taints kernel.\n", &r), 0);
	assert_int_equal(console_scan("", &r), 0);
	assert_int_equal(console_scan(NULL, &r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_fixture),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_panic),
		cmocka_unit_test(test_oops),
		cmocka_unit_test(test_warning),
		cmocka_unit_test(test_soft_lockup),
		cmocka_unit_test(test_rcu_stall),
		cmocka_unit_test(test_hung_task),
		cmocka_unit_test(test_lockdep),
		cmocka_unit_test(test_gpf),
		cmocka_unit_test(test_inline_titles),
	};

	return cmocka_run_group_tests_name("console_scan", tests, NULL, NULL);
}
