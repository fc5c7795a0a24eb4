/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared state of htab_torture: the run context, worker threads, the
 * workload ops table and the map op wrappers the workloads call.
 */
#ifndef _HTAB_TORTURE_H
#define _HTAB_TORTURE_H

#include <linux/bpf.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/prandom.h>
#include <linux/rcupdate.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>
#include "compat.h"
#include "callers.h"
#include "params.h"
#include "stats.h"
#include "workloads.h"

/* Map ops per workload step: between stop checks and cond_resched(). */
#define HT_BATCH		64
/*
 * An LRU map keeps up to its local free target (kernel/bpf/bpf_lru_list.c;
 * ht_lru_local_free_target() in compat.h) free nodes in each CPU's local
 * list. When the global free list runs low, the inserting CPU shrinks
 * (evicts) before it steals from other CPUs' local lists, so a map can
 * evict while some nodes are still free. The most nodes all CPUs' local
 * lists can hold:
 */
#define HT_LRU_LOCAL_SLACK(max_entries)	\
	((u64)nr_cpu_ids * ht_lru_local_free_target(max_entries, nr_cpu_ids))
#define HT_MAX_FAILURES		8
#define HT_FAILURE_LEN		128

/*
 * The stamp every value starts with: which key it belongs to, who wrote
 * it and that writer's sequence number. A value whose stamp names
 * another key sits on an element two keys share (a double allocation);
 * one older than its writer last wrote is a lost update.
 */
struct ht_stamp {
	u32 key;
	u32 writer;		/* thread idx, or HT_WRITER_CTL */
	u64 seq;		/* the writer's own counter, from 1 */
};

#define HT_WRITER_CTL		0xfffffffeU
/*
 * An interrupt-context caller's writer id (callers.c): its kind above
 * bit 24, the worker whose CPU it runs on below. Kthreads are kind 0, so
 * their ids stay their worker index.
 */
#define HT_WRITER_KIND_SHIFT	24
#define HT_WRITER_IDX_MASK	((1U << HT_WRITER_KIND_SHIFT) - 1)
#define HT_WRITER_CALLER(kind, idx)	((u32)(kind) << HT_WRITER_KIND_SHIFT | (idx))
/*
 * Its keys: HT_CALLER_KEYS of its own, far above every workload's (those
 * stay below max_entries + 2^31), one block of 2^24 a kind.
 */
#define HT_CALLER_KEYS		4
#define HT_CALLER_KEY0(kind, idx)	(0xc0000000U + ((u32)(kind) << 24) + \
					 (idx) * HT_CALLER_KEYS)
#define HT_STAMP_MIN_VALUE	sizeof(struct ht_stamp)
static_assert(HT_STAMP_MIN_VALUE == HT_PARAM_MIN(value_size),
	      "value_size's minimum in params.h is the stamp's size");

/* The first stamp mismatch a thread saw, formatted by the verdict. */
struct ht_bad {
	const char *what;	/* NULL: none */
	u32 key;
	int cpu;
	u32 want_writer;
	u64 want_seq;
	struct ht_stamp seen;
};

/*
 * Each worker's hot state, written on every op: one cache line (or more)
 * of its own, so neighbouring workers do not share lines (false sharing
 * would bill one CPU's stores to another's latency). HT_PACKED_THREADS
 * packs them as before, only for bench/driver's before/after.
 */
#ifdef HT_PACKED_THREADS
#define ht_thread_aligned
#define HT_VALUE_ALIGN		8
#else
#define ht_thread_aligned	____cacheline_aligned_in_smp
#define HT_VALUE_ALIGN		SMP_CACHE_BYTES
#endif

struct ht_thread {
	struct task_struct *task;
	struct ht_stats *stats;
	void *value;		/* starts with a struct ht_stamp */
	unsigned int idx;	/* position in the selected CPU list */
	int cpu;
	u64 steps;		/* workload steps done (seed "events") */
	u64 seq;		/* last stamp sequence this thread wrote */
	u64 step_ops0;		/* ht_stats_ops() when the current step began */
	u32 cursor;		/* workload private */
	u32 sample_left[HT_NR_OPS];	/* ops of each kind until the next timed one */
	struct rnd_state rnd;	/* sampled timing's gaps */
	/* per owned key slot: seq of the value this thread last stored, 0: absent */
	u64 slot_seq[HT_BATCH];
	struct ht_bad bad;
	u32 double_key;		/* first key a full map took (double_alloc) */
} ht_thread_aligned;

