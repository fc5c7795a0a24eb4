/*
 * run/decode.h: the first frame of a decoded report (decode_stacktrace.sh's
 * "func (file:line ...)" lines) in the allocator's files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <string.h>

#include "lib/decode.h"

/* The RIP line's frame when it is the allocator's, its segment dropped. */
static void test_rip_frame(void **s)
{
	struct decoded_frame f;
	const char *d =
		"[   42.000001] BUG: kernel NULL pointer dereference, address: 0000000000000000\n"
		"[   42.000002] RIP: 0010:___pcpu_freelist_pop (kernel/bpf/percpu_freelist.c:146) \n"
		"[   42.000003] Call Trace:\n"
		"[   42.000006] htab_map_update_elem (kernel/bpf/hashtab.c:1110) \n";

	(void)s;
	assert_true(decode_allocator_frame(d, &f));
	assert_string_equal(f.func, "___pcpu_freelist_pop");
	assert_string_equal(f.file, "kernel/bpf/percpu_freelist.c");
	assert_int_equal(f.line, 146);
}

/*
 * Frames outside the allocator and unreliable "?" ones are passed over; an
 * inline chain counts by any of its locations (innermost first), with the
 * symbol's name; an absolute path (a -dbg vmlinux's) is cut to the file.
 */
static void test_skips_and_inlines(void **s)
{
	struct decoded_frame f;
	const char *d =
		"[    1.0] RIP: 0010:native_queued_spin_lock_slowpath (kernel/locking/qspinlock.c:380) \n"
		"[    1.1] Code: 00 00 (bad)\n"
		"[    1.2] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian\n"
		"[    1.3] ? pcpu_freelist_push (kernel/bpf/percpu_freelist.c:92) \n"
		"[    1.4] _raw_spin_lock (include/linux/spinlock.h:187) \n"
		"[    1.5] htab_map_update_elem (/build/linux-Ab1/kernel/bpf/percpu_freelist.h:31 "
		"/build/linux-Ab1/kernel/bpf/hashtab.c:1001 (discriminator 2)) \n";

	(void)s;
	assert_true(decode_allocator_frame(d, &f));
	assert_string_equal(f.func, "htab_map_update_elem");
	assert_string_equal(f.file, "kernel/bpf/percpu_freelist.h");
	assert_int_equal(f.line, 31);
}

/* Nothing of the allocator's, undecoded frames, a file named like one: no frame. */
static void test_none(void **s)
{
	struct decoded_frame f;
	const char *d =
		"[    1.0] RIP: 0010:alg_test+0x4f/0x540\n"
		"[    1.1] cryptomgr_test (crypto/algboss.c:177) \n"
		"[    1.2] f (mykernel/bpf/hashtab.c:3) \n"
		"[    1.3] ? htab_map_update_elem (kernel/bpf/hashtab.c:1001) \n";

	(void)s;
	assert_false(decode_allocator_frame(d, &f));
	assert_string_equal(f.func, "");
	assert_false(decode_allocator_frame("", &f));
}

/*
 * A located hang (hang.txt's vCPU lines decoded): a RIP in the allocator's
 * files first, whichever CPU; else, for a CPU in a lock's slow path, the
 * first "?" frame of its stack scan, marked unreliable.
 */
static void test_hang_frame(void **s)
{
	struct decoded_frame f;
	const char *rip =
		"CPU 0: spinning RIP: 0010:native_queued_spin_lock_slowpath (kernel/locking/qspinlock.c:380)\n"
		"  ? _raw_spin_lock (include/linux/spinlock.h:187)\n"
		"CPU 1: spinning RIP: 0010:htab_map_update_elem (kernel/bpf/hashtab.c:1080)\n";
	const char *stack =
		"CPU 0: spinning RIP: 0010:native_queued_spin_lock_slowpath (kernel/locking/qspinlock.c:380)\n"
		"  ? do_raw_spin_lock (kernel/locking/spinlock_debug.c:115)\n"
		"  ? ___pcpu_freelist_push_nmi (kernel/bpf/percpu_freelist.c:57)\n"
		"CPU 1: halted RIP: 0010:default_idle (arch/x86/kernel/process.c:731)\n";

	(void)s;
	assert_true(decode_hang_frame(rip, &f));
	assert_string_equal(f.func, "htab_map_update_elem");
	assert_int_equal(f.line, 1080);
	assert_false(f.unreliable);
	assert_false(decode_allocator_frame(stack, &f));
	assert_true(decode_hang_frame(stack, &f));
	assert_string_equal(f.func, "___pcpu_freelist_push_nmi");
	assert_string_equal(f.file, "kernel/bpf/percpu_freelist.c");
	assert_int_equal(f.line, 57);
	assert_true(f.unreliable);
	assert_false(decode_hang_frame("CPU 0: halted RIP: 0010:default_idle+0x4/0x10\n", &f));
}

/* One search, one order: a variant's, a tree's and a distro kernel's files. */
static void test_kernel_files(void **s)
{
	char p[KERNEL_FILES_MAX][PATH_MAX];
	struct decode_kernel variant = { .kdir = "/b/tree-6.1-fixed", .release = "6.1.0-htab-fixed",
					 .image = "/b/6.1-fixed-abc/bzImage" };
	struct decode_kernel tree = { .tree = "/src/linux", .kdir = "/src/linux", .release = "6.13.0" };
	struct decode_kernel distro = { .tree = "", .kdir = "", .release = "6.1.0-57-amd64", .image = "" };

	(void)s;
	assert_int_equal(kernel_files(&variant, KF_SYSTEM_MAP, p, KERNEL_FILES_MAX), 3);
	assert_string_equal(p[0], "/b/6.1-fixed-abc/System.map");
	assert_string_equal(p[1], "/b/tree-6.1-fixed/System.map");
	assert_string_equal(p[2], "/boot/System.map-6.1.0-htab-fixed");
	assert_int_equal(kernel_files(&variant, KF_VMLINUX, p, KERNEL_FILES_MAX), 2);
	assert_string_equal(p[0], "/b/tree-6.1-fixed/vmlinux");
	assert_string_equal(p[1], "/usr/lib/debug/boot/vmlinux-6.1.0-htab-fixed");
	assert_int_equal(kernel_files(&tree, KF_VMLINUX, p, KERNEL_FILES_MAX), 3);
	assert_string_equal(p[0], "/src/linux/vmlinux");
	assert_int_equal(kernel_files(&distro, KF_SYSTEM_MAP, p, KERNEL_FILES_MAX), 1);
	assert_string_equal(p[0], "/boot/System.map-6.1.0-57-amd64");
	assert_int_equal(kernel_files(&distro, KF_VMLINUX, p, 1), 1);
	assert_string_equal(p[0], "/usr/lib/debug/boot/vmlinux-6.1.0-57-amd64");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rip_frame),
		cmocka_unit_test(test_skips_and_inlines),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_hang_frame),
		cmocka_unit_test(test_kernel_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
