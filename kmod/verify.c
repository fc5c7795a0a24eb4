// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict, run by the controller once every worker has stopped:
 * nothing lost (delete all, then exactly capacity keys fit), only the
 * workload's expected errors, no WARN during the run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/panic.h>
#include "htab_torture.h"

/*
 * An LRU map keeps up to LOCAL_FREE_TARGET (kernel/bpf/bpf_lru_list.c)
 * free nodes in each CPU's local list. When the global free list runs
 * low, the inserting CPU shrinks (evicts) before it steals from other
 * CPUs' local lists, so a map can evict while some nodes are still free.
 */
#define HT_LRU_LOCAL_FREE_TARGET	128

void ht_verdict_fail(const char *fmt, ...)
{
	struct ht_verdict *v = &ht.verdict;
	va_list args;

	if (v->nr_failures >= HT_MAX_FAILURES)
		return;
	va_start(args, fmt);
	vsnprintf(v->failures[v->nr_failures], HT_FAILURE_LEN, fmt, args);
	va_end(args);
	pr_err("check failed: %s\n", v->failures[v->nr_failures]);
	v->nr_failures++;
}

static u32 ht_count_found(u32 n)
{
	u32 key, found = 0;

	for (key = 0; key < n; key++) {
		if (!ht_map_lookup_raw(key))
			found++;
		if (!(key % 256)) {
			cond_resched();
			if (READ_ONCE(ht.abort))
				break;
		}
	}
	return found;
}

/*
 * Hash maps (prealloc: the freelist holds exactly max_entries elements;
 * no prealloc: htab->count is checked against max_entries): after
 * delete-all, keys 0..cap-1 all insert, every one is found, and key cap
 * fails with E2BIG.
 */
static void ht_verify_hash(struct ht_verdict *v)
{
	int ret;

	v->found = ht_count_found(v->capacity);
	ret = ht_map_update_raw(v->capacity, ht.ctl_value, BPF_NOEXIST);
	v->extra_insert_err = ret;
	if (v->reinserted != v->capacity)
		ht_verdict_fail("reinserted %u of capacity %u after delete-all",
				v->reinserted, v->capacity);
	if (v->found != v->capacity)
		ht_verdict_fail("found %u of %u reinserted keys",
				v->found, v->capacity);
	if (ret != -E2BIG)
		ht_verdict_fail("insert past capacity returned %d, expected -E2BIG",
				ret);
}

/*
 * LRU maps never fail an insert for lack of room: they evict. What holds
 * after delete-all is: every one of cap NOEXIST inserts succeeds (an
 * -ENOMEM means nodes were lost), the extra insert succeeds too, and the
 * keys still present are at most cap and at least cap minus what may sit
 * in the other CPUs' local free lists (see HT_LRU_LOCAL_FREE_TARGET).
 */
static void ht_verify_lru(struct ht_verdict *v)
{
	u32 low;
	int ret;

	ret = ht_map_update_raw(v->capacity, ht.ctl_value, BPF_NOEXIST);
	v->extra_insert_err = ret;
	v->found = ht_count_found(v->capacity + 1);
	v->lru_slack = min_t(u32, v->capacity,
			     nr_cpu_ids * HT_LRU_LOCAL_FREE_TARGET);
	low = v->capacity - v->lru_slack;
	if (v->reinserted != v->capacity)
		ht_verdict_fail("LRU: %u of %u NOEXIST inserts succeeded after delete-all",
				v->reinserted, v->capacity);
	if (ret)
		ht_verdict_fail("LRU: insert past capacity returned %d, expected eviction",
				ret);
	if (v->found > v->capacity || v->found < low)
		ht_verdict_fail("LRU: %u keys present, expected %u..%u",
				v->found, low, v->capacity);
}

void ht_verify(void)
{
	struct ht_verdict *v = &ht.verdict;
	u32 key;
	int ret;

	v->capacity = ht.max_entries;
	v->unexpected_errors = ht.total->unexpected + ht.setup_errors;
	if (ht.setup_errors)
		ht_verdict_fail("%llu errors while filling the map before the run",
				ht.setup_errors);
	if (ht.total->unexpected)
		ht_verdict_fail("%llu unexpected errors during the run",
				ht.total->unexpected);

	ret = ht_map_delete_all(&v->residual);
	if (ret == -EINTR)
		return;
	if (ret)
		ht_verdict_fail("delete-all failed after %llu deletes: %d",
				v->residual, ret);
	rcu_read_lock();
	ret = ht.map->ops->map_get_next_key(ht.map, NULL, &key);
	rcu_read_unlock();
	if (ret != -ENOENT)
		ht_verdict_fail("map not empty after delete-all (key %u)", key);

	ret = ht_map_fill(v->capacity, BPF_NOEXIST);
	if (ret == -EINTR)
		return;
	v->reinserted = v->capacity - ret;
	if (ht.lru)
		ht_verify_lru(v);
	else
		ht_verify_hash(v);

	if (test_taint(TAINT_WARN) && !ht.warn_at_start) {
		v->warns = 1;
		ht_verdict_fail("a WARN fired during the run (TAINT_WARN set)");
	}
}
