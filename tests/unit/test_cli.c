/* `run` option parsing: each bad value is a one-line error and status 2. */
#include <fcntl.h>
#include "testlib.h"

#include "cli.h"

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
	assert_int_equal(o.prealloc, 0);
	assert_int_equal(o.repeat, 3);
	assert_true(o.dry_run);
	assert_string_equal(o.kernel, "distro");
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
	assert_int_equal(o.prealloc, -1);
	assert_int_equal(o.repeat, 1);
	assert_null(o.test_action);
	run_opts_free(&o);
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
	EXPECT_RC(2, "--cpus", "2", "--workload", "full_update", "--duration", "3601", "--out", "/x");
	EXPECT_RC(2, "--cpus", "2", "--workload", "full_update", "--duration", "1.5", "--out", "/x");
	EXPECT_RC(2, BASE, "--accel", "hvf");
	EXPECT_RC(2, BASE, "--prealloc", "2");
	EXPECT_RC(2, BASE, "--modparam", "novalue");
	EXPECT_RC(2, BASE, "--modparam", "a=b c");
	EXPECT_RC(2, BASE, "--bpftrace", "../x");
	EXPECT_RC(2, BASE, "--bpftrace", "a,,b");
	EXPECT_RC(2, BASE, "--repeat", "0");
	EXPECT_RC(2, BASE, "--timeout", "5");
	EXPECT_RC(2, BASE, "--test-action", "explode");
}

static void test_usage_errors(void **s)
{
	(void)s;
	EXPECT_RC(2, "--bogus");
	EXPECT_RC(2, BASE, "extra");
	EXPECT_RC(2, BASE, "--cpus");		/* needs a value */
	EXPECT_RC(2, "--workload", "full_update", "--duration", "3", "--out", "/x");	/* no --cpus */
	EXPECT_RC(2, "--cpus", "2", "--duration", "3", "--out", "/x");
	EXPECT_RC(2, "--cpus", "2", "--workload", "full_update", "--out", "/x");
	EXPECT_RC(2, "--cpus", "2", "--workload", "full_update", "--duration", "3");
	EXPECT_RC(1, "--help");
	EXPECT_RC(0, BASE, "--test-action", "hang", "--accel", "auto", "--kernel", "distro");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_bad_cpus),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_usage_errors),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
