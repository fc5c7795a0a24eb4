/*
 * Locating a stuck guest's vCPUs without a VM (run/hang.h): QEMU's real
 * "info registers -a" dump parsed (parse/qemu_regs.h), its RIPs symbolised
 * with a real System.map excerpt of the same kernel (lib/symmap.h).
 */
#include "testlib.h"

#include "lib/symmap.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_every_vcpu),
		cmocka_unit_test(test_parse_32bit_halted),
		cmocka_unit_test(test_symbolise),
		cmocka_unit_test(test_dump_symbolised),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