/* The caller kinds of callers.h, as an enum: HT_CALLER_kthread, ... */
enum ht_caller_kind {
#define HT_CALLER_ENUM(name) HT_CALLER_##name,
	HT_CALLERS(HT_CALLER_ENUM)
#undef HT_CALLER_ENUM
	HT_NR_CALLERS
};

/*
 * A caller besides the workers (callers.c): an interrupt-context one, one
 * a kind a worker CPU, its state touched only on that CPU, in NMI or
 * hardirq, until the drain; or a user-space task (callers_task.c), its
 * state filled in from the task's report after the window.
 */
struct ht_caller {
	struct ht_stats *stats;
	void *value;		/* starts with a struct ht_stamp */
	u32 writer;		/* HT_WRITER_CALLER(kind, idx) */
	u32 key0;		/* its keys: key0 .. key0 + HT_CALLER_KEYS - 1 */
	unsigned int idx;	/* the worker whose CPU it runs on; task: its number */
	int cpu;		/* task: the CPU of its last call, -1 before */
	u64 seq;		/* last stamp sequence it wrote */
	u64 slot_seq[HT_CALLER_KEYS];	/* per key: seq stored, 0: absent */
	u32 slot;		/* the key of its next call */
	u64 calls;		/* NMIs handled / timer callbacks */
	u64 in_ctx;		/* of them, with in_nmi() / in_hardirq() true */
	u64 sent;		/* nmi: NMIs sent to this CPU */
	u64 sent_busy;		/* nmi: sends skipped, the last one not handled yet */
	u64 sent_ns;		/* nmi: when the last was sent (mono fast clock) */
	u64 unarmed;		/* nmi: NMIs claimed with nothing armed */
	u64 delivery_ns, delivery_max_ns;	/* nmi: send to handler entry, sum and max */
	u64 handler_ns, handler_max_ns;		/* nmi: handler entry to exit */
	atomic_t armed;		/* nmi: 1 from the send until the handler is done */
	bool attached;		/* task: said ready (holds the map's fd) */
	bool reported;		/* task: its counts are in */
	u32 pid;		/* task */
	u64 migrations;		/* task: consecutive calls on different CPUs */
	u64 nvcsw, nivcsw;	/* task: voluntary, involuntary context switches */
	struct ht_bad bad;
	u32 double_key;
} ht_thread_aligned;

/* What the verdict adds up over the interrupt-context callers. */
struct ht_callers_sum {
	u64 unexpected;
	u64 corrupt;
	u64 double_alloc;
	s64 live_delta;
	const struct ht_caller *bad;		/* first with a stamp failure */
	const struct ht_caller *double_first;	/* first with a double_alloc */
};

struct ht_workload {
	const char *name;
	/* Extra parameter checks; pr_err() and return -EINVAL on failure. */
	int (*validate)(void);
	/* Runs in the controller before the workers are released. */
	int (*setup)(void);
	/* One step of the hot loop, about HT_BATCH map ops. */
	void (*step)(struct ht_thread *t);
	/* dmesg line(s) in the seed's own format. */
	void (*report)(void);
	/*
	 * Most elements the workload can hold live at once (fill plus what
	 * the workers insert), so an E2BIG below capacity is known to have
	 * come while free elements existed. NULL: capacity.
	 */
	u64 (*max_live)(void);
	/* The workload keeps the map full: an insert of a new key is a bug. */
	bool (*keeps_full)(void);
	u32 expected_errors;		/* HT_ERRBIT() mask */
	u32 lru_expected_errors;	/* added when the map is an LRU map */
};

struct ht_verdict {
	u32 capacity;
	u64 residual_expected;	/* fill + inserts - deletes (non-LRU) */
	bool residual_checked;
	u64 e2big_not_full;	/* E2BIG while the workload held < capacity */
	u64 walk_bad;		/* stamps of live elements naming another key */
	/* live elements by their stamp's writer: each caller kind, then ctl */
	u64 live_stamps[HT_NR_CALLERS + 1];
	u64 corrupt;		/* run-time stamp failures, every caller kind */
	u64 double_alloc;	/* inserts that fit a full map, every caller kind */
	u32 reinserted;
	u32 found;
	u64 residual;		/* elements found by delete-all */
	int extra_insert_err;	/* 0: the insert past capacity succeeded */
	u64 unexpected_errors;
	int warns;
	u32 lru_slack;
	int nr_failures;
	char failures[HT_MAX_FAILURES][HT_FAILURE_LEN];
};

