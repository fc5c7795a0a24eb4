/*
 * The timeouts a cell is planned with (cell_plan_timeouts): the host-side
 * limit of the whole boot, the console-silence limit, and the runner's
 * attach and run limits, per accelerator, vCPUs, bpftrace scripts, noise and
 * duration. The figures are the budgets cell.c documents, worked out by hand.
 */
#include "testlib.h"

#include "run/plan/cell_plan.h"

struct timeouts {
	int host, quiet, attach, run;
};

/* --bpftrace-aot on (the figures below are worked out with it off). */
static bool aot_on;

/* accel, target_host, bpftrace scripts, duration, --timeout and a KASAN kernel; then one cell. */
static struct cell_plan planned(enum accel_mode accel, bool target_host, size_t nbt, int duration_s,
				int timeout_opt, int vcpus, const char *noise, bool kasan)
{
	static struct kernel_res k;
	struct run_opts o;
	struct run_ctx c;
	struct cell_plan cell;

	memset(&o, 0, sizeof(o));
	memset(&c, 0, sizeof(c));
	memset(&cell, 0, sizeof(cell));
	o.timeout_s = timeout_opt;
	o.bt_aot_off = !aot_on;
	c.o = &o;
	c.accel = accel;
	c.target_host = target_host;
	c.bt_paths.n = nbt;
	c.duration_s = duration_s;
	k.kasan = kasan;
	cell.k = &k;
	cell.vcpus = vcpus;
	cell.noise = noise;
	cell_plan_timeouts(&c, &cell);
	return cell;
}

static struct timeouts plan(enum accel_mode accel, bool target_host, size_t nbt, int duration_s,
			    int timeout_opt, int vcpus, const char *noise)
{
	struct cell_plan cell = planned(accel, target_host, nbt, duration_s, timeout_opt, vcpus, noise,
					false);

	return (struct timeouts){ cell.timeout_s, cell.quiet_s, cell.attach_timeout_s,
				  cell.run_timeout_s };
}

static void expect(struct timeouts got, int host, int quiet, int attach, int run)
{
	assert_int_equal(got.host, host);
	assert_int_equal(got.quiet, quiet);
	assert_int_equal(got.attach, attach);
	assert_int_equal(got.run, run);
}

/*
 * TCG: boot 60 + 3 s per vCPU, the first script 60 s and 15 s each more,
 * run duration + 60 + 1 s per vCPU, 30 s to end; quiet 60 + the longest of
 * boot, attach and duration + 30.
 */
static void test_tcg(void **s)
{
	(void)s;
	/* boot 72, attach 60, run 3 + 64 = 67: 72 + 60 + 67 + 30; quiet 60 + 72 */
	expect(plan(ACCEL_TCG, false, 1, 3, 0, 4, "none"), 229, 132, 60, 67);
	/* 96 vCPUs: boot 348 dominates the quiet limit */
	expect(plan(ACCEL_TCG, false, 1, 3, 0, 96, "none"), 348 + 60 + 159 + 30, 408, 60, 159);
	/* three scripts: 60 + 15 + 15 */
	expect(plan(ACCEL_TCG, false, 3, 3, 0, 2, "none"), 66 + 90 + 65 + 30, 60 + 90, 90, 65);
	/* no bpftrace: nothing to attach, the runner still gets its 60 s default */
	expect(plan(ACCEL_TCG, false, 0, 3, 0, 2, "none"), 66 + 0 + 65 + 30, 126, 60, 65);
}

/* A KASAN kernel (its .config) boots ~4x as long: its boot budget, and the limits built on it, grow. */
static void test_kasan_boot(void **s)
{
	struct run_opts o;
	struct run_ctx c;
	struct kernel_res k;
	struct cell_plan cell;

	(void)s;
	memset(&o, 0, sizeof(o));
	memset(&c, 0, sizeof(c));
	memset(&k, 0, sizeof(k));
	memset(&cell, 0, sizeof(cell));
	o.bt_aot_off = true;
	c.o = &o;
	c.accel = ACCEL_TCG;
	c.bt_paths.n = 1;
	c.duration_s = 3;
	k.kasan = true;
	cell.k = &k;
	cell.vcpus = 4;
	cell.noise = "none";
	cell_plan_timeouts(&c, &cell);
	/* boot 4 x 72 = 288, attach 60, run 67: 288 + 60 + 67 + 30; quiet 60 + 288 */
	assert_int_equal(cell.boot_budget_s, 288);
	assert_int_equal(cell.timeout_s, 445);
	assert_int_equal(cell.quiet_s, 348);
	/* the same kernel without KASAN: as test_tcg */
	k.kasan = false;
	cell_plan_timeouts(&c, &cell);
	assert_int_equal(cell.boot_budget_s, 72);
}

