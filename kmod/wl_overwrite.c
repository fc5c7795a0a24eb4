// SPDX-License-Identifier: GPL-2.0
/*
 * overwrite (seed 002): each worker overwrites its own, non-overlapping
 * keys (idx, idx + T, idx + 2T, ... 64 of them), BPF_ANY. After the
 * first pass every update replaces an element, which for preallocated
 * maps goes through the per-CPU extra element, not the freelist.
 *
 * Each key has one writer, so before replacing it the worker knows
 * exactly what it must hold: its own last stamp (slot_seq), or nothing.
 */
#include "htab_torture.h"

static void overwrite_step(struct ht_thread *t)
{
	unsigned int i;
	u32 key = t->idx;
	bool present;

	for (i = 0; i < HT_BATCH && key < ht.max_entries; i++) {
		/* present unless never stored (or, on an LRU map, evicted) */
		present = t->slot_seq[i];
		if (ht.verify) {
			present = ht_check(t, key, t->idx, t->slot_seq[i], false);
			if (present != !!t->slot_seq[i] &&
			    !(ht.lru && !present))
				ht_check_presence(t, key, t->slot_seq[i]);
		}
		if (!ht_update(t, key, BPF_ANY)) {
			if (!present)
				t->stats->live_delta++;
			t->slot_seq[i] = t->seq;
		}
		key += ht.nr_threads;
	}
	t->steps++;
}

static u64 overwrite_max_live(void)
{
	return min_t(u64, (u64)HT_BATCH * ht.nr_threads, ht.max_entries);
}

const struct ht_workload ht_wl_overwrite = {
	.name = "overwrite",
	.step = overwrite_step,
	.report = ht_report_per_prod_op,
	.max_live = overwrite_max_live,
};
