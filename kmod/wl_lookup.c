// SPDX-License-Identifier: GPL-2.0
/*
 * lookup (seed 004): the map is filled with keys 0..max_entries-1, then
 * every worker sweeps it in key order, 32 lookups per event, wrapping
 * to key 0 like map_perf_test's lru_hash_lookup test.
 * Every key was stored by the controller: with verify=1 each hit is
 * checked to hold its key and the controller's stamp.
 */
#include "htab_torture.h"

#define HT_LOOKUPS_PER_EVENT	32

static int lookup_setup(void)
{
	return ht_fill_for_setup(ht.max_entries);
}

static void lookup_step(struct ht_thread *t)
{
	unsigned int i, j;

	for (j = 0; j < HT_BATCH / HT_LOOKUPS_PER_EVENT; j++) {
		for (i = 0; i < HT_LOOKUPS_PER_EVENT; i++)
			ht_lookup(t, t->cursor + i, HT_WRITER_CTL);
		if (t->cursor + HT_LOOKUPS_PER_EVENT < ht.max_entries)
			t->cursor += HT_LOOKUPS_PER_EVENT;
		else
			t->cursor = 0;
		t->steps++;
	}
}

static void lookup_report(void)
{
	char name[48];

	snprintf(name, sizeof(name), "%s_lookup_perf %s", ht.map_type_name,
		 ht.prealloc ? "pre-alloc" : "no-prealloc");
	ht_report_events(name);
}

const struct ht_workload ht_wl_lookup = {
	.name = "lookup",
	.setup = lookup_setup,
	.step = lookup_step,
	.report = lookup_report,
	/*
	 * Keys past max_entries (a map smaller than 32) and keys an LRU map
	 * evicted while it was being filled are misses, as in the seed.
	 */
	.expected_errors = HT_ERRBIT(HT_ENOENT),
};
