/* QEMU argv builder and accelerator choice. */
#include "testlib.h"

#include "run/plan/accel.h"
#include "run/plan/qemu_argv.h"

static char *fixture(const char *name)
{
	return load_fixture("cpuinfo", name);
}

static void check_accel(const char *file, bool kvm_ok, enum accel_mode want)
{
	char *ci = fixture(file);

	assert_int_equal(accel_choose(ACCEL_AUTO, ci, kvm_ok), want);
	free(ci);
}

static void test_accel_from_cpuinfo(void **state)
{
	(void)state;
	check_accel("intel_vmx.txt", true, ACCEL_KVM);
	check_accel("amd_svm.txt", true, ACCEL_KVM);
	check_accel("no_virt.txt", true, ACCEL_TCG);	/* kvm_pvm: /dev/kvm but no flag */
	check_accel("vmx_substring_only.txt", true, ACCEL_TCG);
	check_accel("intel_vmx.txt", false, ACCEL_TCG);	/* flag but no /dev/kvm */
	check_accel("host_pvm.txt", true, ACCEL_TCG);
}

static void test_accel_override(void **state)
{
	enum accel_mode m;
	char *ci = fixture("no_virt.txt");

	(void)state;
	assert_int_equal(accel_choose(ACCEL_KVM, ci, false), ACCEL_KVM);
	assert_int_equal(accel_choose(ACCEL_TCG, ci, true), ACCEL_TCG);
	free(ci);
	ci = fixture("intel_vmx.txt");
	assert_int_equal(accel_choose(ACCEL_TCG, ci, true), ACCEL_TCG);
	free(ci);
	assert_int_equal(accel_parse("auto", &m), 0);
	assert_int_equal(m, ACCEL_AUTO);
	assert_int_equal(accel_parse("kvm", &m), 0);
	assert_int_equal(m, ACCEL_KVM);
	assert_int_equal(accel_parse("hvf", &m), -1);
	assert_int_equal(accel_choose(ACCEL_AUTO, NULL, true), ACCEL_TCG);
}

static int find(const struct strv *a, const char *s)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i], s))
			return (int)i;
	return -1;
}

/* The value following option opt (the first occurrence at or after from). */
static const char *after(const struct strv *a, const char *opt, int nth)
{
	for (size_t i = 0; i + 1 < a->n; i++)
		if (!strcmp(a->v[i], opt) && nth-- == 0)
			return a->v[i + 1];
	return NULL;
}

static struct qemu_cfg cfg(enum accel_mode m, int vcpus, const char *cell)
{
	return (struct qemu_cfg){
		.accel = m, .vcpus = vcpus, .kernel_image = "/boot/vmlinuz-6.1.0-57-amd64",
		.initrd = "/r/vm-images/out/initramfs-6.1.0-57-amd64.cpio.gz",
		.runner = "/r/vm-images/guest/run-job.sh", .cell_dir = cell,
	};
}

static void test_tcg_argv(void **state)
{
	struct qemu_cfg c = cfg(ACCEL_TCG, 16, "/out/v16-full_update-distro-none-r0");
	struct strv a = { 0 };

	(void)state;
	assert_int_equal(qemu_argv_build(&c, &a), 0);
	assert_string_equal(a.v[0], "qemu-system-x86_64");
	assert_string_equal(after(&a, "-accel", 0), "tcg,thread=multi");
	assert_string_equal(after(&a, "-cpu", 0), "max");
	assert_string_equal(after(&a, "-smp", 0), "16");
	assert_string_equal(after(&a, "-m", 0), "1024");	/* 512 + 32 * 16 */
	assert_true(find(&a, "-no-reboot") > 0);
	assert_true(find(&a, "-nodefaults") > 0);
	assert_string_equal(after(&a, "-kernel", 0), "/boot/vmlinuz-6.1.0-57-amd64");
	assert_non_null(strstr(after(&a, "-append", 0), "panic=-1"));
	assert_non_null(strstr(after(&a, "-append", 0), "console=ttyS0"));
	assert_non_null(strstr(after(&a, "-append", 0), "htab.runner=/r/vm-images/guest/run-job.sh"));
	strv_free(&a);
}

