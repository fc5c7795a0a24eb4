/*
 * Locating a stuck guest's vCPUs without a VM (run/guest/hang.h): QEMU's real
 * "info registers -a" dump parsed (parse/qemu_regs.h), its RIPs symbolised
 * with a real System.map excerpt of the same kernel (lib/symmap.h), and a
 * hang report titled by the console classifier.
 */
#include "testlib.h"

#include "lib/symmap.h"
#include "parse/console_scan.h"
#include "parse/qemu_regs.h"

/* tests/fixtures/hang: a mut-pop-no-unlink guest wedged at 4 vCPUs under TCG. */
#define REGS "info-registers-a.txt"
#define MAP "System.map.excerpt"

static void test_parse_every_vcpu(void **s)
{
	char *text = load_fixture("hang", REGS);
	struct vcpu_regs v[8];
	int n = qemu_regs_parse(text, v, 8);

	(void)s;
	assert_int_equal(n, 4);
	for (int i = 0; i < n; i++) {
		assert_int_equal(v[i].cpu, i);
		assert_true(v[i].long_mode);
		assert_int_equal(v[i].cpl, 0);
		assert_true(v[i].ip >= 0xffffffff81000000ULL);
		assert_true(v[i].sp >= 0xffff800000000000ULL);
	}
	assert_int_equal(qemu_regs_parse(text, v, 2), 2);	/* max is kept */
	free(text);
}

/* What QEMU prints for a vCPU still in the firmware's 32-bit code: EIP=, EFL=, HLT=1. */
static void test_parse_32bit_halted(void **s)
{
	static const char dump[] =
		"CPU#1\n"
		"EAX=000f49f6 EBX=00000000 ECX=000002ff EDX=00000001\n"
		"ESI=00000000 EDI=00000000 EBP=00000000 ESP=00006c5c\n"
		"EIP=000fd09a EFL=00000202 [-------] CPL=0 II=0 A20=1 SMM=0 HLT=1\n"
		"ES =0010 00000000 ffffffff 00cf9300 DPL=0 DS   [-WA]\n";
	struct vcpu_regs v[2];

	(void)s;
	assert_int_equal(qemu_regs_parse(dump, v, 2), 1);
	assert_int_equal(v[0].cpu, 1);
	assert_false(v[0].long_mode);
	assert_true(v[0].halted);
	assert_int_equal(v[0].ip, 0xfd09a);
	assert_int_equal(v[0].sp, 0x6c5c);
	assert_true(v[0].flags & X86_EFLAGS_IF);
	assert_int_equal(qemu_regs_parse("no registers here\n", v, 2), 0);
}

static void test_symbolise(void **s)
{
	char *text = load_fixture("hang", MAP), out[192];
	struct symmap m;
	const struct ksym *k;
	unsigned long long off, size, pop;

	(void)s;
	assert_int_equal(symmap_parse(&m, text), 0);
	free(text);
	assert_true(m.ntext > 0);
	pop = symmap_addr(&m, "___pcpu_freelist_pop");
	assert_true(pop != 0);
	/* An address inside the function: its name, offset and size as %pS prints them. */
	assert_true(symmap_lookup(&m, pop + 0x10, &k, &off, &size));
	assert_string_equal(k->name, "___pcpu_freelist_pop");
	assert_int_equal(off, 0x10);
	assert_true(size > 0x10);
	assert_true(symmap_format(&m, pop, out, sizeof(out)));
	assert_int_equal(strncmp(out, "___pcpu_freelist_pop+0x0/0x", 27), 0);
	/* Data, module space and anything past _etext are not text. */
	assert_false(symmap_format(&m, symmap_addr(&m, "linux_banner"), out, sizeof(out)));
	assert_string_equal(out, "");
	assert_false(symmap_format(&m, 0xffffffffc0001234ULL, out, sizeof(out)));
	assert_false(symmap_format(&m, m.etext, out, sizeof(out)));
	assert_false(symmap_format(&m, m.stext - 1, out, sizeof(out)));
	symmap_free(&m);
	/* Debian's placeholder: no text symbol at all. */
	assert_int_equal(symmap_parse(&m, "ffffffffffffffff B The real System.map is in the "
				      "linux-image-<version>-dbg package\n"), 0);
	assert_int_equal(m.ntext, 0);
	assert_false(symmap_format(&m, 0xffffffff81000000ULL, out, sizeof(out)));
	symmap_free(&m);
}

/* The real dump's RIPs land in the real map's functions. */
static void test_dump_symbolised(void **s)
{
	char *regs = load_fixture("hang", REGS), *map = load_fixture("hang", MAP), out[192];
	struct vcpu_regs v[8];
	struct symmap m;
	int n = qemu_regs_parse(regs, v, 8);

	(void)s;
	assert_int_equal(symmap_parse(&m, map), 0);
	for (int i = 0; i < n; i++) {
		assert_true(symmap_format(&m, v[i].ip, out, sizeof(out)));
		print_message("CPU %d: %s\n", v[i].cpu, out);
	}
	symmap_free(&m);
	free(regs);
	free(map);
}

