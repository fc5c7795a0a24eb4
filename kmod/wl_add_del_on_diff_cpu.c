// SPDX-License-Identifier: GPL-2.0
/*
 * add_del_on_diff_cpu (seed 002): workers pair up (2p, 2p + 1) on the
 * keys p, p + T/2, ...; the odd one adds (BPF_NOEXIST), the even one
 * deletes. Elements freed onto the deleter's CPU list are popped by the
 * adder from another CPU's list.
 *
 * Each key has one adder and one deleter. The deleter checks, before
 * deleting, that the key holds its adder's stamp; the adder, when its
 * insert finds the key still there, that it holds its own last stamp
 * (a race with the delete, so looked at twice: ht_check(racy)).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/printk.h>
#include "htab_torture.h"

static int add_del_on_diff_cpu_validate(void)
{
	if (ht.nr_threads % 2) {
		pr_err("workload=add_del_on_diff_cpu needs an even number of CPUs, cpus= selects %u\n",
		       ht.nr_threads);
		return -EINVAL;
	}
	return 0;
}

static void add_del_on_diff_cpu_step(struct ht_thread *t)
{
	unsigned int i, stride = ht.nr_threads / 2;
	u32 key = t->idx / 2;

	for (i = 0; i < HT_BATCH && key < ht.max_entries; i++) {
		if (t->idx & 1) {
			ht_add_owned(t, key, i);
		} else {
			if (ht.verify)
				ht_check(t, key, t->idx + 1, 0, false);
			ht_delete(t, key);
		}
		key += stride;
	}
	t->steps++;
}

static u64 add_del_on_diff_cpu_max_live(void)
{
	return min_t(u64, (u64)HT_BATCH * (ht.nr_threads / 2), ht.max_entries);
}

const struct ht_workload ht_wl_add_del_on_diff_cpu = {
	.name = "add_del_on_diff_cpu",
	.validate = add_del_on_diff_cpu_validate,
	.step = add_del_on_diff_cpu_step,
	.report = ht_report_per_prod_op,
	.max_live = add_del_on_diff_cpu_max_live,
	.expected_errors = HT_ERRBIT(HT_EEXIST) | HT_ERRBIT(HT_ENOENT),
};
