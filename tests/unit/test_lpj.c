/*
 * lpj= (issue 15): reading the boot CPU's value from a console, the cache
 * keyed by image and host CPU, the calibration boot's and the cells' command
 * lines, the --lpj/--boot-opt options, and the console lines that mark the
 * boot's phases on the host clock.
 */
#include <fcntl.h>
#include <sys/wait.h>
#include "testlib.h"

#include "run/guest/boot_marks.h"
#include "run/plan/cli.h"
#include "run/plan/lpj.h"
#include "run/plan/qemu_argv.h"

static void test_from_real_console(void **state)
{
	char *con = load_fixture("lpj", "distro-6.1-1vcpu.console");

	(void)state;
	assert_int_equal(lpj_from_console(con), 8378572);
	free(con);
}

static void test_from_console_forms(void **state)
{
	(void)state;
	/* Measured (no TSC frequency known) and preset forms print lpj= too. */
	assert_int_equal(lpj_from_console("[    0.1] Calibrating delay loop... 4189.28 BogoMIPS (lpj=8378570)\n"),
			 8378570);
	assert_int_equal(lpj_from_console("Calibrating delay loop (skipped) preset value.. 4000.00 BogoMIPS (lpj=8000000)"),
			 8000000);
	/* The first Calibrating line is the boot CPU's: an AP's later one does not count. */
	assert_int_equal(lpj_from_console("Calibrating delay loop (skipped), value calculated using timer frequency.. 1.00 BogoMIPS (lpj=111)\n"
					  "Calibrating delay loop... 2.00 BogoMIPS (lpj=222)\n"),
			 111);
	assert_int_equal(lpj_from_console(NULL), -1);
	assert_int_equal(lpj_from_console(""), -1);
	assert_int_equal(lpj_from_console("tsc: Detected 2094.643 MHz processor\n"), -1);
	/* lpj= on another line than the Calibrating one is not its value. */
	assert_int_equal(lpj_from_console("Calibrating delay loop\nfoo (lpj=5)\n"), -1);
	assert_int_equal(lpj_from_console("Calibrating delay loop (lpj=)\n"), -1);
	assert_int_equal(lpj_from_console("Calibrating delay loop (lpj=0)\n"), -1);
	assert_int_equal(lpj_from_console("Calibrating delay loop (lpj=12x)\n"), -1);
	assert_int_equal(lpj_from_console("Calibrating delay loop (lpj=99999999999)\n"), -1);
}

static void write_bytes(const char *path, const char *s)
{
	assert_int_equal(write_file_atomic(path, s, strlen(s)), 0);
}

