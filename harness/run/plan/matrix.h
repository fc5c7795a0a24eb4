/*
 * The matrix of a `run`: the plan of cells (every axis value crossed, in a
 * fixed order), the deterministic shard slice and the host-fit rule of the
 * scheduler.
 */
#ifndef HT_MATRIX_H
#define HT_MATRIX_H
#include <stdbool.h>
#include <stddef.h>
#include "run/plan/cli.h"
#include "rundir/manifest.h"

/* Repeats outermost (a slow host drift spreads over every configuration), vCPUs innermost. */
int plan_build(const struct run_opts *o, struct plan *p);
/* Cell i of n shards (1-based i) takes the cells whose index mod n == i - 1. */
bool shard_selects(size_t index, int shard_i, int shard_n);
/* What the scheduler knows about the host and about what is running. */
struct host_res {
	int cores;
	long mem_avail_mb;	/* MemAvailable at the start of the run */
};
struct sched_load {
	int running;		/* cells */
	int vcpus;		/* sum over running cells */
	long mem_mb;		/* sum of guest RAM over running cells */
};
/*
 * May a cell of vcpus/mem_mb start now? Always when nothing runs (a cell
 * larger than the host still runs, alone). With jobs > 0: while fewer than
 * jobs run. Else: the running vCPUs plus its own fit in max(cores, its
 * vCPUs), and the guests' RAM stays within 70% of MemAvailable.
 */
bool sched_fits(const struct host_res *h, const struct sched_load *l, int vcpus, long mem_mb,
		int jobs);
/* Host cores (online) and MemAvailable from /proc/meminfo (MB). */
void host_res_detect(struct host_res *h);

#endif