static void test_kvm_argv(void **state)
{
	struct qemu_cfg c = cfg(ACCEL_KVM, 2, "/out/c");
	struct strv a = { 0 };

	(void)state;
	assert_int_equal(qemu_argv_build(&c, &a), 0);
	assert_string_equal(after(&a, "-accel", 0), "kvm");
	assert_string_equal(after(&a, "-cpu", 0), "host");
	assert_string_equal(after(&a, "-m", 0), "576");
	strv_free(&a);
}

static void test_memory_scaling(void **state)
{
	(void)state;
	assert_int_equal(qemu_mem_mb(1), 544);
	assert_int_equal(qemu_mem_mb(2), 576);
	assert_int_equal(qemu_mem_mb(32), 1536);
	assert_int_equal(qemu_mem_mb(33), 1536);	/* capped at GUEST_MEM_VCPUS_CAP */
	assert_int_equal(qemu_mem_mb(96), 1536);
	assert_int_equal(qemu_mem_mb(256), 1536);
}

/* Lockup/stall thresholds scale with vCPUs per host core under TCG, capped; KVM keeps defaults. */
static void test_detector_scaling(void **state)
{
	static const struct { int vcpus, cores, over, wd, rcu; } tcg[] = {
		{ 1, 2, 1, 10, 21 }, { 2, 2, 1, 10, 21 }, { 3, 2, 2, 20, 42 }, { 4, 2, 2, 20, 42 },
		{ 16, 2, 8, 60, 168 }, { 48, 2, 24, 60, 300 }, { 96, 2, 48, 60, 300 },
		{ 16, 16, 1, 10, 21 }, { 17, 16, 2, 20, 42 }, { 4, 0, 1, 10, 21 },
	};
	struct guest_detectors d;

	(void)state;
	for (size_t i = 0; i < sizeof(tcg) / sizeof(tcg[0]); i++) {
		guest_detectors(ACCEL_TCG, tcg[i].vcpus, tcg[i].cores, &d);
		assert_int_equal(d.overcommit, tcg[i].over);
		assert_int_equal(d.watchdog_thresh, tcg[i].wd);
		assert_int_equal(d.rcu_stall_timeout, tcg[i].rcu);
		assert_true(d.on_cmdline);
	}
	guest_detectors(ACCEL_KVM, 16, 2, &d);
	assert_int_equal(d.overcommit, 8);
	assert_int_equal(d.watchdog_thresh, 10);
	assert_int_equal(d.rcu_stall_timeout, 21);
	assert_false(d.on_cmdline);
}

/* ... and they reach the kernel command line (TCG only). */
static void test_detectors_on_cmdline(void **state)
{
	struct qemu_cfg c = cfg(ACCEL_TCG, 16, "/out/c");
	struct strv a = { 0 };

	(void)state;
	c.host_cpus = 2;
	assert_int_equal(qemu_argv_build(&c, &a), 0);
	assert_non_null(strstr(after(&a, "-append", 0), " watchdog_thresh=60 "));
	assert_non_null(strstr(after(&a, "-append", 0), " rcupdate.rcu_cpu_stall_timeout=168 "));
	strv_free(&a);
	c = cfg(ACCEL_TCG, 2, "/out/c");
	c.host_cpus = 2;
	assert_int_equal(qemu_argv_build(&c, &a), 0);
	assert_non_null(strstr(after(&a, "-append", 0), " watchdog_thresh=10 rcupdate.rcu_cpu_stall_timeout=21 "));
	strv_free(&a);
	c = cfg(ACCEL_KVM, 16, "/out/c");
	c.host_cpus = 2;
	assert_int_equal(qemu_argv_build(&c, &a), 0);
	assert_null(strstr(after(&a, "-append", 0), "watchdog_thresh"));
	assert_null(strstr(after(&a, "-append", 0), "rcu_cpu_stall_timeout"));
	strv_free(&a);
}