/* Where the controller waits with hold=1 (debugfs status names them). */
enum ht_phase {
	HT_PHASE_RUNNING,	/* not waiting */
	HT_PHASE_READY,		/* map set up, workers not released */
	HT_PHASE_MEASURED,	/* workers done, verdict not run */
};

struct ht_ctx {
	/* parameters as validated/derived */
	const struct ht_workload *wl;
	const char *map_type_name;
	enum bpf_map_type map_type;
	bool lru;
	bool percpu;
	bool prealloc;
	u32 max_entries;
	u32 value_size;
	u32 map_id;		/* of the adopted map, 0 when created */
	u32 fill_pct;
	u32 fill_ok;		/* keys the setup fill inserted */
	u32 duration_ms;
	bool verify;		/* check stamps on every lookup and replace */
	bool hold;		/* wait for the runner's gate writes (ht_hold) */
	bool keeps_full;	/* prealloc non-LRU map the workload keeps full */
	u64 max_live;
	u64 ctl_seq;		/* the controller's stamp sequence */
	int selftest;		/* enum ht_selftest */
	bool time_ops;
	u32 time_sample;	/* time one op in time_sample of each kind, on average */
	bool per_op_rcu;	/* an RCU section per op, not per step (bench A/B) */
	struct ht_hist *clock_hist;	/* back-to-back ktime_get_ns() at load */
	u32 expected_errors;
	cpumask_var_t cpus;
	unsigned int nr_threads;

	struct bpf_map *map;
	void *ctl_value;	/* value buffer of the controller */
	struct ht_thread *threads;	/* cache-line aligned, in threads_mem */
	void *threads_mem;
	struct task_struct *controller;

	wait_queue_head_t start_wq;
	wait_queue_head_t done_wq;
	atomic_t nr_running;
	bool started;
	bool stop;		/* workers: leave the hot loop */
	bool abort;		/* everyone: module is going away */
	bool done;		/* results are final */
	enum ht_phase phase;	/* hold=1: where the controller waits */
	atomic_t gate;		/* hold=1: writes to debugfs gate so far */
	wait_queue_head_t gate_wq;

	u64 start_ns;
	u64 end_ns;
	u64 duration_ns;
	u64 setup_errors;
	u64 fill_enomem_retries;	/* ht_fill_one(): no-prealloc fills */
	bool warn_at_start;
	struct ht_stats *total;
	struct ht_verdict verdict;
	char *results;
	size_t results_len;
	struct dentry *dir;
};

extern struct ht_ctx ht;

/* workloads: ht_wl_<name> in wl_<name>.c, one per line of workloads.h */
#define HT_WL_DECLARE(name) extern const struct ht_workload ht_wl_##name;
HT_WORKLOADS(HT_WL_DECLARE)
#undef HT_WL_DECLARE

/* Test-only plants, so the tests can prove the checks fire. */
enum ht_selftest {
	HT_SELFTEST_NONE, HT_SELFTEST_CORRUPT, HT_SELFTEST_DOUBLE_ALLOC,
	HT_SELFTEST_OOPS,
};

/* map.c */
int ht_map_open(u32 map_id);
void ht_map_close(void);
int ht_map_fill(u32 n, u64 flags);
int ht_map_fill_except(u32 n, u64 flags, bool (*skip)(u32 key));
int ht_map_delete_all(u64 *deleted, u64 limit, void (*visit)(u32 key));
u64 ht_map_footprint(void);

/* Raw ops, called as a BPF program calls them: RCU + migration off. */
static inline int ht_map_update_raw(u32 key, void *value, u64 flags)
{
	struct bpf_map *map = ht.map;
	int ret;

	rcu_read_lock();
	migrate_disable();
	ret = map->ops->map_update_elem(map, &key, value, flags);
	migrate_enable();
	rcu_read_unlock();
	return ret;
}

static inline int ht_map_lookup_raw(u32 key)
{
	struct bpf_map *map = ht.map;
	void *v;

	rcu_read_lock();
	migrate_disable();
	v = map->ops->map_lookup_elem(map, &key);
	migrate_enable();
	rcu_read_unlock();
	return v ? 0 : -ENOENT;
}

static inline int ht_map_delete_raw(u32 key)
{
	struct bpf_map *map = ht.map;
	int ret;

	rcu_read_lock();
	migrate_disable();
	ret = map->ops->map_delete_elem(map, &key);
	migrate_enable();
	rcu_read_unlock();
	return ret;
}