/* Noise on every vCPU doubles the TCG attach budget, and only there. */
static void test_noise_slows_attach_under_tcg(void **s)
{
	(void)s;
	expect(plan(ACCEL_TCG, false, 1, 3, 0, 4, "cpu"), 72 + 120 + 67 + 30, 180, 120, 67);
	expect(plan(ACCEL_TCG, false, 2, 3, 0, 4, "mixed"), 72 + 150 + 67 + 30, 210, 150, 67);
	/* nothing attaches: nothing to double */
	expect(plan(ACCEL_TCG, false, 0, 3, 0, 4, "cpu"), 72 + 0 + 67 + 30, 132, 60, 67);
	/* KVM: noise does not matter */
	expect(plan(ACCEL_KVM, false, 1, 10, 0, 16, "cpu"),
	       plan(ACCEL_KVM, false, 1, 10, 0, 16, "none").host, 100, 30, 40);
}

/* KVM: boot 30 + vCPUs/2, the first script 30 s and 5 s each more, run duration + 30. */
static void test_kvm(void **s)
{
	(void)s;
	expect(plan(ACCEL_KVM, false, 1, 10, 0, 16, "none"), 38 + 30 + 40 + 30, 100, 30, 40);
	expect(plan(ACCEL_KVM, false, 3, 10, 0, 16, "none"), 38 + 40 + 40 + 30, 100, 40, 40);
	expect(plan(ACCEL_KVM, false, 0, 10, 0, 16, "none"), 38 + 0 + 40 + 30, 100, 60, 40);
	/* a long run: the stress is the longest silence */
	expect(plan(ACCEL_KVM, false, 1, 600, 0, 16, "none"), 38 + 30 + 630 + 30, 690, 30, 630);
}

/* --target host: 10 s for the runner to start, and the KVM figures otherwise. */
static void test_target_host(void **s)
{
	(void)s;
	/* the accelerator a host run has recorded does not make it TCG */
	expect(plan(ACCEL_TCG, true, 1, 3, 0, 2, "cpu"), 10 + 30 + 33 + 30, 93, 30, 33);
	/* quiet 60 + 33 would outlast the whole run: capped at it */
	expect(plan(ACCEL_KVM, true, 0, 3, 0, 2, "none"), 10 + 0 + 33 + 30, 73, 60, 33);
}

/*
 * Before the runner: the boot's silence limit, half the TCG boot budget but
 * at least 60 s, never above the quiet limit; KVM and the host keep quiet_s.
 */
static int boot_quiet(enum accel_mode accel, bool target_host, int timeout_opt, int vcpus,
		      bool kasan)
{
	struct cell_plan cell = planned(accel, target_host, 1, 3, timeout_opt, vcpus, "none", kasan);

	assert_true(cell.boot_quiet_s <= cell.quiet_s);
	/* a save boot's: the same, not shortened by --timeout, none off TCG */
	if (accel == ACCEL_TCG && !target_host && !timeout_opt)
		assert_int_equal(cell.save_quiet_s, cell.boot_quiet_s);
	return cell.boot_quiet_s;
}

