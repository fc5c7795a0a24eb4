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
#include <linux/rcupdate.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>
#include "stats.h"

/* Map ops per workload step: between stop checks and cond_resched(). */
#define HT_BATCH		64
#define HT_MAX_FAILURES		8
#define HT_FAILURE_LEN		128

struct ht_thread {
	struct task_struct *task;
	struct ht_stats *stats;
	void *value;
	unsigned int idx;	/* position in the selected CPU list */
	int cpu;
	u64 steps;		/* workload steps done (seed "events") */
	u32 cursor;		/* workload private */
	u32 sample_left[HT_NR_OPS];	/* ops of each kind until the next timed one */
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
	u32 expected_errors;		/* HT_ERRBIT() mask */
	u32 lru_expected_errors;	/* added when the map is an LRU map */
};

struct ht_verdict {
	u32 capacity;
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
	u32 duration_ms;
	bool time_ops;
	u32 time_sample;	/* time one op in time_sample of each kind */
	u32 expected_errors;
	cpumask_var_t cpus;
	unsigned int nr_threads;

	struct bpf_map *map;
	void *ctl_value;	/* value buffer of the controller */
	struct ht_thread *threads;
	struct task_struct *controller;

	wait_queue_head_t start_wq;
	wait_queue_head_t done_wq;
	atomic_t nr_running;
	bool started;
	bool stop;		/* workers: leave the hot loop */
	bool abort;		/* everyone: module is going away */
	bool done;		/* results are final */

	u64 start_ns;
	u64 end_ns;
	u64 duration_ns;
	u64 setup_errors;
	bool warn_at_start;
	struct ht_stats *total;
	struct ht_verdict verdict;
	char *results;
	size_t results_len;
	struct dentry *dir;
};

extern struct ht_ctx ht;

/* workloads */
extern const struct ht_workload ht_wl_full_update;
extern const struct ht_workload ht_wl_overwrite;
extern const struct ht_workload ht_wl_batch_add_batch_del;
extern const struct ht_workload ht_wl_add_del_on_diff_cpu;
extern const struct ht_workload ht_wl_lookup;
extern const struct ht_workload ht_wl_churn;

/* map.c */
int ht_map_open(u32 map_id);
void ht_map_close(void);
int ht_map_fill(u32 n, u64 flags);
int ht_map_delete_all(u64 *deleted);

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
 * Under TCG a clock read costs as much as a map op, so timing can be
 * sampled: one op in time_sample of each kind is timed (per kind, so a
 * workload alternating update/delete cannot alias a sampling period).
 * 0 from ht_op_begin() means "not timed".
 */
static inline u64 ht_op_begin(struct ht_thread *t, enum ht_op op)
{
	if (!ht.time_ops || --t->sample_left[op])
		return 0;
	t->sample_left[op] = ht.time_sample;
	return ktime_get_ns();
}

static inline void ht_op_end(struct ht_thread *t, enum ht_op op, u64 t0,
			     int ret)
{
	if (t0)
		ht_hist_add(&t->stats->hist[op], ktime_get_ns() - t0);
	t->stats->ops++;
	if (unlikely(ret))
		ht_stats_error(t->stats, ret, ht.expected_errors);
}

/* Accounted ops, for the workers' hot loops. */
static inline int ht_update(struct ht_thread *t, u32 key, u64 flags)
{
	u64 t0 = ht_op_begin(t, HT_OP_UPDATE);
	int ret = ht_map_update_raw(key, t->value, flags);

	ht_op_end(t, HT_OP_UPDATE, t0, ret);
	return ret;
}

static inline int ht_lookup(struct ht_thread *t, u32 key)
{
	u64 t0 = ht_op_begin(t, HT_OP_LOOKUP);
	int ret = ht_map_lookup_raw(key);

	ht_op_end(t, HT_OP_LOOKUP, t0, ret);
	return ret;
}

static inline int ht_delete(struct ht_thread *t, u32 key)
{
	u64 t0 = ht_op_begin(t, HT_OP_DELETE);
	int ret = ht_map_delete_raw(key);

	ht_op_end(t, HT_OP_DELETE, t0, ret);
	return ret;
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

/* results_json.c */
int ht_results_build(void);

#endif /* _HTAB_TORTURE_H */