/*
 * A worker's map ops run inside its step's RCU read section with
 * migration off (ht_worker_loop), as a BPF program's ops run inside its
 * one run: the section is paid once per step, not per op. per_op_rcu=1
 * gives every op its own section again (the module before 2026-12), so
 * bench/driver can measure what the per-op section cost.
 */
static __always_inline void ht_op_section_enter(void)
{
	if (unlikely(ht.per_op_rcu)) {
		rcu_read_lock();
		migrate_disable();
	}
}

static __always_inline void ht_op_section_leave(void)
{
	if (unlikely(ht.per_op_rcu)) {
		migrate_enable();
		rcu_read_unlock();
	}
}

static __always_inline int ht_op_update_elem(u32 key, void *value, u64 flags)
{
	struct bpf_map *map = ht.map;
	int ret;

	ht_op_section_enter();
	ret = map->ops->map_update_elem(map, &key, value, flags);
	ht_op_section_leave();
	return ret;
}

static __always_inline int ht_op_delete_elem(u32 key)
{
	struct bpf_map *map = ht.map;
	int ret;

	ht_op_section_enter();
	ret = map->ops->map_delete_elem(map, &key);
	ht_op_section_leave();
	return ret;
}

/*
 * Under TCG a clock read costs as much as a map op, so timing is
 * sampled: after each timed op of a kind, the next one of that kind is
 * timed after a gap drawn uniformly from [1, 2 * time_sample - 1] ops
 * (mean time_sample). A random gap, unlike a fixed countdown, does not
 * time the same op of every step (the one after cond_resched() or the
 * deadline read, the same key in overwrite). Per kind, so a workload
 * alternating update/delete cannot alias the sampling either. Which
 * position of its step each timed op had is counted (timed_slot), so
 * the spread can be tested. 0 from ht_op_begin(): not timed.
 */
static inline u32 ht_sample_gap(struct ht_thread *t)
{
	if (ht.time_sample == 1)
		return 1;
	return 1 + prandom_u32_state(&t->rnd) % (2 * ht.time_sample - 1);
}

static inline u64 ht_op_begin(struct ht_thread *t, enum ht_op op)
{
	if (!ht.time_ops || --t->sample_left[op])
		return 0;
	t->sample_left[op] = ht_sample_gap(t);
	t->stats->timed_slot[(ht_stats_ops(t->stats) - t->step_ops0) %
			     HT_STEP_SLOTS]++;
	return ktime_get_ns();
}

static inline void ht_op_end(struct ht_thread *t, enum ht_op op, u64 t0,
			     int ret)
{
	if (t0)
		ht_hist_add(&t->stats->hist[op], ktime_get_ns() - t0);
	t->stats->ops_by[op]++;
	if (unlikely(ret))
		ht_stats_error(t->stats, ret, ht.expected_errors);
}

/* stamp.c: the slow paths of the checks below */
void ht_bad_note(struct ht_bad *b, int cpu, const char *what, u32 key,
		 u32 writer, u64 seq, const struct ht_stamp *seen);
#define HT_WRITER_ANY		0xffffffffU
bool ht_check_mismatch(struct ht_thread *t, u32 key, u32 writer, u64 seq,
		       bool racy, const struct ht_stamp *seen);
void ht_double_alloc(struct ht_thread *t, u32 key);
void ht_check_presence(struct ht_thread *t, u32 key, u64 seq);
/* Writes @value's stamp (the first 16 bytes of every value). */
static inline void ht_stamp_fill(void *value, u32 key, u32 writer, u64 seq)
{
	struct ht_stamp *s = value;

	s->key = key;
	s->writer = writer;
	s->seq = seq;
}

/* Copies a live value's stamp, field by field: a writer may be storing. */
static inline struct ht_stamp ht_stamp_read(const struct ht_stamp *v)
{
	return (struct ht_stamp){ READ_ONCE(v->key), READ_ONCE(v->writer),
				  READ_ONCE(v->seq) };
}

/*
 * Is @s what @key should hold? @writer HT_WRITER_ANY: any writer; @seq 0:
 * any sequence. On a per-CPU map the slot read is this CPU's: a value
 * another thread wrote from another CPU leaves it zeroed (preallocated
 * maps zero the other CPUs' slots on insert) or, without prealloc, stale
 * from the memory's last user, so only this thread's own writes are
 * compared exactly there.
 */
