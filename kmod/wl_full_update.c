// SPDX-License-Identifier: GPL-2.0
/*
 * full_update (seed 000): the map is filled to capacity, then every
 * worker updates keys that are not in it, so every update of a
 * preallocated map pops an empty freelist and fails with E2BIG. This is
 * the path where 6.1's __pcpu_freelist_pop skips empty per-CPU lists.
 * A full hash map must stay full: one of these inserts succeeding means
 * an element was handed out twice (ht_update() counts it).
 */
#include "htab_torture.h"

static int full_update_setup(void)
{
	return ht_fill_for_setup(ht.max_entries);
}

/*
 * Keys max_entries and up are never in the map. A thread updates one such
 * key, its own (threads interleave), for HT_FULL_KEY_STEPS steps, then the
 * next one: as the seed's program updates one absent key per run
 * (bpf_loop's 10000 updates), so the CPUs contend on the freelist, not on
 * bucket locks, and the rate is the pop's, not that of reaching a new
 * bucket. A new key every step cost 1.5 % of the rate at 48 vCPUs under
 * TCG (bench/RESULTS.md).
 */
#define HT_FULL_KEY_STEPS	DIV_ROUND_UP(10000, HT_BATCH)

static void full_update_step(struct ht_thread *t)
{
	u32 key = ht.max_entries +
		  ((t->cursor++ / HT_FULL_KEY_STEPS * ht.nr_threads + t->idx) &
		   0x7fffffff);

	ht_update_repeat(t, key, BPF_ANY, HT_BATCH, -E2BIG);
	t->steps += HT_BATCH;
}

static void full_update_report(void)
{
	ht_report_events("hash_map_full_perf");
}

/* An LRU map makes room by evicting: only hash maps stay full. */
static bool full_update_keeps_full(void)
{
	return !ht.lru;
}

const struct ht_workload ht_wl_full_update = {
	.name = "full_update",
	.setup = full_update_setup,
	.step = full_update_step,
	.report = full_update_report,
	.keeps_full = full_update_keeps_full,
	.expected_errors = HT_ERRBIT(HT_E2BIG),
};
