/*
 * QEMU's x86 register dump (HMP "info registers", "info registers -a"):
 * per vCPU the instruction pointer, stack pointer, flags, privilege level
 * and whether it is halted, as a stuck guest's CPUs are located from it.
 */
#ifndef HT_QEMU_REGS_H
#define HT_QEMU_REGS_H
#include <stdbool.h>

struct vcpu_regs {
	int cpu;			/* its "CPU#N" (-1: the dump had no header) */
	unsigned long long ip, sp;	/* RIP, RSP (EIP, ESP in 32-bit mode) */
	unsigned long long flags;	/* RFL / EFL */
	int cpl;			/* 0 kernel, 3 user space */
	bool halted;			/* HLT=1: in hlt, waiting for an interrupt */
	bool long_mode;			/* RIP= (64-bit), not EIP= */
};

#define X86_EFLAGS_IF 0x200ULL	/* interrupts enabled */

/*
 * Parses a dump of one or more vCPUs ("CPU#N" before each when there are
 * several, as -a prints it); at most max into v. Returns how many had an
 * instruction pointer line, 0 for none.
 */
int qemu_regs_parse(const char *text, struct vcpu_regs *v, int max);

/*
 * The instruction pointer most of v's vCPUs share while running with
 * interrupts off (halted ones and those with interrupts on do not count):
 * how many are there, 0 for none; *ip the address (the lowest on a tie).
 * A TCG boot stall's shape (run/guest/hang.h): 44 of 48 vCPUs at one.
 */
int qemu_regs_pile(const struct vcpu_regs *v, int n, unsigned long long *ip);
#endif
