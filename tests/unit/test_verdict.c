/* Verdict rules, phases.env and the runner's last words. */
#include <math.h>
#include "testlib.h"

#include "run/record/cell_json.h"
#include "run/record/verdict.h"

static struct module_result ok_module(void)
{
	struct module_result m;

	memset(&m, 0, sizeof(m));
	strcpy(m.status, "done");
	strcpy(m.result, "SUCCESS");
	m.ops = 100;
	m.unexpected_errors = 0;
	m.warns = 0;
	m.corrupt = m.double_alloc = m.walk_bad = m.e2big_not_full = -1;
	return m;
}

static void decide(struct verdict_in *in, const char *verdict, const char *sig)
{
	struct verdict_out o;

	verdict_decide(in, &o);
	assert_string_equal(o.verdict, verdict);
	if (sig)
		assert_non_null(strstr(o.signature, sig));
}

static void test_rules(void **s)
{
	struct module_result m = ok_module();
	struct console_report crash = { .kind = CK_SOFT_LOCKUP };
	struct verdict_in in = { .exit_status = 0, .mod = &m, .runner_reason = "" };

	(void)s;
	strcpy(crash.signature, "BUG: soft lockup in __pcpu_freelist_pop");
	decide(&in, "PASS", "");
	in.crash = &crash;
	decide(&in, "CRASH", "soft lockup");
	in.timed_out = true;
	decide(&in, "CRASH", "soft lockup");	/* the report explains the hang */
	in.crash = NULL;
	in.timeout_s = 126;
	in.quiet_timeout = true;
	decide(&in, "TIMEOUT", "no console output for 126 s");
	in.quiet_timeout = false;
	decide(&in, "TIMEOUT", "still running after 126 s");
	/* A located hang names where the CPUs spun, and stays a TIMEOUT, never a PASS. */
	in.hang = "hang: CPUs spinning in ___pcpu_freelist_pop";
	decide(&in, "TIMEOUT", "hang: CPUs spinning in ___pcpu_freelist_pop");
	in.exit_status = 0;	/* even with a status and results from before the wedge */
	decide(&in, "TIMEOUT", "hang: CPUs spinning in ___pcpu_freelist_pop");
	in.hang = "";
	decide(&in, "TIMEOUT", "still running after 126 s");	/* not located */
	in.crash = &crash;
	decide(&in, "CRASH", "soft lockup");	/* a kernel report still wins */
	in.crash = NULL;
	in.hang = NULL;
	in.timed_out = false;
	in.exit_status = -1;
	decide(&in, "CRASH", "without an exit status");
	in.exit_status = 1;
	strcpy(m.result, "FAILURE");
	strcpy(m.first_failure, "lost 1 element");
	decide(&in, "FAIL", "module: FAILURE: lost 1 element");
	in.exit_status = 0;
	decide(&in, "FAIL", "FAILURE");
	strcpy(m.result, "SUCCESS");
	m.ops = 0;
	decide(&in, "FAIL", "no ops");
	m.ops = 5;
	m.warns = 1;
	decide(&in, "FAIL", "1 warns");
	m.warns = 0;
	/* the module's own check counters: a SUCCESS that contradicts them fails */
	m.e2big_not_full = 7;
	decide(&in, "PASS", "");	/* suspicious but legal */
	m.corrupt = 2;
	decide(&in, "FAIL", "2 corrupt");
	m.corrupt = 0;
	m.double_alloc = 1;
	decide(&in, "FAIL", "1 double allocations");
	m.double_alloc = -1;
	m.walk_bad = 3;
	decide(&in, "FAIL", "3 bad live stamps");
	m.walk_bad = -1;
	/* a caller kind the cell asked for must have run; kthread's calls are -1 */
	m.ncallers = 2;
	strcpy(m.callers[0].kind, "kthread");
	m.callers[0].calls = -1;
	strcpy(m.callers[1].kind, "nmi");
	m.callers[1].calls = 0;
	decide(&in, "FAIL", "the nmi callers made no calls");
	m.callers[1].calls = 1;
	decide(&in, "PASS", "");
	m.ncallers = 0;
	in.mod = NULL;
	in.mod_err = "module.json: cannot open";
	decide(&in, "FAIL", "no module results");
	in.exit_status = 2;
	in.runner_reason = "insmod refused: Invalid parameters";
	decide(&in, "FAIL", "setup error: insmod refused");
	in.exit_status = 3;
	in.runner_reason = "map type lru needs …";
	decide(&in, "SKIP", "skip: map type");
	in.exit_status = 4;
	decide(&in, "TIMEOUT", "module not done");
	in.exit_status = 9;
	decide(&in, "FAIL", "runner exit 9");
}

