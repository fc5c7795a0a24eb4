// SPDX-License-Identifier: GPL-2.0
/*
 * add_many_del_one: worker 0 deletes, every other worker adds. An adder
 * owns the keys idx, idx + T, ... (64 of them) and inserts them
 * (BPF_NOEXIST); the deleter sweeps all adders' keys. Every free lands on
 * the deleter's CPU list and every allocation, once an adder has used up
 * its own CPU's share of the preallocated elements, must come from another
 * CPU's list: all adders pop the same, nearly empty list at once. That is
 * the window of the freelist's cross-CPU races (a pop racing another pop
 * for a list's last element, a pop racing the owner's push), which the
 * paired add_del_on_diff_cpu opens far less often.
 *
 * A hash map starts full but for half the adders' keys (ballast: the
 * deleter's own keys, which it never deletes, and keys above the adders'):
 * at most half the adders' keys fit, so there are always adders whose key
 * is absent, and each delete frees one element that all of them race for.
 * One pop wins; the others find the list emptied between their lock-free
 * look and the lock (the pop's lost-race branch, which no other workload
 * reaches: `make coverage`) or every list empty (E2BIG). LRU maps evict
 * rather than run out: they start empty.
 *
 * Checks as in add_del_on_diff_cpu: the deleter sees the owning adder's
 * stamp before it deletes; an adder whose insert finds its key still there
 * sees its own last stamp (looked at twice: the deleter may be deleting).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/printk.h>
#include "htab_torture.h"

static u32 amdo_keys(void)
{
	return min_t(u32, HT_BATCH * ht.nr_threads, ht.max_entries);
}

/* An adder's key: below amdo_keys() and not the deleter's (key % T == 0). */
static bool amdo_adders_key(u32 key)
{
	return key < amdo_keys() && key % ht.nr_threads;
}

static int add_many_del_one_setup(void)
{
	u32 n = amdo_keys(), adders = 0, key, want, extra;

	if (ht.lru)
		return 0;
	for (key = 0; key < n; key++)
		adders += amdo_adders_key(key);
	/* capacity less half the adders' keys: the deleter's, then n, n + 1, ... */
	want = ht.max_entries - adders / 2;
	extra = want > n - adders ? want - (n - adders) : 0;
	return ht_fill_for_setup_except(n + extra, amdo_adders_key);
}

static int add_many_del_one_validate(void)
{
	if (ht.nr_threads < 2) {
		pr_err("workload=add_many_del_one needs at least 2 CPUs, cpus= selects %u\n",
		       ht.nr_threads);
		return -EINVAL;
	}
	return 0;
}

static void add_many_del_one_adder(struct ht_thread *t)
{
	unsigned int i;
	u32 key = t->idx;

	for (i = 0; i < HT_BATCH && key < ht.max_entries; i++) {
		ht_add_owned(t, key, i);
		key += ht.nr_threads;
	}
}

/* The deleter sweeps keys 0..amdo_keys()-1, skipping its own (key % T == 0). */
static void add_many_del_one_deleter(struct ht_thread *t)
{
	u32 n = amdo_keys(), key, i;

	for (i = 0; i < HT_BATCH; i++) {
		key = t->cursor;
		t->cursor = t->cursor + 1 < n ? t->cursor + 1 : 0;
		if (!(key % ht.nr_threads))
			continue;
		if (ht.verify)
			ht_check(t, key, key % ht.nr_threads, 0, false);
		ht_delete(t, key);
	}
}

static void add_many_del_one_step(struct ht_thread *t)
{
	if (t->idx)
		add_many_del_one_adder(t);
	else
		add_many_del_one_deleter(t);
	t->steps++;
}

static u64 add_many_del_one_max_live(void)
{
	return ht.lru ? amdo_keys() : ht.max_entries;
}

const struct ht_workload ht_wl_add_many_del_one = {
	.name = "add_many_del_one",
	.validate = add_many_del_one_validate,
	.setup = add_many_del_one_setup,
	.step = add_many_del_one_step,
	.report = ht_report_per_prod_op,
	.max_live = add_many_del_one_max_live,
	.expected_errors = HT_ERRBIT(HT_EEXIST) | HT_ERRBIT(HT_ENOENT),
};