static void test_cache(void **state)
{
	char dir[] = "/tmp/htab-test-lpj-XXXXXX", img[256], img2[256], a[128], b[128], c[128];
	char path[512];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(img, sizeof(img), "%s/vmlinuz-a", dir);
	snprintf(img2, sizeof(img2), "%s/vmlinuz-b", dir);
	write_bytes(img, "kernel image A");
	write_bytes(img2, "kernel image B");
	assert_int_equal(lpj_cache_name(img, "AMD EPYC", a, sizeof(a)), 0);
	assert_int_equal(strlen(a), 16 + 1 + 8);
	/* Same contents, same name; another image or another host CPU, another entry. */
	assert_int_equal(lpj_cache_name(img, "AMD EPYC", b, sizeof(b)), 0);
	assert_string_equal(a, b);
	assert_int_equal(lpj_cache_name(img2, "AMD EPYC", b, sizeof(b)), 0);
	assert_string_not_equal(a, b);
	assert_int_equal(lpj_cache_name(img, "Intel Xeon", c, sizeof(c)), 0);
	assert_string_not_equal(a, c);
	assert_memory_equal(a, c, 16);	/* the image part is the image's */
	assert_int_equal(lpj_cache_name("/nonexistent/vmlinuz", "x", c, sizeof(c)), -1);

	assert_int_equal(lpj_cache_get(dir, a), -1);	/* not there yet */
	assert_int_equal(lpj_cache_put(dir, a, 8378572, img, "AMD EPYC"), 0);
	assert_int_equal(lpj_cache_get(dir, a), 8378572);
	assert_int_equal(lpj_cache_get(dir, b), -1);
	/* A damaged entry is no entry: the run calibrates again. */
	snprintf(path, sizeof(path), "%s/%s", dir, b);
	write_bytes(path, "LPJ=12ab\n");
	assert_int_equal(lpj_cache_get(dir, b), -1);
	write_bytes(path, "LPJ=0\n");
	assert_int_equal(lpj_cache_get(dir, b), -1);
	write_bytes(path, "IMAGE=x\nLPJ=42\n");
	assert_int_equal(lpj_cache_get(dir, b), 42);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/*
 * Two runs that calibrate the same image at once (make check's two VM
 * lanes) both write the same entry: each write succeeds and the entry
 * ends whole, one writer's or the other's, never a mix.
 */
static void test_cache_two_writers(void **state)
{
	char dir[] = "/tmp/htab-test-lpj-XXXXXX", path[512], *got;
	pid_t kid[2];
	int st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (int k = 0; k < 2; k++) {
		kid[k] = fork();
		assert_true(kid[k] >= 0);
		if (kid[k] == 0) {
			for (int i = 0; i < 300; i++)
				if (lpj_cache_put(dir, "entry", k ? 2222222 : 1111111,
						  k ? "/images/bbbbbbbbbbbbbbbbbbbbbbbbbb" : "/a", "cpu"))
					_exit(1);
			_exit(0);
		}
	}
	for (int k = 0; k < 2; k++) {
		assert_int_equal(waitpid(kid[k], &st, 0), kid[k]);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
	}
	snprintf(path, sizeof(path), "%s/entry", dir);
	got = read_file(path, NULL);
	assert_non_null(got);
	assert_true(!strcmp(got, "LPJ=1111111\nIMAGE=/a\nCPU_MODEL=cpu\n") ||
		    !strcmp(got, "LPJ=2222222\nIMAGE=/images/bbbbbbbbbbbbbbbbbbbbbbbbbb\nCPU_MODEL=cpu\n"));
	free(got);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

static const char *after(const struct strv *a, const char *opt)
{
	for (size_t i = 0; i + 1 < a->n; i++)
		if (!strcmp(a->v[i], opt))
			return a->v[i + 1];
	return NULL;
}

static void test_calibrate_argv(void **state)
{
	struct strv a = { 0 };

	(void)state;
	assert_int_equal(lpj_calibrate_argv("qemu-x", ACCEL_TCG, "/boot/vmlinuz", "/c,d/con", &a), 0);
	assert_string_equal(a.v[0], "timeout");
	assert_string_equal(after(&a, "-smp"), "1");
	assert_string_equal(after(&a, "-kernel"), "/boot/vmlinuz");
	assert_string_equal(after(&a, "-accel"), "tcg,thread=multi");
	assert_null(after(&a, "-initrd"));	/* it panics on the missing root and QEMU exits */
	assert_non_null(strstr(after(&a, "-append"), "loglevel=7"));
	assert_non_null(strstr(after(&a, "-append"), "panic=-1"));
	assert_non_null(strstr(after(&a, "-append"), "clocksource=tsc"));
	assert_string_equal(after(&a, "-chardev"), "file,id=con,path=/c,,d/con");
	assert_null(a.v[a.n]);
	strv_free(&a);
}

static const char *cell_append(long lpj, const struct strv *opts, struct strv *a)
{
	struct qemu_cfg c = {
		.accel = ACCEL_TCG, .vcpus = 16, .kernel_image = "/boot/vmlinuz",
		.initrd = "/r/initrd", .runner = "/r/run-job.sh", .cell_dir = "/out/c",
		.lpj = lpj, .boot_opts = opts,
	};

	assert_int_equal(qemu_argv_build(&c, a), 0);
	return after(a, "-append");
}

static void test_cell_cmdline(void **state)
{
	struct strv a = { 0 }, opts = { 0 };
	const char *ap;

	(void)state;
	ap = cell_append(8378572, NULL, &a);
	assert_non_null(strstr(ap, " lpj=8378572 "));
	assert_non_null(strstr(ap, "quiet loglevel=5"));
	strv_free(&a);
	ap = cell_append(0, NULL, &a);
	assert_null(strstr(ap, "lpj="));
	strv_free(&a);
	strv_push(&opts, "maxcpus=2");
	strv_push(&opts, "nokaslr");
	ap = cell_append(0, &opts, &a);
	/* --boot-opt words come last, in order, after the runner. */
	assert_non_null(strstr(ap, "htab.runner=/r/run-job.sh maxcpus=2 nokaslr"));
	assert_int_equal(strcmp(ap + strlen(ap) - strlen(" maxcpus=2 nokaslr"), " maxcpus=2 nokaslr"), 0);
	strv_free(&a);
	strv_free(&opts);
}

#define ARGS(...) ((char *[]){ "run", __VA_ARGS__, NULL })
#define NARGS(a) ((int)(sizeof(a) / sizeof(a[0])) - 1)

static int parse(char **argv, int argc, struct run_opts *o)
{
	int err = dup(2), null = open("/dev/null", O_WRONLY), rc;

	fflush(stderr);
	dup2(null, 2);
	run_opts_init(o);
	rc = run_opts_parse(o, argc, argv);
	fflush(stderr);
	dup2(err, 2);
	close(err);
	close(null);
	return rc;
}

#define PARSE(o, ...) parse(ARGS(__VA_ARGS__), NARGS(ARGS(__VA_ARGS__)), o)

static void test_options(void **state)
{
	struct run_opts o;

	(void)state;
	assert_int_equal(PARSE(&o, "--out", "x"), 0);
	assert_int_equal(o.lpj_mode, LPJ_AUTO);
	run_opts_free(&o);
	assert_int_equal(PARSE(&o, "--out", "x", "--lpj", "off"), 0);
	assert_int_equal(o.lpj_mode, LPJ_OFF);
	run_opts_free(&o);
	assert_int_equal(PARSE(&o, "--out", "x", "--lpj", "8378572", "--boot-opt", "maxcpus=2"), 0);
	assert_int_equal(o.lpj_mode, LPJ_VALUE);
	assert_int_equal(o.lpj_value, 8378572);
	assert_int_equal(o.boot_opts.n, 1);
	assert_string_equal(o.boot_opts.v[0], "maxcpus=2");
	run_opts_free(&o);
	for (const char *const *bad = (const char *const[]){ "0", "-1", "+5", "12x", "", "on",
			"2147483648", NULL }; *bad; bad++) {
		assert_int_equal(PARSE(&o, "--out", "x", "--lpj", (char *)*bad), 2);
		run_opts_free(&o);
	}
	for (const char *const *bad = (const char *const[]){ "a b", "", "x'y", "lpj=5", "htab.runner=/x",
			"-x", "=1", NULL }; *bad; bad++) {
		assert_int_equal(PARSE(&o, "--out", "x", "--boot-opt", (char *)*bad), 2);
		run_opts_free(&o);
	}
}

static void test_boot_marks(void **state)
{
	(void)state;
	assert_int_equal(boot_marks_of_line("[    1.654630]  #15", 16), 1u << BM_LAST_AP);
	assert_int_equal(boot_marks_of_line("[    1.654630]  #15\r", 16), 1u << BM_LAST_AP);
	assert_int_equal(boot_marks_of_line("[    1.571261]  #14", 16), 0);
	assert_int_equal(boot_marks_of_line("[    1.5]  #15", 96), 0);	/* not the last of 96 */
	assert_int_equal(boot_marks_of_line("[ 0.3] .... node  #0, CPUs:      #1", 2), 1u << BM_LAST_AP);
	assert_int_equal(boot_marks_of_line("[ 0.3] .... node  #0, CPUs:      #1", 1), 0);
	assert_int_equal(boot_marks_of_line("[ 0.3] x86: #115", 16), 0);
	assert_int_equal(boot_marks_of_line("[    2.1] smp: Brought up 1 node, 16 CPUs", 16),
			 1u << BM_SMP_UP);
	assert_int_equal(boot_marks_of_line("[    0.934674] mtrr: your CPUs had inconsistent fixed MTRR settings", 16),
			 1u << BM_AFTER_SMP);
	assert_int_equal(boot_marks_of_line("htab-init: up at 3.06s", 16), 1u << BM_INIT);
	assert_int_equal(boot_marks_of_line("htab-init: CPUs online 0-15 (14 onlined here) at 3.5s", 16),
			 1u << BM_CPUS_ONLINE);
	assert_int_equal(boot_marks_of_line("htab-init: modules loaded at 4.2s", 16),
			 1u << BM_MODULES);
	assert_string_equal(boot_mark_keys[BM_MODULES], "modules_s");
	assert_int_equal(boot_marks_of_line("[   64.297445] reboot: Power down", 16),
			 1u << BM_POWER_OFF);
	assert_int_equal(boot_marks_of_line("[3.84] runner: kernel 6.1, 16 CPUs", 16), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_from_real_console),
		cmocka_unit_test(test_from_console_forms),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_cache_two_writers),
		cmocka_unit_test(test_calibrate_argv),
		cmocka_unit_test(test_cell_cmdline),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_boot_marks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
