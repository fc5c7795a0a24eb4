// SPDX-License-Identifier: GPL-2.0
/*
 * lockhold: hold this CPU's per-CPU freelist lock for DURATION at the
 * entry of __pcpu_freelist_pop or __pcpu_freelist_push
 * (fault=lockhold[:SYMBOL]:DURATION[:p=P|:every=N][:cpus=LIST]), from
 * this module's workers only: a locked section made long, as a slow CPU,
 * a cache miss storm or a hypervisor preemption inside one makes it.
 *
 * What it is for: map ops from NMI (callers=...+nmi) on a CPU whose lock
 * is held cannot take it and go round every CPU's list with trylock
 * (___pcpu_freelist_pop_nmi, ___pcpu_freelist_push_nmi); when every
 * CPU's lock is held at once, an NMI push parks its element on the
 * extralist (pcpu_freelist_try_push_extra) and an NMI pop tries the
 * extralist, and a later pop on an empty per-CPU list takes it from
 * there. Without a held lock those arms are never reached (issue 28's
 * coverage: 202 of 18250 NMI trylocks failed, never all at once).
 * A delay fault cannot do this: the freelist's locked sections call no
 * probeable function (the unlock is inlined without PREEMPTION).
 *
 * Both functions take the struct pcpu_freelist as their first argument;
 * its layout (kernel/bpf/percpu_freelist.h, not an installed header) is
 * the same in 6.1 and 6.12 and copied below. The handler runs in the
 * caller's context: inside alloc_htab_elem()'s bucket lock with
 * interrupts off (pop), or with interrupts off in pcpu_freelist_push()
 * (push), so the freelist lock is taken in its usual order (bucket, then
 * freelist) and with interrupts off as the freelist takes it; only NMIs
 * arrive while it is held. The per-CPU lists are not touched.
 *
 * Its own count, "extralist_nonempty": injections that found an element
 * on the map's extralist, i.e. that an NMI push had spilled there.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/spinlock.h>
#include <linux/version.h>
#include "htab_torture.h"
#include "inject.h"

/*
 * kernel/bpf/percpu_freelist.h of 6.1 and 6.12; 6.15 made the locks
 * rqspinlocks and removed the extralist, so this layout is refused there.
 */
#define HT_LOCKHOLD_KNOWN_LAYOUT	(LINUX_VERSION_CODE < KERNEL_VERSION(6, 15, 0))
struct ht_pcpu_freelist_head {
	void *first;
	raw_spinlock_t lock;
};

struct ht_pcpu_freelist {
	struct ht_pcpu_freelist_head __percpu *freelist;
	struct ht_pcpu_freelist_head extralist;
};

static int ht_lockhold_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct ht_fault *f = container_of(kp, struct ht_fault, kprobe);
	struct ht_pcpu_freelist *s;
	struct ht_pcpu_freelist_head *head;

	if (!ht_fault_from_worker() || !ht_fault_fire(f))
		return 0;
	s = (struct ht_pcpu_freelist *)regs_get_kernel_argument(regs, 0);
	head = this_cpu_ptr(s->freelist);
	raw_spin_lock(&head->lock);
	ht_fault_spin(f->ns);
	if (READ_ONCE(s->extralist.first))
		this_cpu_ptr(f->pc)->own++;
	raw_spin_unlock(&head->lock);
	return 0;
}

static int ht_lockhold_arm(struct ht_fault *f)
{
	if (!HT_LOCKHOLD_KNOWN_LAYOUT) {
		pr_err("fault=%s: lockhold knows the per-CPU freelist of 6.1..6.14 only (6.15 replaced its locks and extralist)\n",
		       f->spec);
		return -EINVAL;
	}
	if (strcmp(f->symbol, "__pcpu_freelist_pop") && strcmp(f->symbol, "__pcpu_freelist_push")) {
		pr_err("fault=%s: lockhold works on __pcpu_freelist_pop or __pcpu_freelist_push, not %s\n",
		       f->spec, f->symbol);
		return -EINVAL;
	}
	return ht_fault_kprobe_arm(f, ht_lockhold_pre);
}

const struct ht_injector ht_inj_lockhold = {
	.default_symbol = "__pcpu_freelist_pop",
	.arm = ht_lockhold_arm,
	.disarm = ht_fault_kprobe_disarm,
	.nmissed = ht_fault_kprobe_nmissed,
	.own_count = "extralist_nonempty",
};