/* -m grows with the map: base + 2 x footprint, in whole MiB. */
static void test_memory_follows_map(void **state)
{
	struct qemu_cfg c = cfg(ACCEL_TCG, 4, "/out/c");
	struct strv a = { 0 };

	(void)state;
	c.map_bytes = 100LL << 20;	/* 100 MiB map -> 200 MiB more */
	assert_int_equal(qemu_argv_build(&c, &a), 0);
	assert_string_equal(after(&a, "-m", 0), "840");	/* 512 + 32 * 4 + 200 */
	strv_free(&a);
	assert_int_equal(guest_mem_mb(0, 2, 0, 0), 576);
	assert_int_equal(guest_mem_mb(0, 2, 1, 0), 577);	/* rounded up */
	assert_int_equal(guest_mem_mb(1536, 96, 1, 0), 1537);	/* --guest-mem: the base given */
	assert_int_equal(guest_mem_mb(0, 96, 0, 1536), 3072);	/* the noise's share on top */
	c.mem_base_mb = 1000;
	assert_int_equal(qemu_argv_build(&c, &a), 0);
	assert_string_equal(after(&a, "-m", 0), "1200");	/* 1000 + 200 */
	strv_free(&a);
}

static void test_9p_and_ports(void **state)
{
	struct qemu_cfg c = cfg(ACCEL_TCG, 2, "/out/c");
	struct strv a = { 0 };

	(void)state;
	assert_int_equal(qemu_argv_build(&c, &a), 0);
	assert_string_equal(after(&a, "-fsdev", 0),
			    "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap");
	assert_string_equal(after(&a, "-device", 0), "virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot");
	assert_string_equal(after(&a, "-fsdev", 1), "local,id=cell,path=/out/c,security_model=none");
	assert_null(strstr(after(&a, "-fsdev", 1), "readonly"));
	assert_string_equal(after(&a, "-device", 1), "virtio-9p-pci,fsdev=cell,mount_tag=cell");
	assert_string_equal(after(&a, "-chardev", 0), "file,id=con,path=/out/c/console.log");
	assert_string_equal(after(&a, "-serial", 0), "chardev:con");
	assert_string_equal(after(&a, "-device", 2), "virtio-serial-pci");
	assert_string_equal(after(&a, "-chardev", 1), "file,id=ret,path=/out/c/exit_status");
	assert_string_equal(after(&a, "-device", 3), "virtserialport,chardev=ret,name=htab.ret");
	strv_free(&a);
}

static void test_comma_escaped(void **state)
{
	struct qemu_cfg c = cfg(ACCEL_TCG, 2, "/out/a,b");
	struct strv a = { 0 };

	(void)state;
	assert_int_equal(qemu_argv_build(&c, &a), 0);
	assert_string_equal(after(&a, "-fsdev", 1), "local,id=cell,path=/out/a,,b,security_model=none");
	assert_string_equal(after(&a, "-chardev", 0), "file,id=con,path=/out/a,,b/console.log");
	strv_free(&a);
}

static void test_join_quotes(void **state)
{
	struct strv a = { 0 };
	char *s;

	(void)state;
	strv_push(&a, "qemu");
	strv_push(&a, "-append");
	strv_push(&a, "console=ttyS0 quiet");
	strv_push(&a, "it's");
	strv_push(&a, "");
	s = qemu_argv_join(&a, NULL);
	assert_string_equal(s, "qemu -append 'console=ttyS0 quiet' 'it'\\''s' ''");
	free(s);
	/* A restore's line opens its state where -incoming fd:3 reads it. */
	s = qemu_argv_join(&a, "/cache/x y/state");
	assert_string_equal(s, "qemu -append 'console=ttyS0 quiet' 'it'\\''s' '' 3< '/cache/x y/state'");
	free(s);
	strv_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accel_from_cpuinfo),
		cmocka_unit_test(test_accel_override),
		cmocka_unit_test(test_tcg_argv),
		cmocka_unit_test(test_kvm_argv),
		cmocka_unit_test(test_memory_scaling),
		cmocka_unit_test(test_detector_scaling),
		cmocka_unit_test(test_detectors_on_cmdline),
		cmocka_unit_test(test_memory_follows_map),
		cmocka_unit_test(test_9p_and_ports),
		cmocka_unit_test(test_comma_escaped),
		cmocka_unit_test(test_join_quotes),
	};

	return cmocka_run_group_tests_name("qemu_argv", tests, NULL, NULL);
}
