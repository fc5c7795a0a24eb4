/* `run` option parsing: each bad value is a one-line error and status 2. */
#include <fcntl.h>
#include "testlib.h"

#include "run/plan/cli.h"

#define ARGS(...) ((char *[]){ "run", __VA_ARGS__, NULL })
#define NARGS(a) ((int)(sizeof(a) / sizeof(a[0])) - 1)

/* The parser prints one-line errors (and --help); keep them out of the test log. */
static int parse(char **argv, int argc, struct run_opts *o)
{
	int out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY), rc;

	fflush(stdout);
	fflush(stderr);
	if (!getenv("HT_TEST_VERBOSE")) {
		dup2(null, 1);
		dup2(null, 2);
	}
	run_opts_init(o);
	rc = run_opts_parse(o, argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	close(null);
	return rc;
}

#define EXPECT_RC(rc, ...)                                        \
	do {                                                      \
		char **a_ = ARGS(__VA_ARGS__);                    \
		int n_ = 0;                                       \
		struct run_opts o_;                               \
		while (a_[n_])                                    \
			n_++;                                     \
		assert_int_equal(parse(a_, n_, &o_), (rc));       \
		run_opts_free(&o_);                               \
	} while (0)

#define BASE "--cpus", "2", "--workload", "full_update", "--duration", "3", "--out", "/tmp/x"

static void test_good(void **s)
{
	char **a = ARGS("--cpus", "2,4,16", "--workload", "full_update,churn", "--duration", "30",
			"--out", "/tmp/o", "--accel", "tcg", "--bpftrace", "none", "--modparam",
			"max_entries=4096", "--prealloc", "0", "--repeat", "3", "--dry-run");
	struct run_opts o;
	int n = 0;

	(void)s;
	while (a[n])
		n++;
	assert_int_equal(parse(a, n, &o), 0);
	assert_int_equal(o.ncpus, 3);
	assert_int_equal(o.cpus[2], 16);
	assert_int_equal(o.workloads.n, 2);
	assert_string_equal(o.workloads.v[1], "churn");
	assert_int_equal(o.duration_s, 30);
	assert_int_equal(o.accel, ACCEL_TCG);
	assert_int_equal(o.bpftrace.n, 0);
	assert_string_equal(o.modparams.v[0], "max_entries=4096");
	assert_int_equal(o.preallocs.n, 1);
	assert_string_equal(o.preallocs.v[0], "0");
	assert_int_equal(o.repeat, 3);
	assert_true(o.dry_run);
	assert_int_equal(o.kernels.n, 1);
	assert_string_equal(o.kernels.v[0], "distro");
	run_opts_free(&o);
}

static void test_defaults(void **s)
{
	char **a = ARGS(BASE);
	struct run_opts o;

	(void)s;
	assert_int_equal(parse(a, NARGS(((char *[]){ "run", BASE, NULL })), &o), 0);
	assert_int_equal(o.accel, ACCEL_AUTO);
	assert_int_equal(o.bpftrace.n, 1);
	assert_string_equal(o.bpftrace.v[0], "__pcpu_freelist_pop");
	assert_string_equal(o.preallocs.v[0], "1");	/* the module's default */
	assert_int_equal(o.repeat, 1);
	assert_int_equal(o.test_actions.n, 0);
	assert_int_equal(o.noises.n, 1);
	assert_string_equal(o.noises.v[0], "none");
	assert_int_equal(o.jobs, 0);
	assert_int_equal(o.shard_n, 0);
	run_opts_free(&o);
}

/* Observers preattached and guests restored unless told otherwise; never on the host. */
static void test_restore_preattach(void **s)
{
	static const struct {
		char *a, *b, *c, *d;
		bool restore, preattach;
	} cases[] = {
		{ NULL, NULL, NULL, NULL, true, true },
		{ "--restore", "off", NULL, NULL, false, false },
		{ "--bpftrace-preattach", "off", NULL, NULL, true, false },
		{ "--restore", "on", "--bpftrace-preattach", "off", true, false },
		{ "--target", "host", NULL, NULL, false, false },
	};

	(void)s;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *a[] = { "run", BASE, cases[i].a, cases[i].b, cases[i].c, cases[i].d, NULL };
		struct run_opts o;
		int n = 0;

		while (a[n])
			n++;
		assert_int_equal(parse(a, n, &o), 0);
		assert_int_equal(o.restore, cases[i].restore);
		assert_int_equal(o.bt_preattach, cases[i].preattach);
		run_opts_free(&o);
	}
	/* Asked for with cold boots: an error, not a silent off. */
	EXPECT_RC(2, BASE, "--restore", "off", "--bpftrace-preattach", "on");
}

