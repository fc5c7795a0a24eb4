// SPDX-License-Identifier: GPL-2.0
/*
 * delay: busy-wait a set number of ns at the entry of a named kernel
 * function (fault=delay[:SYMBOL]:DURATION[:p=P|:every=N][:cpus=LIST]),
 * on any task running on the selected CPUs while the run lasts.
 *
 * Delaying inside a locked region widens its race window. What the
 * caller holds when the probe fires, in Debian's 6.1
 * (kernel/bpf/hashtab.c, kernel/bpf/percpu_freelist.c), for a
 * preallocated BPF_MAP_TYPE_HASH updated by a program or by this module:
 *
 *   htab_map_update_elem      RCU read side, migration off; no lock yet.
 *                             Delays the whole update, outside any lock.
 *   alloc_htab_elem           the bucket's raw spinlock, interrupts off
 *                             (htab_lock_bucket(), also the per-CPU
 *                             map_locked counter: a program on this CPU
 *                             hitting the same bucket gets -EBUSY).
 *   __pcpu_freelist_pop       as alloc_htab_elem (its caller); it then
 *                             takes each non-empty per-CPU list's raw
 *                             spinlock in turn, and the extralist's.
 *                             The delay comes before those, so it holds
 *                             the bucket lock, not a freelist lock.
 *   __pcpu_freelist_push      called by pcpu_freelist_push() with
 *                             interrupts off, from free_htab_elem():
 *                             after the bucket unlock on delete and in
 *                             batch ops, under the bucket lock in
 *                             lookup_and_delete. It then takes this
 *                             CPU's list lock (all CPUs' trylock in NMI).
 *   free_htab_elem            as __pcpu_freelist_push, before the irq-off.
 *   native_queued_spin_lock_slowpath
 *                             a CPU about to wait for a contended
 *                             spinlock, interrupts as the locker left
 *                             them; delaying it reorders the waiters.
 *
 * Where the probe sits: not on the function's first byte when that is its
 * ftrace (fentry) site, but on the instruction after it. All kprobes at
 * one address form one aggregate whose pre_handlers run newest first, so
 * at offset 0 the delay would run before the entry probe of a bpftrace
 * attached earlier, outside the time it measures; one instruction later
 * it runs after every entry probe and before the function's own code.
 * (Doing the wait in a post_handler of the offset-0 probe orders it right
 * too, but 6.1 then disarms a shared ftrace probe through the wrong ftrace
 * ops when bpftrace detaches: "Failed to disarm kprobe-ftrace", a WARN.)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include "htab_torture.h"
#include "inject.h"

static int ht_delay_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct ht_fault *f = container_of(kp, struct ht_fault, kprobe);

	if (ht_fault_fire(f))
		ht_fault_spin(f->ns);
	return 0;
}

static int ht_delay_arm(struct ht_fault *f)
{
	return ht_fault_kprobe_arm(f, ht_delay_pre);
}

const struct ht_injector ht_inj_delay = {
	.default_symbol = "__pcpu_freelist_pop",
	.arm = ht_delay_arm,
	.disarm = ht_fault_kprobe_disarm,
	.nmissed = ht_fault_kprobe_nmissed,
};
