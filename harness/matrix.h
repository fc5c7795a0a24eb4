/*
 * The matrix: the plan of cells (every axis value crossed, in a fixed order),
 * the deterministic shard slice, the host-fit rule of the scheduler, and the
 * run directory's manifest.json (the plan, its parameters, every command line
 * that ran it) with the rule for resuming a run in the same directory.
 */
#ifndef HT_MATRIX_H
#define HT_MATRIX_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include "cli.h"

struct plan_cell {
	size_t index;		/* position in the whole (unsharded) plan */
	char id[192];
	int vcpus, repeat;
	const char *workload, *kernel, *noise;
	const char *test_action;	/* NULL: none */
	const char *fault;		/* the --fault value, verbatim ("none" for none) */
};

struct plan {
	struct plan_cell *cells;
	size_t n;
};

/* Repeats outermost (a slow host drift spreads over every configuration), vCPUs innermost. */
int plan_build(const struct run_opts *o, struct plan *p);
void plan_free(struct plan *p);
/* Cell i of n shards (1-based i) takes the cells whose index mod n == i - 1. */
bool shard_selects(size_t index, int shard_i, int shard_n);
/*
 * "v%d-%s-%s-%s-r%d" (FORMAT.md) + "-f<slug>" for a fault other than none
 * (fault NULL or "none": no suffix) + "-x<action>" when a test action is set.
 */
void cell_id_format(char *out, size_t n, int vcpus, const char *workload, const char *kernel,
		    const char *noise, int repeat, const char *fault, const char *test_action);
/*
 * The cell id suffix of a fault spec: letters, digits and '_' kept, every
 * other character ('-' too, so an id stays split by '-') becomes '_'; longer
 * than FAULT_SLUG_MAX: the first FAULT_SLUG_MAX - 9 characters, '_' and 8 hex
 * digits of the spec's FNV-1a hash. "" for none.
 */
#define FAULT_SLUG_MAX 48
void fault_slug(const char *spec, char *out, size_t n);
static inline bool fault_is_none(const char *f)
{
	return !f || !*f || !strcmp(f, "none");
}

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

/*
 * Manifest. params: the run's shared parameters (anything that makes cells
 * comparable: duration, accel, target, bpftrace, modparams, kernel hashes …).
 */
json_t *manifest_build(const struct plan *p, json_t *params, int shard_i, int shard_n);
/*
 * Resume rule for a run directory that already has a manifest: the shared
 * parameters and the shard must be equal (else -1 and why in err); the plan
 * may grow (new axis values add cells, in order, after the old ones). On
 * success *merged is the manifest to write (old cells, then new ones; the
 * old "runs" history kept).
 */
int manifest_reconcile(json_t *old, json_t *want, json_t **merged, char *err, size_t errlen);
/* Append {"command": [...], "started": ISO time} to manifest.runs. */
void manifest_add_run(json_t *m, int argc, char **argv);
int manifest_write(const char *dir, json_t *m);
json_t *manifest_load(const char *dir, char *err, size_t errlen);
#endif