static inline bool ht_stamp_ok(const struct ht_thread *t,
			       const struct ht_stamp *s, u32 key, u32 writer,
			       u64 seq)
{
	if (ht.percpu && writer != t->idx) {
		if (!ht.prealloc)
			return true;
		if (!s->key && !s->writer && !s->seq)
			return true;
	}
	return s->key == key &&
	       (writer == HT_WRITER_ANY || s->writer == writer) &&
	       (!seq || s->seq == seq);
}

/*
 * Copy @key's stamp (this CPU's slot of a per-CPU map); false: absent.
 * Workers only: inside the step's RCU section (see ht_op_update_elem).
 */
static inline bool ht_peek(u32 key, struct ht_stamp *s)
{
	struct bpf_map *map = ht.map;
	const struct ht_stamp *v;

	ht_op_section_enter();
	v = map->ops->map_lookup_elem(map, &key);
	if (v)
		*s = ht_stamp_read(v);
	ht_op_section_leave();
	return v;
}

/*
 * With verify=1: look @key up and check its stamp. @racy: another thread
 * may delete @key meanwhile, and a preallocated element is reused at once,
 * so a mismatch is looked at twice before it counts. Returns whether @key
 * was present; a mismatch counts as corrupt (and present).
 */
static inline bool ht_check(struct ht_thread *t, u32 key, u32 writer,
			    u64 seq, bool racy)
{
	struct ht_stamp s;

	if (!ht_peek(key, &s))
		return false;
	if (likely(ht_stamp_ok(t, &s, key, writer, seq)))
		return true;
	return ht_check_mismatch(t, key, writer, seq, racy, &s);
}

/* Accounted ops, for the workers' hot loops. */

/*
 * Stamps the thread's value with (key, thread, next seq) and updates;
 * t->seq is then the stamp written. On a map the workload keeps full,
 * a successful update (always of a new key there) is a double allocation.
 */
static inline int ht_update(struct ht_thread *t, u32 key, u64 flags)
{
	u64 t0;
	int ret;

	ht_stamp_fill(t->value, key, t->idx, ++t->seq);
	t0 = ht_op_begin(t, HT_OP_UPDATE);
	ret = ht_op_update_elem(key, t->value, flags);
	if (unlikely(ht.selftest == HT_SELFTEST_DOUBLE_ALLOC) &&
	    ret == -E2BIG && !t->idx && t->seq > 1000 && !t->stats->double_alloc)
		ret = 0;	/* test-only: pretend one insert fit */
	ht_op_end(t, HT_OP_UPDATE, t0, ret);
	if (unlikely(!ret && ht.keeps_full))
		ht_double_alloc(t, key);
	return ret;
}

/*
 * @n updates of one @key with one stamp, as a program's loop makes them
 * (the seed's bpf_loop() updates one key 10000 times), each expected to
 * fail with @expected, a -errno (a success, a double allocation on a map
 * kept full, is looked at op by op). Untimed, the
 * expected failure is counted once for the run instead of op by op, and
 * the value is on the stack, as a program's is: at 48 vCPUs that
 * accounting was 3 % of the module's rate against the BPF driver
 * (bench/RESULTS.md, "Issue 27"). Timed ops, per_op_rcu=1, values over
 * HT_REPEAT_VALUE_MAX bytes and the selftest that fakes an insert go op
 * by op through ht_update().
 */
#define HT_REPEAT_VALUE_MAX	64
static inline void ht_update_repeat(struct ht_thread *t, u32 key, u64 flags,
				    unsigned int n, int expected)
{
	struct bpf_map *map = ht.map;
	u64 buf[HT_REPEAT_VALUE_MAX / sizeof(u64)];
	unsigned int i, hits = 0;
	void *value = buf;
	int ret;

	if (ht.time_ops || ht.selftest || ht.per_op_rcu ||
	    ht.value_size > sizeof(buf)) {
		for (i = 0; i < n; i++)
			ht_update(t, key, flags);
		return;
	}
	memcpy(buf, t->value, ht.value_size);
	ht_stamp_fill(value, key, t->idx, ++t->seq);
	for (i = 0; i < n; i++) {
		ret = map->ops->map_update_elem(map, &key, value, flags);
		if (likely(ret == expected && ret)) {
			hits++;
			continue;
		}
		ht_op_end(t, HT_OP_UPDATE, 0, ret);
		if (unlikely(!ret && ht.keeps_full))
			ht_double_alloc(t, key);
	}
	t->stats->ops_by[HT_OP_UPDATE] += hits;
	if (hits)
		ht_stats_errors_add(t->stats, expected, hits, ht.expected_errors);
}