/*
 * Under TCG overcommit a lockup, stall or hung task is still a CRASH but says
 * so; an Oops, a GPF or KASAN never does, and without overcommit nothing is added.
 */
static void test_overcommit(void **s)
{
	static const struct { enum crash_kind kind; const char *sig; bool qualified; } cases[] = {
		{ CK_SOFT_LOCKUP, "BUG: soft lockup in __pcpu_freelist_pop", true },
		{ CK_HARD_LOCKUP, "BUG: hard lockup in f", true },
		{ CK_RCU_STALL, "INFO: rcu detected stall in queued_spin_lock_slowpath", true },
		{ CK_HUNG_TASK, "INFO: task hung in kthread_stop", true },
		{ CK_OOPS, "BUG: kernel NULL pointer dereference in __pcpu_freelist_pop", false },
		{ CK_GPF, "general protection fault in pcpu_freelist_pop", false },
		{ CK_KASAN, "KASAN: use-after-free in f", false },
		{ CK_KFENCE, "KFENCE: use-after-free read in f", false },
		{ CK_UBSAN, "UBSAN: array-index-out-of-bounds in f", false },
		{ CK_LIST, "list_add corruption in f", false },
		{ CK_BUG, "kernel BUG in f", false },
		{ CK_WARNING, "WARNING in f", false },
	};
	struct module_result m = ok_module();

	(void)s;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct console_report crash = { .kind = cases[i].kind };
		struct verdict_in in = { .exit_status = 0, .mod = &m, .runner_reason = "",
					 .crash = &crash, .tcg_overcommit = 8 };
		struct verdict_out o;
		char want[300];

		strcpy(crash.signature, cases[i].sig);
		verdict_decide(&in, &o);
		assert_string_equal(o.verdict, "CRASH");
		snprintf(want, sizeof(want), "%s (TCG overcommit 8\u00d7)", cases[i].sig);
		assert_string_equal(o.signature, cases[i].qualified ? want : cases[i].sig);
		assert_int_equal(o.under_overcommit, cases[i].qualified);
		in.tcg_overcommit = 1;	/* vCPUs <= cores */
		verdict_decide(&in, &o);
		assert_string_equal(o.signature, cases[i].sig);
		assert_false(o.under_overcommit);
		in.tcg_overcommit = 0;	/* KVM */
		verdict_decide(&in, &o);
		assert_string_equal(o.signature, cases[i].sig);
	}
}

/*
 * A boot stall under TCG overcommit before the runner started is booted once
 * more; never after the runner started, never a second time, never an Oops,
 * a lockup only with overcommit; a silent boot under TCG at any overcommit,
 * never under KVM.
 */
