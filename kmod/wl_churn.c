// SPDX-License-Identifier: GPL-2.0
/*
 * churn: the map is filled to fill_pct of capacity, then each worker
 * inserts a key that is not in the map and deletes it again, so every
 * event is one freelist pop and one push at a chosen occupancy. With
 * verify=1 the key's stamp is checked between the two; at fill_pct=100
 * the map is full and an insert that succeeds is a double allocation.
 */
#include "htab_torture.h"

static u32 churn_fill(void)
{
	return div_u64((u64)ht.max_entries * ht.fill_pct, 100);
}

static int churn_setup(void)
{
	return ht_fill_for_setup(churn_fill());
}

static void churn_step(struct ht_thread *t)
{
	unsigned int i;
	u32 key;

	for (i = 0; i < HT_BATCH / 2; i++) {
		key = ht.max_entries +
		      ((t->cursor++ * ht.nr_threads + t->idx) & 0x7fffffff);
		if (!ht_update(t, key, BPF_NOEXIST)) {
			if (!ht.keeps_full)
				t->stats->live_delta++;
			if (ht.verify &&
			    !ht_check(t, key, t->idx, t->seq, false) && !ht.lru)
				ht_check_presence(t, key, t->seq);
			ht_delete(t, key);
		}
		t->steps++;
	}
}

static void churn_report(void)
{
	ht_report_events("churn_perf");
}

static u64 churn_max_live(void)
{
	return min_t(u64, (u64)churn_fill() + ht.nr_threads, ht.max_entries);
}

static bool churn_keeps_full(void)
{
	return !ht.lru && churn_fill() == ht.max_entries;
}

const struct ht_workload ht_wl_churn = {
	.name = "churn",
	.setup = churn_setup,
	.step = churn_step,
	.report = churn_report,
	.max_live = churn_max_live,
	.keeps_full = churn_keeps_full,
	/* a full map (fill_pct near 100) refuses the insert */
	.expected_errors = HT_ERRBIT(HT_E2BIG),
	/* an LRU map may evict the new key before its delete */
	.lru_expected_errors = HT_ERRBIT(HT_ENOENT),
};
