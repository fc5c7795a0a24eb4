// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict, run by the controller once every worker has stopped:
 * no stamp mismatch during the run, no insert into a full map, every
 * live element's stamp names its own key, as many live elements as the
 * run's inserts and deletes leave, nothing lost (delete all, then
 * exactly capacity keys fit), only the expected errors, no WARN.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/panic.h>
#include "htab_torture.h"
#include "inject.h"

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
	ht_stamp_fill(ht.ctl_value, v->capacity, HT_WRITER_CTL, ++ht.ctl_seq);
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
 * in the other CPUs' local free lists (HT_LRU_LOCAL_SLACK).
 */
static void ht_verify_lru(struct ht_verdict *v)
{
	u32 low;
	int ret;

	ht_stamp_fill(ht.ctl_value, v->capacity, HT_WRITER_CTL, ++ht.ctl_seq);
	ret = ht_map_update_raw(v->capacity, ht.ctl_value, BPF_NOEXIST);
	v->extra_insert_err = ret;
	v->found = ht_count_found(v->capacity + 1);
	v->lru_slack = min_t(u64, v->capacity, HT_LRU_LOCAL_SLACK(v->capacity));
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

/* The highest sequence @writer can have stamped, 0 for no such writer. */
static u64 ht_writer_seq(u32 writer)
{
	u64 seq;

	if (writer == HT_WRITER_CTL)
		return ht.ctl_seq;
	if (ht_callers_writer_seq(writer, &seq))
		return seq;
	return writer < ht.nr_threads ? ht.threads[writer].seq : 0;
}

/*
 * "ctl", "t3" (worker index), "n3" / "i3" (the nmi / irq caller on worker
 * 3's CPU) or the raw number of a writer field.
 */
static const char *ht_writer_name(u32 w, char *buf, size_t len)
{
	if (w == HT_WRITER_CTL)
		return "ctl";
	if (ht_callers_writer_name(w, buf, len))
		return buf;
	snprintf(buf, len, w < ht.nr_threads ? "t%u" : "%#x", w);
	return buf;
}

/* One stamp of a live element: its own key, a real writer, a past seq. */
static void ht_walk_stamp(u32 key, int cpu, const struct ht_stamp *v)
{
	struct ht_stamp s = ht_stamp_read(v);
	struct ht_verdict *vd = &ht.verdict;
	char w[16];

	/* a per-CPU slot no writer used since the insert zeroed it */
	if (ht.percpu && !s.key && !s.writer && !s.seq)
		return;
	if (s.key == key && s.seq && s.seq <= ht_writer_seq(s.writer))
		return;
	if (vd->walk_bad++)
		return;
	if (cpu < 0)
		ht_verdict_fail("live key %u holds stamp key %u writer %s seq %llu",
				key, s.key, ht_writer_name(s.writer, w, sizeof(w)), s.seq);
	else
		ht_verdict_fail("live key %u (cpu %d slot) holds stamp key %u writer %s seq %llu",
				key, cpu, s.key, ht_writer_name(s.writer, w, sizeof(w)), s.seq);
}

/*
 * Who stamped a live element (the first written slot of a per-CPU one):
 * its writer's kind, or the controller. False for a slot nobody wrote.
 */
static bool ht_walk_count(const struct ht_stamp *v)
{
	struct ht_stamp s = ht_stamp_read(v);
	u32 k = s.writer >> HT_WRITER_KIND_SHIFT;

	if (!s.key && !s.writer && !s.seq)
		return false;
	if (s.writer == HT_WRITER_CTL)
		k = HT_NR_CALLERS;
	if (k <= HT_NR_CALLERS)
		ht.verdict.live_stamps[k]++;
	return true;
}

/*
 * Run on every key by delete-all, before its delete. A no-prealloc
 * per-CPU map leaves the slots of CPUs other than the writer's with
 * whatever the memory held before: nothing to check there.
 */
static void ht_walk_visit(u32 key)
{
	struct bpf_map *map = ht.map;
	const struct ht_stamp *v;
	bool counted = false;
	int cpu;

	if (ht.percpu && !ht.prealloc)
		return;
	rcu_read_lock();
	if (!ht.percpu) {
		v = map->ops->map_lookup_elem(map, &key);
		if (v) {
			ht_walk_count(v);
			ht_walk_stamp(key, -1, v);
		}
	} else {
		for_each_possible_cpu(cpu) {
			v = map->ops->map_lookup_percpu_elem(map, &key, cpu);
			if (v) {
				counted = counted || ht_walk_count(v);
				ht_walk_stamp(key, cpu, v);
			}
		}
	}
	rcu_read_unlock();
}

static void ht_fail_bad(u64 n, const struct ht_bad *b)
{
	char w1[16], w2[16];

	ht_verdict_fail("%llu corrupt: first %s: key %u on cpu %d: want writer %s seq %llu, saw key %u writer %s seq %llu",
			n, b->what, b->key, b->cpu,
			ht_writer_name(b->want_writer, w1, sizeof(w1)),
			b->want_seq, b->seen.key,
			ht_writer_name(b->seen.writer, w2, sizeof(w2)),
			b->seen.seq);
}

/*
 * The interrupt-context callers' checks (callers.c), after the workers'.
 * Their unexpected errors and live elements join the workers' in
 * ht_verify() and ht_verify_residual().
 */
static void ht_verify_callers(const struct ht_callers_sum *cs)
{
	char w[16];

	if (cs->corrupt && cs->bad)
		ht_fail_bad(cs->corrupt, &cs->bad->bad);
	if (cs->double_alloc && cs->double_first)
		ht_verdict_fail("%llu inserts by %s succeeded on a full map (double allocation): first key %u on cpu %d",
				cs->double_alloc,
				ht_writer_name(cs->double_first->writer, w, sizeof(w)),
				cs->double_first->double_key,
				cs->double_first->cpu);
}

/* What the workers' checks counted, with the first instance named. */
static void ht_verify_run_checks(struct ht_verdict *v)
{
	const struct ht_stats *tot = ht.total;
	unsigned int i;

	if (tot->corrupt) {
		for (i = 0; i < ht.nr_threads; i++) {
			const struct ht_bad *b = &ht.threads[i].bad;

			if (!b->what)
				continue;
			ht_fail_bad(tot->corrupt, b);
			break;
		}
	}
	if (tot->double_alloc) {
		for (i = 0; i < ht.nr_threads; i++) {
			if (!ht.threads[i].stats->double_alloc)
				continue;
			ht_verdict_fail("%llu inserts succeeded on a full map (double allocation): first key %u on cpu %d",
					tot->double_alloc,
					ht.threads[i].double_key,
					ht.threads[i].cpu);
			break;
		}
	}
	/*
	 * E2BIG where the workload could not have filled the map; the
	 * ones an exhaust fault forced are not the kernel's.
	 */
	if (ht.max_live < ht.max_entries) {
		u64 forced = ht_faults_forced_e2big();
		u64 e2big = tot->err[HT_E2BIG];

		v->e2big_not_full = e2big > forced ? e2big - forced : 0;
	}
}

/*
 * Live elements left by the run: the fill plus every successful insert
 * of a new key minus every successful delete. An LRU map evicts on its
 * own, so there only the upper bound (capacity) holds.
 */
static void ht_verify_residual(struct ht_verdict *v, s64 callers_delta)
{
	s64 expect = (s64)ht.fill_ok + ht.total->live_delta + callers_delta;

	if (ht.lru) {
		if (v->residual > v->capacity)
			ht_verdict_fail("LRU: %llu live elements, capacity %u",
					v->residual, v->capacity);
		return;
	}
	v->residual_checked = true;
	v->residual_expected = expect > 0 ? expect : 0;
	if (expect < 0 || v->residual != (u64)expect)
		ht_verdict_fail("%llu live elements at the end, the run's inserts and deletes leave %lld",
				v->residual, expect);
}

void ht_verify(void)
{
	struct ht_verdict *v = &ht.verdict;
	struct ht_callers_sum cs;
	u32 key;
	int ret;

	ht_tasks_verify();
	ht_callers_sum(&cs);
	v->capacity = ht.max_entries;
	v->unexpected_errors = ht.total->unexpected + cs.unexpected +
			       ht.setup_errors;
	v->corrupt = ht.total->corrupt + cs.corrupt;
	v->double_alloc = ht.total->double_alloc + cs.double_alloc;
	if (ht.setup_errors)
		ht_verdict_fail("%llu errors while filling the map before the run",
				ht.setup_errors);
	if (ht.total->unexpected + cs.unexpected)
		ht_verdict_fail("%llu unexpected errors during the run",
				ht.total->unexpected + cs.unexpected);
	ht_verify_run_checks(v);
	ht_verify_callers(&cs);

	/* capacity plus the extra elements: more deletes mean a loop */
	ret = ht_map_delete_all(&v->residual,
				(u64)v->capacity + num_possible_cpus(),
				ht_walk_visit);
	if (ret == -EINTR)
		return;
	if (ret == -ELOOP)
		ht_verdict_fail("delete-all did not end after %llu deletes (capacity %u): corrupted chain",
				v->residual, v->capacity);
	else if (ret)
		ht_verdict_fail("delete-all failed after %llu deletes: %d",
				v->residual, ret);
	else
		ht_verify_residual(v, cs.live_delta);
	if (ret == -ELOOP)
		return;
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
