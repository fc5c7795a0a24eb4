/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parameters of htab_torture.ko, one row each: the only statement of
 * their names, types, defaults, bounds and help, and the list of the map
 * types the module creates. The module expands the rows into its
 * module_param()/MODULE_PARM_DESC() lines and its bounds checks
 * (kmod/htab_torture_main.c); the harness into its defaults
 * (harness/rundir/axes.c, harness/run/plan/guest_mem.h), the bounds of the
 * options that mirror a parameter, the check of --modparam and --help
 * (harness/run/plan/cli.c). fault= has a grammar of its own (kmod/fault_spec.h).
 *
 * A row is HT_P_<name>(X), which expands X(type, name, default, min,
 * max, help); HT_PARAMS(X) is every row. type is int or charp. An int
 * is valid in min..max, or at its default (tasks_per_cpu's -1: derive
 * it); min, max and an int's default are written as plain literals, so
 * that # spells them in help texts. A charp's min and max are 0 and its
 * value is checked against its own list. Adding an int parameter the
 * harness validates: its row here, and the module's use of it.
 *
 * Plain preprocessor, no kernel types or includes, so host C can include it.
 */
#ifndef HT_PARAMS_H
#define HT_PARAMS_H

#include "callers.h"
#include "workloads.h"

#define HT_STR_(x)	#x
#define HT_STR(x)	HT_STR_(x)
/* " name" per entry of a list whose X takes the name first. */
#define HT_SPACE_NAME(name, ...)	" " #name

/*
 * The map types: X(name, BPF_MAP_TYPE_ suffix, lru, percpu). A value of
 * map_type= and of --map-type; the first is the default.
 */
#define HT_MAP_TYPES(X)					\
	X(hash, HASH, 0, 0)				\
	X(percpu_hash, PERCPU_HASH, 0, 1)		\
	X(lru_hash, LRU_HASH, 1, 0)			\
	X(lru_percpu_hash, LRU_PERCPU_HASH, 1, 1)

#define HT_P_workload(X)	X(charp, workload, "full_update", 0, 0,	\
	"One of:" HT_WORKLOADS(HT_SPACE_NAME))
#define HT_P_map_type(X)	X(charp, map_type, "hash", 0, 0,		\
	"One of:" HT_MAP_TYPES(HT_SPACE_NAME))
#define HT_P_cpus(X)		X(charp, cpus, "", 0, 0,			\
	"cpulist of worker CPUs (\"\" or -1: all online)")
#define HT_P_prealloc(X)	X(int, prealloc, 1, 0, 1,			\
	"Preallocate elements (0: BPF_F_NO_PREALLOC; LRU needs 1)")
#define HT_P_max_entries(X)	X(int, max_entries, 4096, 1, 2097152,		\
	"Map capacity")
/* min: sizeof(struct ht_stamp), checked where it is declared */
#define HT_P_value_size(X)	X(int, value_size, 16, 16, 4096,		\
	"Value size in bytes; every value starts with a 16-byte stamp")
#define HT_P_duration_ms(X)	X(int, duration_ms, 3000, 100, 600000,	\
	"Run time in ms, measured with ktime")
#define HT_P_time_ops(X)	X(int, time_ops, 1, 0, 1,			\
	"Time map ops into latency histograms")
/*
 * time_sample's default: one op in 16 of each kind timed on average. Chosen
 * with bench/timing so timing costs <= 5 % of ops/s under TCG while a 3 s
 * cell still gathers > 10^4 samples (bench/RESULTS.md).
 */
#define HT_P_time_sample(X)	X(int, time_sample, 16, 1, 1000000,		\
	"With time_ops=1, time one op in N of each kind on average, the gap drawn uniformly from 1..2N-1; 1: every op")
#define HT_P_per_op_rcu(X)	X(int, per_op_rcu, 0, 0, 1,			\
	"An RCU read section + migrate_disable around each map op (1: the module before 2026-12) instead of one per step of 64 ops (0, as a BPF program's run); for bench/driver's A/B")
#define HT_P_fill_pct(X)	X(int, fill_pct, 50, 0, 100,			\
	"churn: map occupancy in percent before the run")
