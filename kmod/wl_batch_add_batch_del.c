// SPDX-License-Identifier: GPL-2.0
/*
 * batch_add_batch_del (seed 002): each worker adds its 64 keys, then
 * deletes them, so every element goes back to (and comes from) the
 * freelist of the worker's own CPU.
 */
#include "htab_torture.h"

static void batch_add_batch_del_step(struct ht_thread *t)
{
	unsigned int i;
	u32 key;

	key = t->idx;
	for (i = 0; i < HT_BATCH / 2 && key < ht.max_entries; i++) {
		ht_update(t, key, BPF_ANY);
		key += ht.nr_threads;
	}
	key = t->idx;
	for (i = 0; i < HT_BATCH / 2 && key < ht.max_entries; i++) {
		ht_delete(t, key);
		key += ht.nr_threads;
	}
	/* the seed counts the add batch and the delete batch as two ops */
	t->steps += 2;
}

const struct ht_workload ht_wl_batch_add_batch_del = {
	.name = "batch_add_batch_del",
	.step = batch_add_batch_del_step,
	.report = ht_report_per_prod_op,
	/* an LRU map may evict a neighbour's key before it deletes it */
	.lru_expected_errors = HT_ERRBIT(HT_ENOENT),
};
