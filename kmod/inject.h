/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injectors of htab_torture: kprobes/kretprobes at named kernel
 * functions, chosen by the fault= parameter (its grammar and parser in
 * fault_spec.h, shared with the harness). inject.c registers, counts and
 * reports; the injectors themselves are inject_<name>.c, one per line of
 * HT_INJECTORS.
 */
#ifndef _HT_INJECT_H
#define _HT_INJECT_H

#include <linux/cpumask.h>
#include <linux/kprobes.h>
#include <linux/prandom.h>
#include <linux/seq_buf.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/types.h>
#include "fault_spec.h"

/* Per-CPU state of one fault: the handlers run with preemption off. */
struct ht_fault_pcpu {
	u64 hits;		/* probe hits that passed the filters */
	u64 injected;		/* of those, faults injected */
	u32 every_left;		/* hits until the next every=N injection */
	u64 own;		/* the injector's own count (own_count), if any */
	struct rnd_state rnd;
};

struct ht_fault;

/* One per HT_INJECTORS line (fault_spec.h), which names it. */
struct ht_injector {
	const char *default_symbol;
	/* Register the probe disabled (so a bad symbol fails insmod). */
	int (*arm)(struct ht_fault *f);
	void (*disarm)(struct ht_fault *f);
	unsigned long (*nmissed)(const struct ht_fault *f);
	/* HT_ERRBIT() mask of the errnos an injection makes a map op return */
	u32 forces_errors;
	/* the JSON name of what ht_fault_pcpu.own counts, or NULL */
	const char *own_count;
};

struct ht_fault {
	const struct ht_injector *inj;
	int inj_id;				/* HT_INJ_*: its name */
	char spec[HT_FAULT_LEN];		/* this fault's own text */
	char symbol[HT_FAULT_SYM_LEN];
	u64 ns;					/* delay only */
	u32 p_ppb;				/* probability, parts per 1e9 */
	u64 threshold;				/* p scaled to 2^32 */
	u32 every;				/* 0: use p */
	cpumask_var_t cpus;
	struct ht_fault_pcpu __percpu *pc;
	struct kprobe *kp;			/* the probe enable/disable acts on */
	bool registered;
	union {
		struct kprobe kprobe;
		struct kretprobe kretprobe;
	};
	/* exhaust: __pcpu_freelist_push(), resolved at arm time */
	void (*push)(void *freelist, void *node);
};

#define HT_INJ_DECLARE(name, duration)	extern const struct ht_injector ht_inj_##name;
HT_INJECTORS(HT_INJ_DECLARE)
#undef HT_INJ_DECLARE

/* The worker kthread bound to each CPU while it runs its loop, or NULL. */
DECLARE_PER_CPU(struct task_struct *, ht_cpu_worker);
/* Nonzero while this module's NMI or irq caller runs map ops on this CPU. */
DECLARE_PER_CPU(unsigned int, ht_cpu_in_caller);

/*
 * Is this probe hit a worker's own map op? Not the same as in_task() and
 * current == the worker: a kprobe hit through int3 (not on an ftrace
 * site, or not yet optimized) runs its handler as an NMI (x86 since 5.8),
 * and the module's irq and NMI callers interrupt the worker, so current
 * is the worker there too.
 */
static inline bool ht_fault_from_worker(void)
{
	return current == this_cpu_read(ht_cpu_worker) && !this_cpu_read(ht_cpu_in_caller);
}

/*
 * Common filter and sampling for the handlers: on a selected CPU, count a
 * hit and decide whether to inject (every=N per CPU, else probability p
 * from a per-CPU prandom state: no locks, fine with interrupts off).
 */
static inline bool ht_fault_fire(struct ht_fault *f)
{
	struct ht_fault_pcpu *pc;

	if (!cpumask_test_cpu(smp_processor_id(), f->cpus))
		return false;
	pc = this_cpu_ptr(f->pc);
	pc->hits++;
	if (f->every) {
		if (--pc->every_left)
			return false;
		pc->every_left = f->every;
	} else if (f->p_ppb < HT_PPB &&
		   prandom_u32_state(&pc->rnd) >= f->threshold) {
		return false;
	}
	pc->injected++;
	return true;
}

/* Busy-wait ns on bpftrace's nsecs clock (NMI-safe, no seqlock retry). */
static inline void ht_fault_spin(u64 ns)
{
	u64 t0 = ktime_get_mono_fast_ns();

	while (ktime_get_mono_fast_ns() - t0 < ns)
		cpu_relax();
}

/* Undo an injection the handler could not carry out. */
static inline void ht_fault_uncount(struct ht_fault *f)
{
	this_cpu_ptr(f->pc)->injected--;
}

int ht_faults_init(void);
void ht_faults_enable(void);
void ht_faults_disable(void);
void ht_faults_cleanup(void);
const char *ht_faults_str(void);
u32 ht_faults_expected_errors(void);
u64 ht_faults_forced_e2big(void);
void ht_faults_json(struct seq_buf *s);
int ht_fault_resolve(const char *symbol, unsigned long *addr);
int ht_kprobe_offset(const struct kprobe *kp, const char *symbol,
		     unsigned int *off);
/* A plain kprobe injector's arm, disarm and nmissed (inject.c) */
int ht_fault_kprobe_arm(struct ht_fault *f, kprobe_pre_handler_t pre);
void ht_fault_kprobe_disarm(struct ht_fault *f);
unsigned long ht_fault_kprobe_nmissed(const struct ht_fault *f);

#endif /* _HT_INJECT_H */
