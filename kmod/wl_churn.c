// SPDX-License-Identifier: GPL-2.0
/*
 * churn: the map is filled to fill_pct of capacity, then each worker
 * inserts a key that is not in the map and deletes it again, so every
 * event is one freelist pop and one push at a chosen occupancy.
 */
#include "htab_torture.h"

static int churn_setup(void)
{
	return ht_fill_for_setup(div_u64((u64)ht.max_entries * ht.fill_pct,
					 100));
}

static void churn_step(struct ht_thread *t)
{
	unsigned int i;
	u32 key;

	for (i = 0; i < HT_BATCH / 2; i++) {
		key = ht.max_entries +
		      ((t->cursor++ * ht.nr_threads + t->idx) & 0x7fffffff);
		if (!ht_update(t, key, BPF_NOEXIST))
			ht_delete(t, key);
		t->steps++;
	}
}

static void churn_report(void)
{
	ht_report_events("churn_perf");
}

const struct ht_workload ht_wl_churn = {
	.name = "churn",
	.setup = churn_setup,
	.step = churn_step,
	.report = churn_report,
	/* a full map (fill_pct near 100) refuses the insert */
	.expected_errors = HT_ERRBIT(HT_E2BIG),
	/* an LRU map may evict the new key before its delete */
	.lru_expected_errors = HT_ERRBIT(HT_ENOENT),
};