static void test_boot_retry(void **s)
{
	struct console_report lockup = { .kind = CK_SOFT_LOCKUP }, oops = { .kind = CK_OOPS };
	struct verdict_in in = { .exit_status = -1, .runner_reason = "", .tcg_overcommit = 4,
				 .crash = &lockup };
	struct verdict_out o;

	(void)s;
	strcpy(lockup.signature, "BUG: soft lockup in alg_test");
	strcpy(oops.signature, "BUG: kernel NULL pointer dereference in f");
	verdict_decide(&in, &o);
	assert_true(verdict_boot_retry(&in, &o, false, 1));
	assert_false(verdict_boot_retry(&in, &o, true, 1));	/* the runner ran: the kit's doing */
	assert_false(verdict_boot_retry(&in, &o, false, 2));	/* the second stall is the verdict */
	in.tcg_overcommit = 1;
	verdict_decide(&in, &o);
	assert_false(verdict_boot_retry(&in, &o, false, 1));
	in.tcg_overcommit = 0;
	verdict_decide(&in, &o);
	assert_false(verdict_boot_retry(&in, &o, false, 1));
	in.tcg_overcommit = 4;
	in.crash = &oops;
	verdict_decide(&in, &o);
	assert_false(verdict_boot_retry(&in, &o, false, 1));	/* an Oops is never emulation */
	/* ... but a stale text-poke breakpoint while booting under TCG is (6.12, 16+ vCPUs) */
	strcpy(oops.signature, "Oops in sched_clock_cpu");
	strcpy(oops.line, "[    3.514911] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI");
	verdict_decide(&in, &o);
	assert_string_equal(o.verdict, "CRASH");
	assert_true(verdict_boot_retry(&in, &o, false, 1));
	assert_false(verdict_boot_retry(&in, &o, true, 1));	/* after the runner: a probe's, the kit's */
	assert_false(verdict_boot_retry(&in, &o, false, 2));
	in.tcg_overcommit = 1;
	verdict_decide(&in, &o);
	assert_false(verdict_boot_retry(&in, &o, false, 1));
	in.tcg_overcommit = 4;
	in.crash = NULL;
	in.timed_out = in.quiet_timeout = true;
	in.timeout_s = 126;
	verdict_decide(&in, &o);
	assert_string_equal(o.verdict, "TIMEOUT");
	assert_true(verdict_boot_retry(&in, &o, false, 1));	/* silent while booting */
	assert_false(verdict_boot_retry(&in, &o, true, 1));
	assert_false(verdict_boot_retry(&in, &o, false, 2));
	in.tcg_overcommit = 1;	/* TCG without overcommit: a loaded host stalls it too */
	verdict_decide(&in, &o);
	assert_true(verdict_boot_retry(&in, &o, false, 1));
	assert_false(verdict_boot_retry(&in, &o, true, 1));	/* silent in the job: the verdict */
	in.tcg_overcommit = 0;	/* KVM: a silent boot is the kernel's */
	verdict_decide(&in, &o);
	assert_false(verdict_boot_retry(&in, &o, false, 1));
}

static void test_phases(void **s)
{
	const char *ph = "T_BOOT_DONE=3.32\nT_ATTACHED=8.20\nT_STRESS_START=8.21\n";

	(void)s;
	assert_float_equal(phases_get(ph, "T_BOOT_DONE"), 3.32, 1e-9);
	assert_float_equal(phases_get(ph, "T_STRESS_START"), 8.21, 1e-9);
	assert_true(isnan(phases_get(ph, "T_STRESS_END")));
	assert_true(isnan(phases_get(ph, "T_BOOT")));	/* prefix is not a match */
	assert_true(isnan(phases_get(NULL, "T_BOOT_DONE")));
}

static void test_runner_reason(void **s)
{
	char r[256];

	(void)s;
	runner_reason("[3.6] runner: kernel 6.1.0-57-amd64, 2 CPUs, job /tmp/cell\n"
		      "[8.3] runner: insmod refused: insmod: ERROR: could not insert module\n"
		      "[8.4] runner: exit 2\n", r, sizeof(r));
	assert_string_equal(r, "insmod refused: insmod: ERROR: could not insert module");
	runner_reason(NULL, r, sizeof(r));
	assert_string_equal(r, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_overcommit),
		cmocka_unit_test(test_boot_retry),
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_runner_reason),
	};

	return cmocka_run_group_tests_name("verdict", tests, NULL, NULL);
}
