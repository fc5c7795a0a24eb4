/*
 * `htab-torture bisect`: the first bad step of an ordered patch series on a
 * base variant, each step built as a variant of its own and tested by
 * `htab-torture run` rounds until the statistics decide it (decide.h).
 */
#ifndef HT_BISECT_H
#define HT_BISECT_H
#include <stdbool.h>
#include <stddef.h>

#include "bisect/decide.h"
#include "lib/util.h"

struct bs_opts {
	const char *series;		/* the directory with its `series` file */
	const char *base;		/* [LINE/]VARIANT, default fixed */
	const char *out;
	const char *signature;		/* signature predicate: a title's substring */
	const char *metric;		/* metric predicate: its name */
	double worse_by_pct;
	double confidence;		/* 0.95 */
	double min_rate;		/* GOOD's threshold before any BAD step */
	int max_runs;			/* rounds a step at most */
	int test_step;			/* -1: the search; else that step alone */
	struct strv run_args;		/* after --: the matrix for `run` */
};

/* One round: one `run` of the matrix into OUT/step-K/round-R/. */
struct bs_round {
	size_t bad, total;		/* cells that ran to a verdict, and the bad ones */
	double *vals;			/* the metric of its PASS cells */
	size_t nvals;
	double wall_s;			/* of its `run`, as recorded when it finished */
};

struct bs_step {
	int k;
	const char *patch;		/* its last patch; NULL for step 0 */
	char variant[64];		/* built as; the base's for step 0 */
	char label[96];			/* --kernel of its rounds: [LINE/]variant */
	char hash[72];			/* build-kernel.sh HASH */
	struct bs_round *rounds;
	size_t nrounds;
	bool built;
	enum bs_decision d;
	int runs;			/* rounds the decision took */
	int reused;			/* of them, finished before this invocation */
	struct bs_rate_eval rate;
	struct bs_metric_eval met;
	double wall_s;			/* its rounds' walls, up to the decision */
};

struct bs_ctx {
	const struct bs_opts *o;
	char root[4096];		/* the kit's checkout */
	char out[4096];			/* absolute */
	char line[16];			/* "" for the default line */
	char base_variant[64];
	char base_conf[4096];		/* the base's variant.conf */
	struct strv patches;		/* the series, in order */
	char tag[16];			/* hex of the series' FNV: names the variants */
	struct bs_step *steps;		/* 0..N */
	int nsteps;			/* N + 1 */
	int dir;			/* metric: +1 higher better, -1 lower */
	double bad_rate;		/* smallest rate a BAD step showed; NAN: none yet */
	struct strv order;		/* the steps in the order tested, "K DECISION" */
};

/* series.c: the series, the step variants, their builds. */
int bs_read_series(struct bs_ctx *c);
int bs_write_variants(struct bs_ctx *c);
int bs_build_step(struct bs_ctx *c, struct bs_step *s);

/* Exit codes: search 0 an answer, 1 undecided, 2 error; --test-step 0 good, 1 bad, 125. */
int cmd_bisect(int argc, char **argv);
#endif
