/*
 * run/decode.h: the first frame of a decoded report (decode_stacktrace.sh's
 * "func (file:line ...)" lines) in the allocator's files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rip_frame),
		cmocka_unit_test(test_skips_and_inlines),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
