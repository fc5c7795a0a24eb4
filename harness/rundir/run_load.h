/*
 * The in-memory view of one run directory that report and compare read:
 * its cells (parameters, verdict, signature, the module's figures and
 * histograms, bpftrace's histograms) and the groups of repeats over which
 * means and spreads are taken. Missing files leave a cell partial, never
 * fail the load.
 */
#ifndef HT_RUN_LOAD_H
#define HT_RUN_LOAD_H
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/histogram.h"
#include "rundir/axes.h"

struct rep_hist {
	char *name;	/* module: the op ("update"); bpftrace: "@map" or "@map[key]" */
	char *script;	/* bpftrace script name, NULL for the module's */
	char *map;	/* bpftrace map name ("@ns") */
	char *key;	/* bpftrace map key ("3") or NULL */
	struct hist h;
};

struct rep_cpu {
	int cpu;
	uint64_t ops;
	double ops_per_sec;
};

struct rep_cell {
	char *id, *dir;			/* dir NULL: only in summary.json */
	int vcpus, repeat;
	/* Every axis (axes.h), owned: cell.json, else the module's params, the
	   modparams, the cell id, the default; fault "none" for none. */
	AXIS_VALUES(axis_str);
	char *accel;
	char *verdict;			/* PASS FAIL CRASH TIMEOUT SKIP, or INCOMPLETE */
	char *signature, *reason;	/* NULL when none recorded */
	char *module_result;		/* module's SUCCESS/FAILURE, NULL without module.json */
	char *module_note;		/* why module.json was not usable */
	char *bt_note;			/* bpftrace output problems */
	bool has_cell_json, has_module, has_bpftrace;
	double ops, ops_per_sec, duration_s;
	double evs_per_cpu;		/* mean over per_cpu ops_per_sec; NAN without data */
	long long e2big_not_full;	/* module verdict: E2BIG while not full, -1 unknown */
	struct rep_cpu *cpus;
	size_t ncpus;
	struct rep_hist *lat;		/* module.json latency_ns, one per op */
	size_t nlat;
	struct rep_hist *bt;		/* every bpftrace hist, keyed ones split per key */
	size_t nbt;
	json_t *bt_scalars;		/* {"script": {"@map": n or {"key": n}}} */
	json_t *cell_json, *module_json;	/* owned, may be NULL */
	json_t *summary_cell;		/* borrowed from rep_run.summary, may be NULL */
	const char *series;		/* plot line label: kernel, plus /value of every
					   series axis (noise, fault) the run varied */
};

struct rep_stat {
	size_t n;
	double mean, sd, min, max;	/* NAN when n == 0; sd 0 when n == 1 */
};

/* The repeats of one (workload, series, vcpus): what a plot point is made of. */
struct rep_group {
	const char *workload, *series, *kernel;
	int vcpus;
	size_t ncells, nok;		/* cells; cells that count (not CRASH/TIMEOUT/SKIP) */
	struct rep_stat evs_per_cpu, ops_per_sec, pop_p50, pop_p99;
	struct hist pop;		/* __pcpu_freelist_pop @ns summed over repeats */
	struct rep_hist *lat;		/* module latency_ns per op, summed over repeats */
	size_t nlat;
	struct rep_hist *bt;		/* bpftrace unkeyed hists, summed over repeats */
	size_t nbt;
};

struct rep_run {
	char *dir;
	json_t *summary;		/* summary.json as read, NULL if absent/invalid */
	struct rep_cell *cells;
	size_t n;
	struct rep_group *groups;	/* sorted by workload, series, vcpus */
	size_t ngroups;
	char **kernels;			/* distinct kernel labels, order of cells */
	size_t nkernels;
	char **workloads;
	size_t nworkloads;
	int *vcpus;			/* distinct, ascending */
	size_t nvcpus;
	char **series_labels;		/* kernel[/noise][/fault] labels, when a series axis varied */
	size_t nseries;
	bool any_tcg;
	bool any_fault;			/* some cell ran with a fault other than none */
};

#define POP_SCRIPT "__pcpu_freelist_pop"
#define POP_MAP "@ns"

/* 0 ok; -1 when dir is not a readable directory (message on stderr). */
int rep_run_load(struct rep_run *r, const char *dir);
void rep_run_free(struct rep_run *r);

/* Cell helpers (cell_load.c). */
/* Takes its own reference to module; an unusable one sets module_note only. */
int rep_cell_load_module(struct rep_cell *c, json_t *module);
/* script NULL: a module latency histogram named map. */
int rep_cell_add_hist(struct rep_cell *c, const char *script, const char *map,
		      const char *key, const struct hist *h);
const struct rep_hist *rep_find_hist(const struct rep_hist *v, size_t n,
				     const char *script, const char *name);
const struct rep_hist *rep_cell_pop(const struct rep_cell *c);
/* A cell's figures count toward means: it ran to the end with data. */
bool rep_cell_counts(const struct rep_cell *c);
bool rep_verdict_bad(const char *verdict);	/* CRASH or TIMEOUT */
/* What broke, as report's problems and compare's verdicts group it: signature, else reason. */
const char *rep_cell_title(const struct rep_cell *c);
void rep_cell_free(struct rep_cell *c);
/* Add src's buckets into *dst (named name), merging equal [lo, hi). */
int rep_hist_accumulate(struct rep_hist **v, size_t *n, const struct rep_hist *src);
int rep_hist_merge(struct hist *dst, const struct hist *src);
int rep_hist_copy(struct hist *dst, const struct hist *src);
void rep_hists_free(struct rep_hist *v, size_t n);

/* Groups and statistics (repeat_groups.c). */
void rep_stat_of(struct rep_stat *s, const double *v, size_t n);
int rep_build_groups(struct rep_run *r);
void rep_groups_free(struct rep_run *r);
const struct rep_group *rep_group_find(const struct rep_run *r, const char *workload,
				       const char *series, int vcpus);

/* The bpftrace NDJSON of one cell (cell_bpftrace.c). */
int rep_cell_load_bpftrace(struct rep_cell *c);

#endif
