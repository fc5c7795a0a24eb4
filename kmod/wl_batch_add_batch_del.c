// SPDX-License-Identifier: GPL-2.0
/*
 * batch_add_batch_del (seed 002): each worker adds its 32 keys, then
 * deletes them, so every element goes back to (and comes from) the
 * freelist of the worker's own CPU. Only what the add stored is deleted
 * (an add may fail with E2BIG, e.g. under fault=exhaust), and with
 * verify=1 each key's stamp is checked before its delete.
 */
#include "htab_torture.h"

#define HT_BATCH_KEYS	(HT_BATCH / 2)

static void batch_add_batch_del_step(struct ht_thread *t)
{
	unsigned int i;
	u32 key;

	key = t->idx;
	for (i = 0; i < HT_BATCH_KEYS && key < ht.max_entries; i++) {
		if (!ht_update(t, key, BPF_ANY)) {
			/* the previous step deleted it: this was an insert */
			t->stats->live_delta++;
			t->slot_seq[i] = t->seq;
		}
		key += ht.nr_threads;
	}
	key = t->idx;
	for (i = 0; i < HT_BATCH_KEYS && key < ht.max_entries; i++) {
		if (t->slot_seq[i]) {
			if (ht.verify &&
			    !ht_check(t, key, t->idx, t->slot_seq[i], false) &&
			    !ht.lru)
				ht_check_presence(t, key, t->slot_seq[i]);
			ht_delete(t, key);
			t->slot_seq[i] = 0;
		}
		key += ht.nr_threads;
	}
	/* the seed counts the add batch and the delete batch as two ops */
	t->steps += 2;
}

static u64 batch_add_batch_del_max_live(void)
{
	return min_t(u64, (u64)HT_BATCH_KEYS * ht.nr_threads, ht.max_entries);
}

const struct ht_workload ht_wl_batch_add_batch_del = {
	.name = "batch_add_batch_del",
	.step = batch_add_batch_del_step,
	.report = ht_report_per_prod_op,
	.max_live = batch_add_batch_del_max_live,
	/* an LRU map may evict a neighbour's key before it deletes it */
	.lru_expected_errors = HT_ERRBIT(HT_ENOENT),
};
