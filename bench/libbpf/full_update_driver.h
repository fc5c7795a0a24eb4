/* SPDX-License-Identifier: GPL-2.0 */
/*
 * full_update_driver.h - what the BPF side of full_update_driver and its
 * loader both need to know: the per-CPU counter record.
 */
#ifndef FULL_UPDATE_DRIVER_H
#define FULL_UPDATE_DRIVER_H

/* bpf_loop() refuses more iterations than this (BPF_MAX_LOOPS in 6.1). */
#define FULL_UPDATE_MAX_LOOPS (1U << 23)

/*
 * One record per CPU (a BPF per-CPU array slot), so the hot path never
 * shares a cache line with another CPU and needs no atomics.
 */
/*
 * The map's value: 16 B, the size of htab_torture's value stamp, so the
 * module and this driver copy the same bytes per update.
 */
struct full_update_value {
	__u64 index;
	__u64 pad;
};

struct full_update_stats {
	__u64 prog_runs;	/* getpgid() calls of our process seen by the prog */
	__u64 updates;		/* bpf_map_update_elem() calls made */
	__u64 update_ok;	/* ... that succeeded: must stay 0 (map is full) */
	__u64 update_e2big;	/* ... that failed with E2BIG: the expected outcome */
	__u64 update_other;	/* ... that failed with anything else */
	__u64 loop_ns;		/* time spent inside bpf_loop(), bpf_ktime_get_ns() */
	__s64 other_err;	/* the last "other" error, to say what went wrong */
	/* -m lookup (seed 004): lookups made (counted in updates too, for the
	 * rate), how many found their key, and where this CPU's sweep is. */
	__u64 lookup_hit;
	__u64 lookup_miss;
	__u32 cursor;
	__u32 pad;
};

#endif /* FULL_UPDATE_DRIVER_H */
