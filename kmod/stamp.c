// SPDX-License-Identifier: GPL-2.0
/*
 * The slow paths of the value stamps (struct ht_stamp): what happens when
 * a check in the hot loop fails, and the stamp the controller writes.
 * The hot-path checks themselves are inline in htab_torture.h.
 */
#include <linux/string.h>
#include "htab_torture.h"

/* The first check failure of a caller, kept for the verdict's message. */
void ht_bad_note(struct ht_bad *b, int cpu, const char *what, u32 key,
		 u32 writer, u64 seq, const struct ht_stamp *seen)
{
	if (b->what)
		return;
	b->what = what;
	b->key = key;
	b->cpu = cpu;
	b->want_writer = writer;
	b->want_seq = seq;
	if (seen)
		b->seen = *seen;
}

/*
 * A stamp did not match. Where a mismatch can be legal — an LRU map may
 * evict the key and hand its element to another key at once, and on keys
 * another thread deletes the element may be freed and reused while we
 * read it — look again: a key now absent, or now holding the expected
 * stamp, was such a race. Otherwise it is corruption: the element holds
 * another key's value (two keys on one element), another writer's, or an
 * older one (a lost update).
 */
bool ht_check_mismatch(struct ht_thread *t, u32 key, u32 writer, u64 seq,
		       bool racy, const struct ht_stamp *seen)
{
	struct ht_stamp again;

	if (racy || ht.lru) {
		if (!ht_peek(key, &again)) {
			t->stats->stamp_races++;
			return false;
		}
		if (ht_stamp_ok(t, &again, key, writer, seq)) {
			t->stats->stamp_races++;
			return true;
		}
		seen = &again;
	}
	t->stats->corrupt++;
	ht_bad_note(&t->bad, t->cpu, "stamp mismatch", key, writer, seq, seen);
	return true;
}

/* An insert of a new key succeeded on a map the workload keeps full. */
void ht_double_alloc(struct ht_thread *t, u32 key)
{
	if (!t->stats->double_alloc++)
		t->double_key = key;
	t->stats->live_delta++;
}

/*
 * A key with one writer is present exactly when that writer last stored
 * it (@seq != 0) on a map that never evicts: anything else lost a stored
 * element or shows one nobody stored.
 */
void ht_check_presence(struct ht_thread *t, u32 key, u64 seq)
{
	t->stats->corrupt++;
	ht_bad_note(&t->bad, t->cpu,
		    seq ? "stored key missing" : "key present though never stored",
		    key, t->idx, seq, NULL);
}
