/*
 * `htab-torture bisect`: the first bad step of an ordered series of steps,
 * each step built (a way: struct bs_way) and tested by `htab-torture run`
 * rounds until the statistics decide it (decide.h).
 */
#ifndef HT_BISECT_H
#define HT_BISECT_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "bisect/decide.h"
#include "lib/util.h"

struct bs_opts {
	const char *series;		/* the directory with its `series` file */
	const char *kernel_tree;	/* or: a git work tree */
	const char *range;		/* with it: GOOD..BAD */
	const char *base;		/* [LINE/]VARIANT, default fixed */
	bool base_set;			/* --base-variant given */
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
	const char *name;		/* its patch or commit, as printed; NULL: step 0 of a series */
	json_t *id;			/* its name in bisect.json: {"patch"} or {"commit", "subject"} */
	char variant[64];		/* built as (a series); the base's for step 0 */
	char label[96];			/* --kernel of its rounds: [LINE/]variant */
	char hash[72];			/* what was built: build-kernel.sh HASH */
	char image[4096];		/* "": run builds the --kernel itself; else --kernel-image */
	char release[128];		/* with image: --kernel-release */
	char module[4096];		/* with image: --module */
	struct bs_round *rounds;
	size_t nrounds;
	bool built;
	char build_log[4096];		/* set: the step does not build, see this log */
	enum bs_decision d;
	int runs;			/* rounds the decision took */
	int reused;			/* of them, finished before this invocation */
	struct bs_rate_eval rate;
	struct bs_metric_eval met;
	double wall_s;			/* its rounds' walls, up to the decision */
};

struct bs_ctx;

/* One way of making the steps (series.c: a patch series on a variant). */
struct bs_way {
	const char *noun;		/* "series", "range": what the steps are of */
	/* The steps: c->nsteps, c->steps[] (k, name, id, label), c->head, c->params. */
	int (*read_steps)(struct bs_ctx *c);
	/* Once OUT exists, before any build. */
	int (*prepare)(struct bs_ctx *c);
	/*
	 * s built (or found built): 0, s->hash (and s->image..module) set; 1 it
	 * does not build (s->build_log says why): UNDECIDED; -1 a setup error.
	 */
	int (*build_step)(struct bs_ctx *c, struct bs_step *s);
};
extern const struct bs_way bs_way_series;
/* git_range.c: the commits of a git range of a kernel tree. */
extern const struct bs_way bs_way_git_range;

struct bs_ctx {
	const struct bs_opts *o;
	const struct bs_way *way;
	char root[4096];		/* the kit's checkout */
	char out[4096];			/* absolute */
	char tree[4096];		/* a git range: the user's tree, absolute */
	/* a series (series.c) */
	char line[16];			/* "" for the default line */
	char base_variant[64];
	char base_conf[4096];		/* the base's variant.conf */
	struct strv patches;		/* the series, in order */
	char tag[16];			/* hex of the series' FNV: names the variants */
	struct strv names;		/* what the steps' names point into */
	json_t *head;			/* bisect.json's first fields: what was bisected */
	json_t *params;			/* what makes the steps (bisect-params.json, with run_args) */
	struct bs_step *steps;		/* 0..N */
	int nsteps;			/* N + 1 */
	int dir;			/* metric: +1 higher better, -1 lower */
	double bad_rate;		/* smallest rate a BAD step showed; NAN: none yet */
	struct strv order;		/* the steps in the order tested, "K DECISION" */
};

/* Exit codes: search 0 an answer, 1 undecided, 2 error; --test-step 0 good, 1 bad, 125. */
int cmd_bisect(int argc, char **argv);
#endif
