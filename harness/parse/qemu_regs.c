/* QEMU's x86 register dump (see qemu_regs.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/qemu_regs.h"

/*
 * The value after " KEY=" in line l (len bytes), in base, into *v; false
 * when the line has no such field. "R8 =…" style padding is not a key here.
 */
static bool field(const char *l, size_t len, const char *key, int base, unsigned long long *v)
{
	size_t kl = strlen(key);
	char *end;

	for (const char *p = l; p + kl < l + len; p++) {
		if (strncmp(p, key, kl) || p[kl] != '=' || (p != l && p[-1] != ' '))
			continue;
		*v = strtoull(p + kl + 1, &end, base);
		return end != p + kl + 1;
	}
	return false;
}

int qemu_regs_parse(const char *text, struct vcpu_regs *v, int max)
{
	int n = 0, cpu = -1;
	struct vcpu_regs cur;
	bool have_sp = false;

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		size_t len = strcspn(l, "\n");
		unsigned long long x;
		int c;

		if (sscanf(l, "CPU#%d", &c) == 1) {
			cpu = c;
			have_sp = false;
			continue;
		}
		/* The stack pointer's line comes before the instruction pointer's. */
		if (field(l, len, "RSP", 16, &x) || field(l, len, "ESP", 16, &x)) {
			cur.sp = x;
			have_sp = true;
			continue;
		}
		cur.long_mode = field(l, len, "RIP", 16, &x);
		if (n == max || !(cur.long_mode || field(l, len, "EIP", 16, &x)))
			continue;
		cur.cpu = cpu;
		cur.ip = x;
		if (!have_sp)
			cur.sp = 0;
		if (!field(l, len, "RFL", 16, &cur.flags) && !field(l, len, "EFL", 16, &cur.flags))
			cur.flags = 0;
		cur.cpl = field(l, len, "CPL", 10, &x) ? (int)x : 0;
		cur.halted = field(l, len, "HLT", 10, &x) && x;
		v[n++] = cur;
		have_sp = false;
	}
	return n;
}

static bool spins_masked(const struct vcpu_regs *r)
{
	return !r->halted && !(r->flags & X86_EFLAGS_IF);
}

int qemu_regs_pile(const struct vcpu_regs *v, int n, unsigned long long *ip)
{
	int best = 0;

	*ip = 0;
	for (int i = 0; i < n; i++) {
		int k = 0;

		if (!spins_masked(&v[i]))
			continue;
		for (int j = 0; j < n; j++)
			k += spins_masked(&v[j]) && v[j].ip == v[i].ip;
		if (k > best || (k == best && v[i].ip < *ip)) {
			best = k;
			*ip = v[i].ip;
		}
	}
	return best;
}