/* hang.txt's title: the function most running vCPUs are in; lock internals count last. */
static void test_report_title(void **s)
{
	static const char spin[] =
		"htab-torture: hang: vCPUs running in the kernel\n"
		"guest silent for 20.3 s (its jiffies stood still for 15 s); QEMU stopped it and read 4 of 4 vCPUs\n"
		"CPU 0: running RIP: 0010:native_queued_spin_lock_slowpath+0x5a/0x1e0 RSP: ffffc90000013e48 EFLAGS: 00000046 interrupts off (kernel)\n"
		"  ? htab_map_update_elem+0x1a/0x300\n"
		"CPU 1: running RIP: 0010:___pcpu_freelist_pop+0x4d/0x1a0 RSP: ffffc90000023e48 EFLAGS: 00000046 interrupts off (kernel)\n"
		"CPU 2: halted RIP: 0010:default_idle+0xe/0x20 RSP: ffffc90000033e48 EFLAGS: 00000246 interrupts on (kernel)\n"
		"CPU 3: running RIP: 0010:___pcpu_freelist_pop+0x51/0x1a0 RSP: ffffc90000043e48 EFLAGS: 00000046 interrupts off (kernel)\n"
		"--- QEMU info registers, per vCPU ---\n"
		"CPU 9: running RIP: 0010:default_idle+0x1/0x20\n";
	static const char idle[] =
		"htab-torture: hang: every vCPU halted\n"
		"CPU 0: halted RIP: 0010:default_idle+0xe/0x20 RSP: ffffc90000033e48 EFLAGS: 00000246 interrupts on (kernel)\n";
	static const char nosym[] =
		"htab-torture: hang: vCPUs running in the kernel\n"
		"CPU 0: running RIP: 0010:0xffffffff8123abcd RSP: ffffc90000033e48 EFLAGS: 00000046 interrupts off (kernel)\n";
	/* Stuck in one function at both looks beats passing by, even one against two. */
	static const char stuck[] =
		"htab-torture: hang: vCPUs running in the kernel\n"
		"CPU 0: running RIP: 0010:lapic_next_event+0x16/0x20 RSP: ffffc90000013e48 EFLAGS: 00000046 interrupts off (kernel)\n"
		"CPU 1: running RIP: 0010:lapic_next_event+0x16/0x20 RSP: ffffc90000013e48 EFLAGS: 00000046 interrupts off (kernel)\n"
		"CPU 2: spinning RIP: 0010:htab_map_update_elem+0xcb/0x3b0 RSP: ffff888002fffe00 EFLAGS: 00000082 interrupts off (kernel)\n";
	struct console_report r;

	(void)s;
	assert_int_equal(console_scan(stuck, &r), 1);
	assert_string_equal(r.signature, "hang: CPUs spinning in htab_map_update_elem");
	assert_int_equal(console_scan(spin, &r), 1);
	assert_string_equal(crash_kind_name(r.kind), "hang");
	assert_string_equal(r.signature, "hang: CPUs spinning in ___pcpu_freelist_pop");
	assert_int_equal(console_scan(idle, &r), 1);
	assert_string_equal(r.signature, "hang: every CPU idle");
	assert_int_equal(console_scan(nosym, &r), 1);
	assert_string_equal(r.signature, "hang: CPUs spinning");
}

/*
 * The TCG boot stall's shape (hang_boot_stalled): most vCPUs at one RIP with
 * interrupts off. 12-07's 48-vCPU stall: 44 at one address, 2 and 2 at two
 * others; halted vCPUs and those with interrupts on do not count.
 */
static void test_stall_pile(void **s)
{
	struct vcpu_regs v[48];
	unsigned long long ip;

	(void)s;
	memset(v, 0, sizeof(v));
	for (int i = 0; i < 48; i++) {
		v[i].cpu = i;
		v[i].flags = 0x46;
		v[i].ip = i < 44 ? 0xffffffff81c00ba0ULL : i < 46 ? 0xffffffff81001000ULL
								    : 0xffffffff81002000ULL;
	}
	assert_int_equal(qemu_regs_pile(v, 48, &ip), 44);
	assert_true(ip == 0xffffffff81c00ba0ULL);
	/* Interrupts on, or halted: not piled up. */
	for (int i = 0; i < 40; i++) {
		if (i % 2)
			v[i].flags |= X86_EFLAGS_IF;
		else
			v[i].halted = true;
	}
	assert_int_equal(qemu_regs_pile(v, 48, &ip), 4);
	assert_true(ip == 0xffffffff81c00ba0ULL);
	/* A tie: the lower address. */
	assert_int_equal(qemu_regs_pile(v + 44, 4, &ip), 2);
	assert_true(ip == 0xffffffff81001000ULL);
	/* Nobody running with interrupts off. */
	for (int i = 0; i < 48; i++)
		v[i].halted = true;
	assert_int_equal(qemu_regs_pile(v, 48, &ip), 0);
	assert_int_equal(qemu_regs_pile(v, 0, &ip), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_every_vcpu),
		cmocka_unit_test(test_parse_32bit_halted),
		cmocka_unit_test(test_symbolise),
		cmocka_unit_test(test_dump_symbolised),
		cmocka_unit_test(test_report_title),
		cmocka_unit_test(test_stall_pile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
