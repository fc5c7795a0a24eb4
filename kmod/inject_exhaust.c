// SPDX-License-Identifier: GPL-2.0
/*
 * exhaust: make __pcpu_freelist_pop() report an empty freelist on a map
 * that is not full (fault=exhaust[:p=P|:every=N][:cpus=LIST]), so the
 * update fails with E2BIG as if every element were in use, and lose
 * nothing doing it.
 *
 * A kretprobe on __pcpu_freelist_pop: the entry handler keeps the
 * freelist pointer (first argument) and lets only this module's workers
 * through (ht_fault_from_worker(): not its irq or NMI callers), so
 * the map's creation (alloc_extra_elems() pops and must not fail), the
 * controller's fill and verdict, other maps and bpftrace's own maps are
 * never touched. The return handler, when the pop got an element and the
 * sampler says so, pushes that element back with __pcpu_freelist_push()
 * and sets the return value to NULL.
 *
 * Why this is safe under concurrency: the popped element was unlinked
 * under its list's lock and belongs to this caller alone; the handler runs
 * on the caller's CPU with preemption off, inside alloc_htab_elem()'s
 * bucket lock with interrupts off, exactly where the caller itself could
 * have freed it (hashtab.c pushes under the bucket lock in
 * lookup_and_delete too: the bucket lock -> freelist lock order holds).
 * Interrupts are disabled around the push anyway, as pcpu_freelist_push()
 * does, in case a caller ever pops with interrupts on. The element goes
 * to this CPU's list, where a free on this CPU would put it.
 *
 * __pcpu_freelist_push is not exported: its address comes from a disabled
 * kprobe (ht_fault_resolve(), which finds the entry past IBT's ENDBR64
 * and refuses where the CPU would trap the indirect call; Debian's 6.12 is
 * built with IBT, and QEMU's TCG has no CET to enforce it). If a delay fault probes __pcpu_freelist_push too, its
 * probe does not fire inside this handler (kprobes do not nest) and counts
 * an nmissed instead.
 *
 * Observers: bpftrace's kretprobe on the same function (attached before
 * the module) returns first, so it sees the element, not the NULL.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/irqflags.h>
#include <linux/kprobes.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include "htab_torture.h"
#include "inject.h"

#define HT_EXHAUST_SYMBOL	"__pcpu_freelist_pop"
#define HT_PUSH_SYMBOL		"__pcpu_freelist_push"

struct ht_exhaust_data {
	void *freelist;
};

/* NULL while the kretprobe is being unregistered */
static struct ht_fault *ht_exhaust_fault(struct kretprobe_instance *ri)
{
	struct kretprobe *rp = get_kretprobe(ri);

	return rp ? container_of(rp, struct ht_fault, kretprobe) : NULL;
}

static int ht_exhaust_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct ht_exhaust_data *d = (struct ht_exhaust_data *)ri->data;

	/* nonzero: no return handler for this call */
	if (!ht_fault_from_worker())
		return 1;
	d->freelist = (void *)regs_get_kernel_argument(regs, 0);
	return 0;
}

static int ht_exhaust_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ht_exhaust_data *d = (struct ht_exhaust_data *)ri->data;
	struct ht_fault *f = ht_exhaust_fault(ri);
	void *node = (void *)regs_return_value(regs);
	unsigned long flags;

	if (!f || !ht_fault_fire(f))
		return 0;
	if (!node) {
		/* really empty: nothing to inject */
		ht_fault_uncount(f);
		return 0;
	}
	local_irq_save(flags);
	f->push(d->freelist, node);
	local_irq_restore(flags);
	regs_set_return_value(regs, 0);
	return 0;
}

static int ht_exhaust_arm(struct ht_fault *f)
{
	unsigned long push;
	int ret;

	if (strcmp(f->symbol, HT_EXHAUST_SYMBOL)) {
		pr_err("fault=%s: exhaust works on %s only, not %s\n",
		       f->spec, HT_EXHAUST_SYMBOL, f->symbol);
		return -EINVAL;
	}
	ret = ht_fault_resolve(HT_PUSH_SYMBOL, &push);
	if (ret) {
		pr_err("fault=%s: cannot find %s to give popped elements back: error %d\n",
		       f->spec, HT_PUSH_SYMBOL, ret);
		return -EINVAL;
	}
	f->push = (void (*)(void *, void *))push;
	f->kretprobe.kp.symbol_name = f->symbol;
	f->kretprobe.kp.flags = KPROBE_FLAG_DISABLED;
	f->kretprobe.entry_handler = ht_exhaust_entry;
	f->kretprobe.handler = ht_exhaust_ret;
	f->kretprobe.data_size = sizeof(struct ht_exhaust_data);
	/* one pop in flight per CPU (preemption is off in it), plus slack */
	f->kretprobe.maxactive = 2 * num_possible_cpus() + 8;
	f->kp = &f->kretprobe.kp;
	ret = register_kretprobe(&f->kretprobe);
	if (ret) {
		pr_err("fault=%s: cannot probe symbol %s: error %d\n",
		       f->spec, f->symbol, ret);
		return -EINVAL;
	}
	f->registered = true;
	return 0;
}

static void ht_exhaust_disarm(struct ht_fault *f)
{
	unregister_kretprobe(&f->kretprobe);
}

/* recursion misses, plus calls with no free kretprobe instance */
static unsigned long ht_exhaust_nmissed(const struct ht_fault *f)
{
	return f->kretprobe.kp.nmissed + f->kretprobe.nmissed;
}

const struct ht_injector ht_inj_exhaust = {
	.default_symbol = HT_EXHAUST_SYMBOL,
	.arm = ht_exhaust_arm,
	.disarm = ht_exhaust_disarm,
	.nmissed = ht_exhaust_nmissed,
	/* the update sees an empty freelist, as on a full map */
	.forces_errors = HT_ERRBIT(HT_E2BIG),
};