static void test_boot_quiet(void **s)
{
	(void)s;
	assert_int_equal(boot_quiet(ACCEL_TCG, false, 0, 2, false), 60);	/* 66 / 2 < 60 */
	assert_int_equal(boot_quiet(ACCEL_TCG, false, 0, 48, false), 102);	/* 204 / 2; quiet 264 */
	assert_int_equal(boot_quiet(ACCEL_TCG, false, 0, 96, false), 174);	/* 348 / 2; quiet 408 */
	assert_int_equal(boot_quiet(ACCEL_TCG, false, 0, 4, true), 144);	/* KASAN: 4 x 72 / 2 */
	assert_int_equal(boot_quiet(ACCEL_TCG, false, 50, 4, false), 50);	/* --timeout 50 caps it */
	assert_int_equal(planned(ACCEL_TCG, false, 1, 3, 50, 4, "none", false).save_quiet_s, 60);
	assert_int_equal(planned(ACCEL_KVM, false, 1, 3, 0, 16, "none", false).save_quiet_s, 0);
	assert_int_equal(boot_quiet(ACCEL_KVM, false, 0, 16, false), 98);	/* KVM: quiet_s, 60 + 38 */
	assert_int_equal(boot_quiet(ACCEL_TCG, true, 0, 2, false), 93);	/* the host: quiet_s */
}

/* --timeout replaces the host limit; the quiet limit never exceeds it. */
static void test_timeout_option(void **s)
{
	(void)s;
	expect(plan(ACCEL_TCG, false, 1, 3, 50, 4, "none"), 50, 50, 60, 67);
	expect(plan(ACCEL_TCG, false, 1, 3, 1000, 4, "none"), 1000, 132, 60, 67);
}

/*
 * --bpftrace-aot on: the host limit grows by the runner's compiles after the
 * measurement, each stopped at 60 s under TCG, 20 s under KVM (and on the
 * host), + 5 s; nothing without scripts. The runner's own limits do not change.
 */
static void test_aot_compile(void **s)
{
	struct run_opts o;
	struct run_ctx c;
	struct cell_plan cell;

	(void)s;
	aot_on = true;
	expect(plan(ACCEL_TCG, false, 1, 3, 0, 4, "none"), 229 + 65, 132, 60, 67);
	expect(plan(ACCEL_TCG, false, 3, 3, 0, 2, "none"), 66 + 90 + 65 + 30 + 3 * 65, 60 + 90, 90, 65);
	expect(plan(ACCEL_TCG, false, 0, 3, 0, 2, "none"), 66 + 0 + 65 + 30, 126, 60, 65);
	expect(plan(ACCEL_KVM, false, 1, 10, 0, 16, "none"), 38 + 30 + 40 + 30 + 25, 100, 30, 40);
	expect(plan(ACCEL_TCG, true, 1, 3, 0, 2, "cpu"), 10 + 30 + 33 + 30 + 25, 93, 30, 33);
	/* --timeout still replaces the whole limit */
	expect(plan(ACCEL_TCG, false, 1, 3, 50, 4, "none"), 50, 50, 60, 67);
	aot_on = false;

	/* the runner's limit, in job.env; below the quiet limit at every size */
	memset(&o, 0, sizeof(o));
	memset(&c, 0, sizeof(c));
	memset(&cell, 0, sizeof(cell));
	c.o = &o;
	c.accel = ACCEL_TCG;
	c.bt_paths.n = 1;
	c.duration_s = 3;
	cell.noise = "none";
	for (cell.vcpus = 1; cell.vcpus <= 96; cell.vcpus++) {
		cell_plan_timeouts(&c, &cell);
		assert_int_equal(cell.aot_compile_s, 60);
		assert_true(cell.aot_compile_s < cell.quiet_s);
	}
	o.bt_aot_off = true;
	cell_plan_timeouts(&c, &cell);
	assert_int_equal(cell.aot_compile_s, 0);
	c.bt_paths.n = 0;
	o.bt_aot_off = false;
	cell_plan_timeouts(&c, &cell);
	assert_int_equal(cell.aot_compile_s, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcg),
		cmocka_unit_test(test_kasan_boot),
		cmocka_unit_test(test_noise_slows_attach_under_tcg),
		cmocka_unit_test(test_kvm),
		cmocka_unit_test(test_target_host),
		cmocka_unit_test(test_boot_quiet),
		cmocka_unit_test(test_timeout_option),
		cmocka_unit_test(test_aot_compile),
	};

	return cmocka_run_group_tests_name("timeouts", tests, NULL, NULL);
}