#define HT_P_verify(X)		X(int, verify, 1, 0, 1,			\
	"Check the stamp of every value a lookup finds or an update replaces; the end-of-run checks always run")
#define HT_P_selftest(X)	X(charp, selftest, "none", 0, 0,		\
	"Test-only plant, to prove the checks fire: none corrupt (rewrite key 0's stamp) double_alloc (report one E2BIG as success) oops (NULL dereference in worker 0)")
#define HT_P_hold(X)		X(int, hold, 0, 0, 1,				\
	"Wait for the runner at two points, for coverage snapshots: after the setup (status ready) and after the workers, before the verdict (status measured); a write to debugfs gate goes on")
#define HT_P_callers(X)		X(charp, callers, HT_CALLERS_DEFAULT, 0, 0,	\
	"Who calls the map, kinds joined with + (kthread first, always there; e.g. kthread+nmi):" HT_CALLERS(HT_SPACE_NAME) " (kmod/callers.h)")
#define HT_P_caller_period_us(X) X(int, caller_period_us, 100, 1, 1000000,	\
	"With callers nmi or irq: each worker CPU's hrtimer period in us; each expiry does the irq ops and sends the next worker CPU its NMI")
#define HT_P_tasks_per_cpu(X)	X(int, tasks_per_cpu, -1, 1, 64,		\
	"With callers task: user-space tasks per worker CPU calling the map through bpf() (-1: " HT_STR(HT_TASKS_PER_CPU_DEFAULT) " with task, none without)")
#define HT_P_map_id(X)		X(int, map_id, 0, 0, 2147483647,		\
	"Adopt this existing hash map (u32 keys) instead of creating one; the verdict empties and refills it (0: create)")

#define HT_PARAMS(X)							\
	HT_P_workload(X) HT_P_map_type(X) HT_P_cpus(X) HT_P_prealloc(X)	\
	HT_P_max_entries(X) HT_P_value_size(X) HT_P_duration_ms(X)	\
	HT_P_time_ops(X) HT_P_time_sample(X) HT_P_per_op_rcu(X)		\
	HT_P_fill_pct(X) HT_P_verify(X) HT_P_selftest(X) HT_P_hold(X)	\
	HT_P_callers(X) HT_P_caller_period_us(X) HT_P_tasks_per_cpu(X)	\
	HT_P_map_id(X)

/* One field of one row: HT_PARAM_MAX(max_entries) is 2097152. */
#define HT_PF_DEFAULT(type, name, dflt, min, max, help)	dflt
#define HT_PF_MIN(type, name, dflt, min, max, help)	min
#define HT_PF_MAX(type, name, dflt, min, max, help)	max
#define HT_PF_DEFAULT_STR(type, name, dflt, min, max, help) HT_PARAM_STR_##type(dflt)
#define HT_PF_RANGE_STR(type, name, dflt, min, max, help)	#min ".." #max
#define HT_PARAM_STR_int(v)	#v
#define HT_PARAM_STR_charp(v)	v
#define HT_PARAM_DEFAULT(name)		HT_P_##name(HT_PF_DEFAULT)
#define HT_PARAM_MIN(name)		HT_P_##name(HT_PF_MIN)
#define HT_PARAM_MAX(name)		HT_P_##name(HT_PF_MAX)
/* String literals: "4096", "hash"; "1..2097152". */
#define HT_PARAM_DEFAULT_STR(name)	HT_P_##name(HT_PF_DEFAULT_STR)
#define HT_PARAM_RANGE_STR(name)	HT_P_##name(HT_PF_RANGE_STR)

/*
 * Per type: HT_PARAM_IF_int(...) is its arguments, HT_PARAM_IF_charp(...)
 * nothing, so an X can expand the int rows alone
 * (HT_PARAM_IF_##type({ #name, min, max },)).
 */
#define HT_PARAM_IF_int(...)	__VA_ARGS__
#define HT_PARAM_IF_charp(...)
/* The description modinfo shows: an int's help ends with its bounds and default. */
#define HT_PARAM_DESC_int(help, dflt, min, max)	\
	help " (" #min ".." #max ", default " #dflt ")"
#define HT_PARAM_DESC_charp(help, dflt, min, max)	help

#endif /* HT_PARAMS_H */
