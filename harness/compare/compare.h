/*
 * `htab-torture compare`: two runs side by side (RUN_A RUN_B), or one run's
 * kernels against its base kernel, LKP-style: per matching cell group and
 * metric, mean ± stddev over the PASS repeats of each side, %change, Welch's
 * t-test p-value and a bootstrap CI of the ratio of means; per verdict and
 * signature, the count of cells on each side with its Clopper–Pearson
 * interval, Fisher's exact test and the repeats a side that would show it.
 */
#ifndef HT_COMPARE_H
#define HT_COMPARE_H
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "rundir/run_load.h"
#include "lib/proportion.h"
#include "lib/welch_bootstrap.h"
#include "lib/util.h"

/* Fewer PASS samples than this on a side: no test, "too few repeats (n=1)". */
#define CMP_MIN_REPEATS 2

enum cmp_verdict { CV_FAIL, CV_CRASH, CV_TIMEOUT, CV_SKIP, CV_INCOMPLETE, CV_NR };
extern const char *const cmp_verdict_names[CV_NR];

struct cmp_opts {
	const char *run_a, *run_b;	/* run_b NULL: across the kernels of run_a */
	const char *base;		/* one-run mode: the base kernel; NULL = first */
	const char *base_fault;		/* one-run mode: every fault against this one */
	const char *json;		/* NULL: default (see cmp_default_json); "-": stdout */
	double alpha;			/* significance level, and CI level 1 - alpha */
	unsigned resamples;
	uint64_t seed;
};

struct cmp_sample {
	double *v;			/* PASS cells' values, NAN-free */
	size_t n;
	struct rep_stat st;
};

struct cmp_row {
	const char *name;		/* "module.ops_per_sec_per_cpu", … (owned) */
	const char *unit;		/* "ops/s", "ns" */
	struct cmp_sample a, b;
	double change_pct;		/* (mean_b - mean_a) / mean_a × 100; NAN if mean_a 0 */
	double ratio;			/* mean_b / mean_a */
	bool tested, significant;	/* significant: Welch p < alpha */
	struct st_welch w;
	double ci_lo, ci_hi;		/* bootstrap CI of ratio at 1 - alpha */
	char note[64];			/* "too few repeats (n=1)" when not tested */
};

/* The verdict rows' power, and the most repeats a side they look for it at. */
#define CMP_POWER 0.8
#define CMP_POWER_NMAX 200

/* One side of a verdict row: k of the n cells that ran to a verdict. */
struct cmp_rate {
	size_t k, n;
	double rate, lo, hi;		/* k / n and its Clopper–Pearson CI; NAN when n is 0 */
};

/*
 * Non-PASS cells as data: one verdict (FAIL, CRASH, TIMEOUT, or the three
 * as "non-PASS"), or one signature of one verdict, on both sides.
 */
struct cmp_vrow {
	const char *verdict;		/* "non-PASS", "FAIL", "CRASH", "TIMEOUT" */
	const char *signature;		/* NULL: every cell of the verdict; else the title */
	struct cmp_rate a, b;
	double p;			/* Fisher's exact, two-sided; NAN when a side has no cell */
	bool significant;		/* p < alpha, as a metric's Welch p */
	const char *reading;		/* "regressed" (B more), "fixed" (B fewer), "no evidence" */
	unsigned n_power;		/* repeats a side for CMP_POWER at these rates at alpha;
					   0: equal rates; CMP_POWER_NMAX + 1: more than that */
};

struct cmp_count {
	size_t cells, pass;
	/*
	 * Guests the PASS cells ran in: restored cells of one snapshot are one
	 * boot's layout (KASLR, per-CPU areas), so are the cells of one shared
	 * boot; a cell that booted on its own is a boot of its own.
	 */
	size_t boots;
	size_t excluded[CV_NR];
};

struct cmp_group {
	int vcpus;
	const char *workload, *noise, *params;	/* borrowed from the runs / owned (params) */
	const char *kernel_a, *kernel_b;
	const char *fault_a, *fault_b;	/* equal except with --base-fault */
	struct cmp_count ca, cb;
	struct cmp_row *rows;
	size_t nrows;
	struct cmp_vrow *vrows;		/* non-PASS, then FAIL, CRASH, TIMEOUT, each with its signatures */
	size_t nvrows;
	double zero_hi_a, zero_hi_b;	/* what "0 of n" bounds: its Clopper–Pearson upper end */
};

struct cmp_result {
	const char *mode;		/* "runs", "kernels" or "faults" */
	const char *dir_a, *dir_b;
	const char *label_a, *label_b;	/* column heads: run names, or base/other kernel */
	double alpha;
	unsigned resamples;
	uint64_t seed;
	char accel_a[64], accel_b[64];	/* distinct accels of the compared cells, "tcg,kvm" */
	/* distinct cell.json boot.mode ("+restored": restore): "own", "shared", "own,shared+restored" */
	char boot_a[64], boot_b[64];
	/* distinct cell.json bpftrace.*.engine: "bpftrace", "aot", "preattached"; "none": no script */
	char observers_a[64], observers_b[64];
	bool tcg;
	struct cmp_group *g;
	size_t ng;
	struct strv only_a, only_b;	/* group keys without a partner */
	size_t excluded_a, excluded_b;	/* non-PASS cells left out, whole sides */
	char **owned;			/* strings the result owns */
	size_t nowned;
};

/*
 * Compare two loaded runs (b == NULL: the kernels of a against base, or with
 * o->base_fault the faults of a against that one). 0 ok, -1 no memory.
 */
int cmp_build(struct cmp_result *res, const struct rep_run *a, const struct rep_run *b,
	      const char *base, const struct cmp_opts *o);
void cmp_result_free(struct cmp_result *res);
/* The run's base kernel: summary.json's first kernel (the --kernel order), else the first seen. */
const char *cmp_first_kernel(const struct rep_run *r);

/* The distinct faults of a run's cells, first seen first. */
int cmp_run_faults(const struct rep_run *r, struct strv *out);

void cmp_print(FILE *f, const struct cmp_result *res);
json_t *cmp_to_json(const struct cmp_result *res);

/* 0 success, 1 nothing matched / output not written, 2 usage or bad run directory. */
int cmd_compare(int argc, char **argv);
#endif