/* Without --cpus/--workload/--duration: the default matrix of `make run`. */
static void test_default_matrix(void **s)
{
	char **a = ARGS("--out", "/tmp/x");
	struct run_opts o;

	(void)s;
	assert_int_equal(parse(a, 3, &o), 0);
	assert_int_equal(o.ncpus, 5);
	assert_int_equal(o.cpus[0], 16);
	assert_int_equal(o.cpus[4], 96);
	assert_string_equal(o.workloads.v[0], "full_update");
	assert_int_equal(o.duration_s, 0);
	assert_int_equal(default_duration_s(ACCEL_TCG), 3);
	assert_int_equal(default_duration_s(ACCEL_KVM), 10);
	run_opts_free(&o);
}

static void test_cpu_ranges(void **s)
{
	int cpus[64], n;
	char err[256];

	(void)s;
	n = 0;
	assert_int_equal(parse_cpu_list("16-96:16", cpus, &n, 64, err, sizeof(err)), 0);
	assert_int_equal(n, 6);
	assert_int_equal(cpus[0], 16);
	assert_int_equal(cpus[5], 96);
	n = 0;
	assert_int_equal(parse_cpu_list("2,4-6,8-20:6", cpus, &n, 64, err, sizeof(err)), 0);
	assert_int_equal(n, 7);	/* 2 4 5 6 8 14 20 */
	assert_int_equal(cpus[3], 6);
	assert_int_equal(cpus[6], 20);
	n = 0;
	assert_int_equal(parse_cpu_list("16-90:32", cpus, &n, 64, err, sizeof(err)), 0);
	assert_int_equal(n, 3);	/* 16 48 80: the step never passes the end */
	assert_int_equal(cpus[2], 80);
	n = 0;
	assert_int_equal(parse_cpu_list("7", cpus, &n, 64, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	static const char *const bad[] = {
		"4-2", "2-4:0", "0-4", "2-300", "2-", "-2", "2-4:", "2:4", "2,2", "2-4,3",
		"a-b", "2-4:x", "", "1-256:1,1", NULL,
	};
	for (int i = 0; bad[i]; i++) {
		n = 0;
		err[0] = '\0';
		if (parse_cpu_list(bad[i], cpus, &n, 64, err, sizeof(err)) == 0)
			fail_msg("'%s' accepted", bad[i]);
		assert_true(strlen(err) > 0);
	}
	n = 0;
	assert_int_equal(parse_cpu_list("1-64", cpus, &n, 64, err, sizeof(err)), 0);
	n = 0;
	assert_int_equal(parse_cpu_list("1-65", cpus, &n, 64, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "at most 64"));
}

static void test_bad_cpus(void **s)
{
	(void)s;
	EXPECT_RC(2, "--cpus", "0", "--workload", "full_update", "--duration", "3", "--out", "/x");
	EXPECT_RC(2, "--cpus", "257", "--workload", "full_update", "--duration", "3", "--out", "/x");
	EXPECT_RC(2, "--cpus", "abc", "--workload", "full_update", "--duration", "3", "--out", "/x");
	EXPECT_RC(2, "--cpus", "2,,4", "--workload", "full_update", "--duration", "3", "--out", "/x");
	EXPECT_RC(2, "--cpus", "2.5", "--workload", "full_update", "--duration", "3", "--out", "/x");
	EXPECT_RC(2, "--cpus", "-2", "--workload", "full_update", "--duration", "3", "--out", "/x");
	EXPECT_RC(2, "--cpus", "99999999999999999999", "--workload", "full_update", "--duration", "3", "--out", "/x");
}

static void test_bad_values(void **s)
{
	(void)s;
	EXPECT_RC(2, "--cpus", "2", "--workload", "nosuch", "--duration", "3", "--out", "/x");
	EXPECT_RC(2, "--cpus", "2", "--workload", "full_update,", "--duration", "3", "--out", "/x");
	EXPECT_RC(2, "--cpus", "2", "--workload", "full_update", "--duration", "0", "--out", "/x");
	/* the module's duration_ms bounds, 100..600000 ms, in whole seconds */
	EXPECT_RC(2, "--cpus", "2", "--workload", "full_update", "--duration", "601", "--out", "/x");
	EXPECT_RC(0, "--cpus", "2", "--workload", "full_update", "--duration", "600", "--out", "/x");
	EXPECT_RC(2, "--cpus", "2", "--workload", "full_update", "--duration", "1.5", "--out", "/x");
	EXPECT_RC(2, BASE, "--accel", "hvf");
	EXPECT_RC(2, BASE, "--prealloc", "2");
	EXPECT_RC(2, BASE, "--modparam", "novalue");
	EXPECT_RC(2, BASE, "--modparam", "a=b c");
	/* kmod/params.h: a parameter of the module, an int in its bounds or at its default */
	EXPECT_RC(2, BASE, "--modparam", "no_such_param=1");
	EXPECT_RC(2, BASE, "--modparam", "value_size=15");
	EXPECT_RC(2, BASE, "--modparam", "value_size=4097");
	EXPECT_RC(2, BASE, "--modparam", "value_size=16k");
	EXPECT_RC(2, BASE, "--modparam", "map_id=2147483648");
	EXPECT_RC(2, BASE, "--modparam", "tasks_per_cpu=0");
	EXPECT_RC(0, BASE, "--modparam", "value_size=4096");
	EXPECT_RC(0, BASE, "--modparam", "value_size=0x10");
	EXPECT_RC(0, BASE, "--modparam", "tasks_per_cpu=-1");
	EXPECT_RC(0, BASE, "--modparam", "selftest=corrupt");
	EXPECT_RC(2, BASE, "--bpftrace", "../x");
	EXPECT_RC(2, BASE, "--bpftrace", "a,,b");
	EXPECT_RC(2, BASE, "--repeat", "0");
	EXPECT_RC(2, BASE, "--timeout", "5");
	EXPECT_RC(2, BASE, "--test-action", "explode");
	EXPECT_RC(2, BASE, "--noise", "bogus");
	EXPECT_RC(2, BASE, "--noise", "cpu,cpu");
	EXPECT_RC(2, BASE, "--jobs", "0");
	EXPECT_RC(2, BASE, "--shard", "0/2");
	EXPECT_RC(2, BASE, "--shard", "3/2");
	EXPECT_RC(2, BASE, "--shard", "1/2x");
	EXPECT_RC(2, BASE, "--target", "cloud");
	EXPECT_RC(2, BASE, "--target", "host", "--test-action", "panic");
	EXPECT_RC(2, BASE, "--target", "host", "--kernel", "fixed");
	EXPECT_RC(2, BASE, "--kernel", "../etc");
	EXPECT_RC(2, BASE, "--job-script", "relative.sh");
	EXPECT_RC(2, BASE, "--kernel-image", "/x", "--kernel", "a,b");
	EXPECT_RC(2, BASE, "--crash-grace", "-1");
	EXPECT_RC(2, BASE, "--crash-grace", "601");
	EXPECT_RC(2, BASE, "--crash-grace", "2.5");
	EXPECT_RC(2, BASE, "--crash-grace", "");
}

/* --crash-grace: 10 s unless given, 0..600. */
static void test_crash_grace(void **s)
{
	char **a = ARGS(BASE, "--crash-grace", "0");
	struct run_opts o;

	(void)s;
	assert_int_equal(parse(a, NARGS(((char *[]){ "run", BASE, "--crash-grace", "0", NULL })), &o), 0);
	assert_int_equal(o.crash_grace_s, 0);
	run_opts_free(&o);
	a = ARGS(BASE, "--crash-grace", "600");
	assert_int_equal(parse(a, NARGS(((char *[]){ "run", BASE, "--crash-grace", "600", NULL })), &o), 0);
	assert_int_equal(o.crash_grace_s, 600);
	run_opts_free(&o);
	a = ARGS(BASE);
	assert_int_equal(parse(a, NARGS(((char *[]){ "run", BASE, NULL })), &o), 0);
	assert_int_equal(o.crash_grace_s, 10);
	run_opts_free(&o);
}

static void test_usage_errors(void **s)
{
	(void)s;
	EXPECT_RC(2, "--bogus");
	EXPECT_RC(2, BASE, "extra");
	EXPECT_RC(2, BASE, "--cpus");		/* needs a value */
	EXPECT_RC(2, "--cpus", "2", "--workload", "full_update", "--duration", "3");	/* no --out */
	EXPECT_RC(0, "--cpus", "2", "--workload", "full_update", "--duration", "3", "--plan-only");
	EXPECT_RC(1, "--help");
	EXPECT_RC(0, BASE, "--test-action", "hang", "--accel", "auto", "--kernel", "distro");
	EXPECT_RC(0, BASE, "--test-action", "panic,hang,warn,none", "--noise", "cpu,irq",
		  "--kernel", "distro,fixed", "--jobs", "3", "--shard", "2/3", "--target", "vm");
}

/* --fault: repeatable, verbatim (commas of cpus= lists are not split), light syntax check. */
static void test_fault(void **s)
{
	char **a = ARGS(BASE, "--fault", "none", "--fault",
			"delay:__pcpu_freelist_pop:2000ns:p=0.01:cpus=0-3,5",
			"--fault", "exhaust:p=0.1+delay:alloc_htab_elem:5us:every=100");
	struct run_opts o;
	char err[512];
	int n = 0;

	(void)s;
	while (a[n])
		n++;
	assert_int_equal(parse(a, n, &o), 0);
	assert_int_equal(o.faults.n, 3);
	assert_string_equal(o.faults.v[0], "none");
	assert_string_equal(o.faults.v[1], "delay:__pcpu_freelist_pop:2000ns:p=0.01:cpus=0-3,5");
	assert_string_equal(o.faults.v[2], "exhaust:p=0.1+delay:alloc_htab_elem:5us:every=100");
	run_opts_free(&o);
	/* Default: one value, none. */
	a = ARGS(BASE);
	assert_int_equal(parse(a, NARGS(((char *[]){ "run", BASE, NULL })), &o), 0);
	assert_int_equal(o.faults.n, 1);
	assert_string_equal(o.faults.v[0], "none");
	run_opts_free(&o);
	EXPECT_RC(0, BASE, "--fault", "exhaust");
	EXPECT_RC(0, BASE, "--fault", "delay:10us");
	EXPECT_RC(2, BASE, "--fault", "");
	EXPECT_RC(2, BASE, "--fault", "bogus");
	EXPECT_RC(2, BASE, "--fault", "delay");
	EXPECT_RC(2, BASE, "--fault", "delay:");
	EXPECT_RC(2, BASE, "--fault", "exhausted");
	EXPECT_RC(2, BASE, "--fault", "delay:x:1us+");
	EXPECT_RC(2, BASE, "--fault", "delay:x:1us'");
	EXPECT_RC(2, BASE, "--fault", "delay:x:1us p=1");
	EXPECT_RC(2, BASE, "--fault", "none", "--fault", "none");
	/* Two specs, one cell id suffix. */
	EXPECT_RC(2, BASE, "--fault", "delay:a.b:1us", "--fault", "delay:a_b:1us");
	/* The fault one way only. */
	EXPECT_RC(2, BASE, "--fault", "exhaust", "--modparam", "fault=exhaust");
	EXPECT_RC(0, BASE, "--modparam", "fault=exhaust");
	assert_int_equal(fault_check("none+exhaust:p=1", err, sizeof(err)), 0);
	assert_int_equal(fault_check("delay:x:1us+nonsense", err, sizeof(err)), -1);
	assert_string_equal(err, "'nonsense': unknown fault type \"nonsense\" (valid: none delay exhaust lockhold)");
	assert_int_equal(fault_check("exhaust:every=0", err, sizeof(err)), -1);
	assert_string_equal(err, "every=0 must be an integer >= 1");
	/* the module's limit of faults, and its parser behind --modparam fault= */
	EXPECT_RC(2, BASE, "--fault", "exhaust+exhaust+exhaust+exhaust+exhaust");
	EXPECT_RC(2, BASE, "--modparam", "fault=bogus");
}

/* --shard auto sets the shard as --shard I/N does (the manifest records o.shard_*). */
static void test_shard_auto(void **s)
{
	char **a = ARGS(BASE, "--shard", "auto");
	struct run_opts o;
	int n = 0;

	(void)s;
	while (a[n])
		n++;
	unsetenv("SLURM_ARRAY_TASK_ID");
	unsetenv("JOB_COMPLETION_INDEX");
	setenv("GITHUB_ACTIONS", "true", 1);
	setenv("HTAB_SHARD_INDEX", "2", 1);
	setenv("HTAB_SHARD_COUNT", "3", 1);
	assert_int_equal(parse(a, n, &o), 0);
	assert_int_equal(o.shard_i, 3);
	assert_int_equal(o.shard_n, 3);
	run_opts_free(&o);
	setenv("HTAB_SHARD_INDEX", "3", 1);
	EXPECT_RC(2, BASE, "--shard", "auto");
	unsetenv("GITHUB_ACTIONS");
	unsetenv("HTAB_SHARD_INDEX");
	unsetenv("HTAB_SHARD_COUNT");
	EXPECT_RC(2, BASE, "--shard", "auto");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_bad_cpus),
		cmocka_unit_test(test_restore_preattach),
		cmocka_unit_test(test_default_matrix),
		cmocka_unit_test(test_cpu_ranges),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_fault),
		cmocka_unit_test(test_crash_grace),
		cmocka_unit_test(test_shard_auto),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
