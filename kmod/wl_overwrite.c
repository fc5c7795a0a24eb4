// SPDX-License-Identifier: GPL-2.0
/*
 * overwrite (seed 002): each worker overwrites its own, non-overlapping
 * keys (idx, idx + T, idx + 2T, ... 64 of them), BPF_ANY. After the
 * first pass every update replaces an element, which for preallocated
 * maps goes through the per-CPU extra element, not the freelist.
 */
#include "htab_torture.h"

static void overwrite_step(struct ht_thread *t)
{
	unsigned int i;
	u32 key = t->idx;

	for (i = 0; i < HT_BATCH && key < ht.max_entries; i++) {
		ht_update(t, key, BPF_ANY);
		key += ht.nr_threads;
	}
	t->steps++;
}

const struct ht_workload ht_wl_overwrite = {
	.name = "overwrite",
	.step = overwrite_step,
	.report = ht_report_per_prod_op,
};