/*
 * A lookup as a program makes it; with verify=1 the stamp of what it
 * found is checked against @writer (HT_WRITER_ANY: the key only).
 */
static inline int ht_lookup(struct ht_thread *t, u32 key, u32 writer)
{
	u64 t0 = ht_op_begin(t, HT_OP_LOOKUP);
	struct bpf_map *map = ht.map;
	struct ht_stamp s;
	const struct ht_stamp *v;

	ht_op_section_enter();
	v = map->ops->map_lookup_elem(map, &key);
	if (v && ht.verify)
		s = ht_stamp_read(v);
	ht_op_section_leave();
	ht_op_end(t, HT_OP_LOOKUP, t0, v ? 0 : -ENOENT);
	if (v && ht.verify && unlikely(!ht_stamp_ok(t, &s, key, writer, 0)))
		ht_check_mismatch(t, key, writer, 0, false, &s);
	return v ? 0 : -ENOENT;
}

static inline int ht_delete(struct ht_thread *t, u32 key)
{
	u64 t0 = ht_op_begin(t, HT_OP_DELETE);
	int ret = ht_op_delete_elem(key);

	ht_op_end(t, HT_OP_DELETE, t0, ret);
	if (!ret)
		t->stats->live_delta--;
	return ret;
}

/*
 * An adder's insert (BPF_NOEXIST) of a key it alone writes, kept in @slot,
 * while another thread deletes it: a success is one more live element; a
 * key still there must hold this thread's last stamp (the delete may be
 * racing, so the check looks twice).
 */
static inline void ht_add_owned(struct ht_thread *t, u32 key, unsigned int slot)
{
	int ret = ht_update(t, key, BPF_NOEXIST);

	if (!ret) {
		t->stats->live_delta++;
		t->slot_seq[slot] = t->seq;
	} else if (ret == -EEXIST && ht.verify) {
		ht_check(t, key, t->idx, t->slot_seq[slot], true);
	}
}

/* Steps per second of one thread, for the seed-format dmesg lines. */
static inline u64 ht_rate(u64 n, u64 ns)
{
	return ns ? mul_u64_u64_div_u64(n, NSEC_PER_SEC, ns) : 0;
}

/* verify.c */
void ht_verify(void);
void ht_verdict_fail(const char *fmt, ...) __printf(1, 2);

/* cpulist.c */
int ht_cpus_parse(const char *list, struct cpumask *mask);

/* htab_torture_main.c: seed-format dmesg lines shared by workloads */
void ht_report_events(const char *test_name);
void ht_report_per_prod_op(void);
int ht_fill_for_setup(u32 n);
int ht_fill_for_setup_except(u32 n, bool (*skip)(u32 key));

/* results_json.c */
struct seq_buf;
int ht_results_build(void);
void ht_json_errors(struct seq_buf *s, const struct ht_stats *st);
void ht_json_rate(struct seq_buf *s, u64 n, u64 ns);

/* callers.c */
int ht_callers_parse(const char *s, u32 period_us, int tasks_per_cpu);
bool ht_callers_has(enum ht_caller_kind k);
const char *ht_caller_name(enum ht_caller_kind k);
const char *ht_callers_str(void);
int ht_callers_check_map(void);
int ht_callers_init(void);
void ht_callers_start(struct ht_thread *t);
void ht_callers_stop(struct ht_thread *t);
void ht_callers_drain(void);
void ht_callers_cleanup(void);
u64 ht_callers_max_live(void);
bool ht_callers_writer_seq(u32 writer, u64 *seq);
bool ht_callers_writer_name(u32 writer, char *buf, size_t len);
void ht_callers_sum(struct ht_callers_sum *sum);
void ht_callers_json(struct seq_buf *s);
struct ht_caller *ht_callers_of(enum ht_caller_kind k, unsigned int *n);
u32 ht_callers_tasks_per_cpu(void);

/* callers_task.c: the task kind's side of kmod/tasks_proto.h */
void ht_tasks_debugfs(struct dentry *dir);
void ht_tasks_wait_attached(void);
void ht_tasks_wait_reports(void);
void ht_tasks_abort(void);
void ht_tasks_verify(void);
void ht_tasks_json(struct seq_buf *s, const struct ht_caller *c, unsigned int n);

#endif /* _HTAB_TORTURE_H */
