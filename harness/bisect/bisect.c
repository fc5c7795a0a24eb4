/*
 * The `bisect` subcommand: the first bad step of a patch series or of a git
 * range. Step K is the base variant + the series' first K patches, built as
 * a variant of its own (series.c), or the K-th commit of GOOD..BAD, built in
 * a clone of the tree (git_range.c); a step is tested by rounds of
 * `htab-torture run --kernel STEP` (the
 * user's matrix, after --) into OUT/step-K/round-R/, each against as many
 * rounds of the base (step 0), until decide.c calls it GOOD or BAD or
 * --max-runs is reached (UNDECIDED). The search never guesses: an
 * undecided step leaves a range. Every round's figures are re-read from
 * its directory, so a rerun on the same OUT replays the decisions and runs
 * only what is missing.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect/bisect.h"
#include "lib/opts.h"
#include "lib/spawn.h"
#include "lib/util.h"
#include "rundir/cell_metric.h"
#include "rundir/run_load.h"

#define MAX_RUNS_DEFAULT 10
#define MAX_RUNS_MAX 1000
#define EXIT_SKIP 125

static const struct opt_spec bisect_opts[] = {
	{ "series", 's', "DIR", "the series",
	  "a directory with a `series` file: its patches in order, one a line\n"
	  "(quilt's; # comments, an optional -p1)" },
	{ "base-variant", 'b', "[LINE/]VARIANT", "the series",
	  "what the series applies to (default fixed): step 0; step K is it +\n"
	  "patches 1..K, built as variant bisect-TAG-sK under OUT/variants/" },
	{ "kernel-tree", 'T', "DIR", "or a git range",
	  "a kernel git work tree with its .config (never written to: the\n"
	  "steps are built in OUT/tree, a git clone --shared of it)" },
	{ "range", 'g', "GOOD..BAD", "or a git range",
	  "step 0 is GOOD, steps 1..N git rev-list --reverse --first-parent\n"
	  "GOOD..BAD; each built (make olddefconfig, make bzImage modules, the\n"
	  "module) and kept in OUT/steps/K/, booted as --kernel git-<sha12>" },
	{ "out", 'o', "OUT", "both", "the bisect's directory (required; a rerun resumes it)" },
	{ "signature", 'S', "TITLE", "predicate",
	  "a cell is bad when its verdict is not PASS and its signature (or\n"
	  "FAIL reason) contains TITLE (case-sensitive)" },
	{ "metric", 'm', "NAME", "predicate",
	  "or: a step is bad when its mean of this metric (compare's names:\n"
	  "module.ops_per_sec, module.update.p99, …) is worse than the base's" },
	{ "worse-by", 'w', "PCT", "predicate", "by more than PCT percent (with --metric)" },
	{ "confidence", 'c', "C", "decision", "of every decision (default 0.95)" },
	{ "min-rate", 'r', "R", "decision",
	  "signature: GOOD needs the step's rate below R until a step was\n"
	  "BAD, then below the smallest rate a BAD step showed (default 0.2)" },
	{ "max-runs", 'n', "N", "decision", "rounds a step at most, then UNDECIDED (default 10)" },
	{ "test-step", 't', "K", "mode",
	  "test step K alone (for git bisect run): exit 0 good, 1 bad, 125\n"
	  "undecided or a setup error" },
	{ "help", 'h', NULL, "mode", "this text" },
};
#define NBISECT_OPTS (sizeof(bisect_opts) / sizeof(bisect_opts[0]))

/* run's options bisect sets itself, or that would not make a round. */
static const char *const forbidden_run_args[] = {
	"--out", "--kernel", "--kernel-tree", "--kernel-image", "--kernel-release", "--coverage",
	"--shard", "--dry-run", "--plan-only", "--json", "--help",
};

static void usage(FILE *f)
{
	fputs("usage: htab-torture bisect (--series DIR | --kernel-tree DIR --range GOOD..BAD)\n"
	      "         --out OUT (--signature TITLE | --metric NAME --worse-by PCT) [OPTIONS]\n"
	      "         [-- RUN_OPTIONS...]\n"
	      "  The first bad step of the series (or commit of the range): each step is\n"
	      "  tested by rounds of 'htab-torture run --kernel STEP RUN_OPTIONS' (the\n"
	      "  matrix, e.g. -- --cpus 4 --workload churn) against as many rounds of the\n"
	      "  base (step 0: the base variant, or GOOD), until Fisher's exact\n"
	      "  test (signature) or Welch's t and the bootstrap ratio interval (metric)\n"
	      "  decide it at --confidence, or --max-runs rounds leave it UNDECIDED. One\n"
	      "  line per step tested, then: 'first bad step K: PATCH (evidence)', 'none:\n"
	      "  every step good' or 'undecided between J and K'; OUT/bisect.json. A step of\n"
	      "  a range that does not build is UNDECIDED (its log named), never bad.\n\n", f);
	opts_help(f, bisect_opts, NBISECT_OPTS);
	fputs("\nexit status: search 0 a first bad step or none, 1 undecided, 2 usage or\n"
	      "setup error (a series' build failure, a round that did not run); --test-step 0 good,\n"
	      "1 bad, 125 undecided or any error (git bisect's skip); 128+N on signal N\n", f);
}

static int parse_int(const char *name, const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "error: --%s '%s': must be an integer %d..%d\n", name, s, lo, hi);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* 0 ok, 1 help printed, -1 usage error (message printed). */
static int parse_args(int argc, char **argv, struct bs_opts *o)
{
	struct option longopts[NBISECT_OPTS + 1];
	const char *worse = NULL;
	char names[512], *end;
	int c;

	*o = (struct bs_opts){ .base = "fixed", .confidence = 0.95, .min_rate = 0.2,
			       .max_runs = MAX_RUNS_DEFAULT, .test_step = -1 };
	opts_long(longopts, bisect_opts, NBISECT_OPTS);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o->series = optarg; break;
		case 'T': o->kernel_tree = optarg; break;
		case 'g': o->range = optarg; break;
		case 'b': o->base = optarg; o->base_set = true; break;
		case 'o': o->out = optarg; break;
		case 'S': o->signature = optarg; break;
		case 'm': o->metric = optarg; break;
		case 'w': worse = optarg; break;
		case 'c':
			if (opts_fraction("confidence", optarg, &o->confidence))
				return -1;
			break;
		case 'r':
			if (opts_fraction("min-rate", optarg, &o->min_rate))
				return -1;
			break;
		case 'n':
			if (parse_int("max-runs", optarg, 1, MAX_RUNS_MAX, &o->max_runs))
				return -1;
			break;
		case 't':
			if (parse_int("test-step", optarg, 1, 999, &o->test_step))
				return -1;
			break;
		case 'h': usage(stdout); return 1;
		case ':':
			fprintf(stderr, "error: %s needs a value (see 'htab-torture bisect --help')\n",
				argv[optind - 1]);
			return -1;
		default:
			opts_names(names, sizeof(names), bisect_opts, NBISECT_OPTS);
			fprintf(stderr, "error: unknown option '%s': bisect takes %s, then -- and run's options\n",
				argv[optind - 1], names);
			return -1;
		}
	}
	if (optind < argc && strcmp(argv[optind - 1], "--")) {
		fprintf(stderr, "error: '%s': run's options go after -- (bisect ... -- --cpus 4)\n",
			argv[optind]);
		return -1;
	}
	for (int i = optind; i < argc; i++) {
		for (size_t j = 0; j < sizeof(forbidden_run_args) / sizeof(*forbidden_run_args); j++) {
			size_t l = strlen(forbidden_run_args[j]);

			if (!strncmp(argv[i], forbidden_run_args[j], l) &&
			    (!argv[i][l] || argv[i][l] == '=')) {
				fprintf(stderr, "error: run option '%s' after --: bisect sets --out and --kernel itself; --kernel-tree, --kernel-image, --kernel-release, --coverage, --shard, --dry-run, --plan-only, --json and --help do not make a round\n",
					argv[i]);
				return -1;
			}
		}
		if (o->kernel_tree && (!strcmp(argv[i], "--module") ||
				       !strncmp(argv[i], "--module=", 9))) {
			fprintf(stderr, "error: run option '%s' after --: bisect --kernel-tree builds each step's module itself\n",
				argv[i]);
			return -1;
		}
		strv_push(&o->run_args, argv[i]);
	}
	if (o->series && o->kernel_tree) {
		fprintf(stderr, "error: --series '%s' and --kernel-tree '%s': give one (a patch series, or a git range of a tree)\n",
			o->series, o->kernel_tree);
		return -1;
	}
	if (o->kernel_tree && o->base_set) {
		fprintf(stderr, "error: --base-variant '%s' goes with --series; a git range's base is its GOOD commit (--range GOOD..BAD)\n",
			o->base);
		return -1;
	}
	if (o->range && !o->kernel_tree) {
		fprintf(stderr, "error: --range '%s' goes with --kernel-tree DIR (the git tree it is of)%s\n",
			o->range, o->series ? ", not with --series" : "");
		return -1;
	}
	if (o->kernel_tree && !o->range) {
		fprintf(stderr, "error: --kernel-tree '%s' needs --range GOOD..BAD (the commits to bisect)\n",
			o->kernel_tree);
		return -1;
	}
	if ((!o->series && !o->kernel_tree) || !o->out) {
		fprintf(stderr, "error: bisect needs --series DIR or --kernel-tree DIR --range GOOD..BAD, and --out OUT (see 'htab-torture bisect --help')\n");
		return -1;
	}
	if (!!o->signature == !!o->metric) {
		fprintf(stderr, "error: bisect needs one predicate: --signature TITLE or --metric NAME --worse-by PCT\n");
		return -1;
	}
	if (o->signature && !*o->signature) {
		fprintf(stderr, "error: --signature '': must be a non-empty title (e.g. 'WARNING in')\n");
		return -1;
	}
	if (o->signature && worse) {
		fprintf(stderr, "error: --worse-by '%s' goes with --metric, not --signature\n", worse);
		return -1;
	}
	if (o->metric) {
		int dir = rep_metric_direction(o->metric);

		if (!dir) {
			rep_metric_names(names, sizeof(names));
			fprintf(stderr, "error: --metric '%s': unknown; valid: %s\n", o->metric, names);
			return -1;
		}
		if (!worse) {
			fprintf(stderr, "error: --metric '%s' needs --worse-by PCT\n", o->metric);
			return -1;
		}
		errno = 0;
		o->worse_by_pct = strtod(worse, &end);
		if (errno || end == worse || *end || !(o->worse_by_pct > 0) ||
		    o->worse_by_pct >= (dir > 0 ? 100 : 1000)) {
			fprintf(stderr, "error: --worse-by '%s': must be a percentage above 0 and below %d for %s\n",
				worse, dir > 0 ? 100 : 1000, o->metric);
			return -1;
		}
	}
	return 0;
}

/* OUT/bisect-params.json: what makes the rounds (the steps, the matrix); a rerun must agree. */
static int check_params(struct bs_ctx *c)
{
	char path[4096];
	json_t *p = json_deep_copy(c->params), *old;
	int err = -1;

	if (p)
		json_object_set_new(p, "run_args", json_array());
	for (size_t i = 0; p && i < c->o->run_args.n; i++)
		json_array_append_new(json_object_get(p, "run_args"), json_string(c->o->run_args.v[i]));
	if (pathf(path, sizeof(path), "%s/bisect-params.json", c->out)) {
		json_decref(p);
		return -1;
	}
	old = json_load_file(path, 0, NULL);
	if (old && !json_equal(old, p)) {
		char *a = json_dumps(old, JSON_COMPACT), *b = json_dumps(p, JSON_COMPACT);

		fprintf(stderr, "error: %s holds a bisect of another series, base or matrix (%s; this one: %s): use another --out\n",
			c->out, a ? a : "?", b ? b : "?");
		free(a);
		free(b);
	} else if (old || !json_dump_file(p, path, JSON_INDENT(1))) {
		err = 0;
	} else {
		fprintf(stderr, "error: cannot write %s\n", path);
	}
	json_decref(old);
	json_decref(p);
	return err;
}

static int setup(struct bs_ctx *c, const struct bs_opts *o)
{
	char *abs;

	c->o = o;
	c->way = o->kernel_tree ? &bs_way_git_range : &bs_way_series;
	c->bad_rate = NAN;
	c->dir = o->metric ? rep_metric_direction(o->metric) : 0;
	if (repo_root(c->root, sizeof(c->root)))
		snprintf(c->root, sizeof(c->root), ".");
	if (c->way->read_steps(c))
		return -1;
	if (o->test_step > c->nsteps - 1) {
		fprintf(stderr, "error: --test-step %d: the %s has steps 1..%d\n", o->test_step,
			c->way->noun, c->nsteps - 1);
		return -1;
	}
	if (mkdir_p(o->out) || !(abs = realpath(o->out, NULL))) {
		fprintf(stderr, "error: --out '%s': cannot make it: %s\n", o->out, strerror(errno));
		return -1;
	}
	snprintf(c->out, sizeof(c->out), "%s", abs);
	free(abs);
	return check_params(c) || c->way->prepare(c) ? -1 : 0;
}

/* The figures of one finished round from its cells. 0 ok, -1 none ran to a verdict. */
static int load_round(struct bs_ctx *c, const char *dir, struct bs_round *r)
{
	struct rep_run run;

	if (rep_run_load(&run, dir))
		return -1;
	r->vals = calloc(run.n ? run.n : 1, sizeof(double));
	for (size_t i = 0; r->vals && i < run.n; i++) {
		const struct rep_cell *cell = &run.cells[i];
		const char *v = cell->verdict;
		double m;

		if (!v || (strcmp(v, "PASS") && strcmp(v, "FAIL") && strcmp(v, "CRASH") &&
			   strcmp(v, "TIMEOUT")))
			continue;
		r->total++;
		if (c->o->signature && strcmp(v, "PASS") &&
		    strstr(rep_cell_title(cell), c->o->signature))
			r->bad++;
		if (c->o->metric && !strcmp(v, "PASS") &&
		    isfinite(m = rep_cell_metric(cell, c->o->metric)))
			r->vals[r->nvals++] = m;
	}
	rep_run_free(&run);
	return r->vals && r->total ? 0 : -1;
}

/*
 * Runs `htab-torture run` for round R of s (R = s->nrounds + 1). 0 ok, -1
 * error, 1 the step does not build, 128+N signal.
 */
static int run_round(struct bs_ctx *c, struct bs_step *s, int r, const char *dir,
		     const char *done, double *wall)
{
	char log[4096], txt[256];
	const char *alt = getenv("HTAB_BISECT_RUN");
	struct spawn_opts so = { .log = log, .null_stdin = true, .die_with_parent = true };
	struct strv argv = { 0 };
	double t0 = now_mono();
	int rc;

	if ((rc = c->way->build_step(c, s)))
		return rc > 0 ? 1 : -1;
	snprintf(log, sizeof(log), "%s", dir);
	*strrchr(log, '/') = '\0';
	if (mkdir_p(log)) {
		fprintf(stderr, "error: cannot make %s: %s\n", log, strerror(errno));
		return -1;
	}
	if (pathf(log, sizeof(log), "%s.log", dir))
		return -1;
	if (alt && *alt) {
		strv_push(&argv, alt);
	} else {
		/*
		 * This very program, even when its file was rebuilt (replaced)
		 * while the bisect ran: the path /proc/self/exe reads would then
		 * end " (deleted)" and not run.
		 */
		strv_push(&argv, "/proc/self/exe");
		strv_push(&argv, "run");
	}
	strv_push(&argv, "--kernel");
	strv_push(&argv, s->label);
	if (s->image[0]) {
		strv_push(&argv, "--kernel-image");
		strv_push(&argv, s->image);
		strv_push(&argv, "--kernel-release");
		strv_push(&argv, s->release);
		strv_push(&argv, "--module");
		strv_push(&argv, s->module);
	}
	strv_push(&argv, "--out");
	strv_push(&argv, dir);
	for (size_t i = 0; i < c->o->run_args.n; i++)
		strv_push(&argv, c->o->run_args.v[i]);
	if (!argv.v) {
		strv_free(&argv);
		return -1;
	}
	fprintf(stderr, "bisect: step %d round %d: run --kernel %s (log %s)\n", s->k, r, s->label, log);
	rc = spawn_run(argv.v, &so, NULL);
	strv_free(&argv);
	*wall = now_mono() - t0;
	if (rc >= 128)
		return rc;
	if (rc != 0 && rc != 1) {
		fprintf(stderr, "error: step %d round %d: %s exited %d (log: %s)\n", s->k, r,
			alt && *alt ? alt : "htab-torture run", rc, log);
		return -1;
	}
	snprintf(txt, sizeof(txt), "{\"exit\": %d, \"wall_s\": %.3f, \"hash\": \"%s\"}\n", rc,
		 *wall, s->hash);
	if (write_file_atomic(done, txt, strlen(txt))) {
		fprintf(stderr, "error: cannot write %s: %s\n", done, strerror(errno));
		return -1;
	}
	return 0;
}

/* s has at least r rounds: reused when OUT/step-K/round-R.done is there, else run. */
static int ensure_rounds(struct bs_ctx *c, struct bs_step *s, int r)
{
	while ((int)s->nrounds < r) {
		int n = (int)s->nrounds + 1, rc;
		char dir[4096], done[4200];
		struct bs_round rd = { 0 }, *nr;
		json_t *d;

		if (pathf(dir, sizeof(dir), "%s/step-%d/round-%d", c->out, s->k, n))
			return -1;
		snprintf(done, sizeof(done), "%s.done", dir);
		d = json_load_file(done, 0, NULL);
		if (d) {
			rd.wall_s = json_number_value(json_object_get(d, "wall_s"));
			if (!s->hash[0] && json_is_string(json_object_get(d, "hash")))
				snprintf(s->hash, sizeof(s->hash), "%s",
					 json_string_value(json_object_get(d, "hash")));
			json_decref(d);
			s->reused++;
		} else if ((rc = run_round(c, s, n, dir, done, &rd.wall_s))) {
			return rc;
		}
		if (load_round(c, dir, &rd)) {
			fprintf(stderr, "error: step %d round %d: no cell ran to a verdict in %s (log: %s.log)\n",
				s->k, n, dir, dir);
			free(rd.vals);
			return -1;
		}
		nr = realloc(s->rounds, (s->nrounds + 1) * sizeof(*nr));
		if (!nr) {
			free(rd.vals);
			return -1;
		}
		s->rounds = nr;
		nr[s->nrounds++] = rd;
	}
	return 0;
}

/* s's first r rounds against the base's first r. */
static void evaluate(struct bs_ctx *c, struct bs_step *s, int r)
{
	const struct bs_step *b = &c->steps[0];
	size_t k = 0, n = 0, k0 = 0, n0 = 0, nv = 0, nv0 = 0;
	double *v = NULL, *v0 = NULL;

	s->wall_s = 0;
	for (int i = 0; i < r; i++) {
		k += s->rounds[i].bad;
		n += s->rounds[i].total;
		k0 += b->rounds[i].bad;
		n0 += b->rounds[i].total;
		nv += s->rounds[i].nvals;
		nv0 += b->rounds[i].nvals;
		s->wall_s += s->rounds[i].wall_s;
	}
	if (c->o->signature) {
		bs_decide_rate(&s->rate, k, n, k0, n0, c->o->confidence,
			       isnan(c->bad_rate) ? c->o->min_rate : c->bad_rate);
		s->d = s->rate.d;
		return;
	}
	v = calloc(nv + 1, sizeof(double));
	v0 = calloc(nv0 + 1, sizeof(double));
	nv = nv0 = 0;
	for (int i = 0; v && v0 && i < r; i++) {
		memcpy(v + nv, s->rounds[i].vals, s->rounds[i].nvals * sizeof(double));
		nv += s->rounds[i].nvals;
		memcpy(v0 + nv0, b->rounds[i].vals, b->rounds[i].nvals * sizeof(double));
		nv0 += b->rounds[i].nvals;
	}
	bs_decide_metric(&s->met, v, nv, v0, nv0, c->dir, c->o->worse_by_pct, c->o->confidence);
	s->d = s->met.d;
	free(v);
	free(v0);
}

static void evidence(const struct bs_ctx *c, const struct bs_step *s, char *buf, size_t n)
{
	int pct = (int)lround(c->o->confidence * 100);

	if (c->o->signature) {
		const struct bs_rate_eval *e = &s->rate;

		snprintf(buf, n, "%zu/%zu bad, rate %.3f (%d%% CI %.3f-%.3f) vs base %zu/%zu, rate %.3f (%.3f-%.3f), p(Fisher) %.3g, good below %.3f",
			 e->k, e->n, e->rate, pct, e->lo, e->hi, e->k0, e->n0, e->rate0, e->lo0,
			 e->hi0, e->p, e->threshold);
	} else {
		const struct bs_metric_eval *e = &s->met;

		snprintf(buf, n, "%s %.6g ±%.3g (n %zu) vs base %.6g ±%.3g (n %zu), ratio %.4f (%d%% CI %.4f-%.4f), p(Welch) %.3g, bad beyond %.4f",
			 c->o->metric, e->mean, e->sd, e->n, e->mean0, e->sd0, e->n0, e->ratio,
			 pct, e->lo, e->hi, e->p, e->limit);
	}
}

static void print_step(const struct bs_ctx *c, const struct bs_step *s)
{
	char ev[512];

	if (s->build_log[0]) {
		printf("step %d/%d (%s): UNDECIDED: it does not build (log: %s)\n", s->k,
		       c->nsteps - 1, s->name, s->build_log);
		fflush(stdout);
		return;
	}
	evidence(c, s, ev, sizeof(ev));
	printf("step %d/%d (%s): %s after %d run%s: %s, wall %.1f s", s->k, c->nsteps - 1,
	       s->name, bs_decision_names[s->d], s->runs, s->runs == 1 ? "" : "s", ev, s->wall_s);
	if (s->reused)
		printf(" (%d of the runs reused from OUT)", s->reused);
	putchar('\n');
	fflush(stdout);
}

/* Round after round until s is decided or max_runs. 0 ok, else the error/signal. */
static int test_step(struct bs_ctx *c, struct bs_step *s)
{
	int rc;

	s->reused = 0;
	for (int r = 1; r <= c->o->max_runs; r++) {
		if ((rc = ensure_rounds(c, &c->steps[0], r)) || (rc = ensure_rounds(c, s, r))) {
			if (rc != 1 || !s->build_log[0])
				return rc < 0 ? -1 : rc;
			break;	/* it does not build: UNDECIDED */
		}
		evaluate(c, s, r);
		s->runs = r;
		if (s->d != BS_PENDING)
			break;
	}
	if (s->d == BS_PENDING)
		s->d = BS_UNDECIDED;
	if (s->reused > s->runs)
		s->reused = s->runs;
	if (s->d == BS_BAD && c->o->signature && !(s->rate.rate >= c->bad_rate))
		c->bad_rate = s->rate.rate;
	strv_pushf(&c->order, "%d %s", s->k, bs_decision_names[s->d]);
	print_step(c, s);
	return 0;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* {"step": K, then the step's id ("patch" or "commit", "subject")}. */
static json_t *step_head(const struct bs_step *s)
{
	json_t *o = json_pack("{s:i}", "step", s->k);

	if (o && json_object_update(o, s->id)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *step_json(const struct bs_ctx *c, const struct bs_step *s)
{
	json_t *o = step_head(s), *rest;
	json_t *rounds = json_array();

	if (o && s->variant[0])
		json_object_set_new(o, "variant", json_string(s->variant));
	rest = json_pack("{s:s, s:s, s:s, s:i, s:i, s:o}", "kernel", s->label, "hash", s->hash,
			 "decision", s->k && s->d == BS_PENDING ? "untested" : s->k ?
			 bs_decision_names[s->d] : "base", "runs", s->runs, "reused", s->reused,
			 "wall_s", num(s->wall_s));
	if (o && rest)
		json_object_update(o, rest);
	json_decref(rest);

	for (size_t i = 0; o && rounds && i < s->nrounds; i++) {
		json_t *vals = json_array();

		for (size_t j = 0; vals && j < s->rounds[i].nvals; j++)
			json_array_append_new(vals, json_real(s->rounds[i].vals[j]));
		json_array_append_new(rounds, json_pack("{s:i, s:i, s:i, s:o, s:o}", "round",
			(int)i + 1, "bad", (int)s->rounds[i].bad, "cells", (int)s->rounds[i].total,
			"values", vals, "wall_s", num(s->rounds[i].wall_s)));
	}
	json_object_set_new(o, "rounds", rounds);
	if (s->build_log[0])
		json_object_set_new(o, "build_failed", json_string(s->build_log));
	if (!s->k || !s->runs)
		return o;
	if (c->o->signature) {
		const struct bs_rate_eval *e = &s->rate;

		json_object_set_new(o, "evidence", json_pack("{s:i, s:i, s:o, s:[o,o], s:{s:i, s:i, s:o, s:[o,o]}, s:o, s:o}",
			"bad", (int)e->k, "cells", (int)e->n, "rate", num(e->rate), "ci", num(e->lo),
			num(e->hi), "base", "bad", (int)e->k0, "cells", (int)e->n0, "rate",
			num(e->rate0), "ci", num(e->lo0), num(e->hi0), "fisher_p", num(e->p),
			"good_below", num(e->threshold)));
	} else {
		const struct bs_metric_eval *e = &s->met;

		json_object_set_new(o, "evidence", json_pack("{s:s, s:i, s:o, s:o, s:{s:i, s:o, s:o}, s:o, s:[o,o], s:o, s:o}",
			"metric", c->o->metric, "n", (int)e->n, "mean", num(e->mean), "sd", num(e->sd),
			"base", "n", (int)e->n0, "mean", num(e->mean0), "sd", num(e->sd0),
			"ratio", num(e->ratio), "ci", num(e->lo), num(e->hi), "welch_p", num(e->p),
			"bad_beyond", num(e->limit)));
	}
	return o;
}

static void write_json(const struct bs_ctx *c, json_t *verdict)
{
	char path[4096];
	json_t *steps = json_array(), *order = json_array(), *o, *rest;

	for (int k = 0; k < c->nsteps; k++)
		json_array_append_new(steps, step_json(c, &c->steps[k]));
	for (size_t i = 0; i < c->order.n; i++)
		json_array_append_new(order, json_string(c->order.v[i]));
	o = json_deep_copy(c->head);
	rest = json_pack("{s:o, s:o, s:o, s:f, s:f, s:i, s:o, s:o, s:o, s:o}",
		      "signature", c->o->signature ? json_string(c->o->signature) : json_null(),
		      "metric", c->o->metric ? json_string(c->o->metric) : json_null(),
		      "worse_by_pct", c->o->metric ? json_real(c->o->worse_by_pct) : json_null(),
		      "confidence", c->o->confidence, "min_rate", c->o->min_rate,
		      "max_runs", c->o->max_runs,
		      "test_step", c->o->test_step > 0 ? json_integer(c->o->test_step) : json_null(),
		      "tested", order, "steps", steps,
		      "verdict", verdict ? json_incref(verdict) : json_null());
	if (o && rest && json_object_update(o, rest)) {
		json_decref(o);
		o = NULL;
	}
	json_decref(rest);
	/* pathf says why when the path does not fit */
	if (!pathf(path, sizeof(path), "%s/bisect.json", c->out) &&
	    (!o || json_dump_file(o, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER)))
		fprintf(stderr, "error: cannot write %s\n", path);
	json_decref(o);
}

/* The step of (g, b) nearest their middle that was not tested, else 0. */
static int next_step(const struct bs_ctx *c, int g, int b)
{
	int best = 0;
	double mid = (g + b) / 2.0;

	for (int k = g + 1; k < b; k++)
		if (c->steps[k].d == BS_PENDING && (!best || fabs(k - mid) < fabs(best - mid)))
			best = k;
	return best;
}

static void print_base(const struct bs_ctx *c)
{
	const struct bs_step *b = &c->steps[0];
	size_t k = 0, n = 0, nv = 0;
	double wall = 0;

	for (size_t i = 0; i < b->nrounds; i++) {
		k += b->rounds[i].bad;
		n += b->rounds[i].total;
		nv += b->rounds[i].nvals;
		wall += b->rounds[i].wall_s;
	}
	if (c->o->signature)
		printf("base (step 0, %s): %zu run%s, %zu/%zu bad, wall %.1f s\n", b->label,
		       b->nrounds, b->nrounds == 1 ? "" : "s", k, n, wall);
	else
		printf("base (step 0, %s): %zu run%s, %zu %s samples, wall %.1f s\n", b->label,
		       b->nrounds, b->nrounds == 1 ? "" : "s", nv, c->o->metric, wall);
}

/* 0 an answer, 1 undecided, else the error/signal of a round. */
static int search(struct bs_ctx *c)
{
	int n = c->nsteps - 1, g = 0, b, rc, k;
	char ev[512], undecided[256] = "";
	json_t *v, *id;

	if ((rc = test_step(c, &c->steps[n])))
		return rc;
	if (c->steps[n].d == BS_GOOD) {
		print_base(c);
		printf("bisect: none: every step good (step %d, the whole %s, is GOOD)\n", n,
		       c->way->noun);
		v = json_pack("{s:s}", "kind", "none");
		write_json(c, v);
		json_decref(v);
		return 0;
	}
	if (c->steps[n].d == BS_UNDECIDED) {
		print_base(c);
		if (c->steps[n].build_log[0])
			printf("bisect: undecided between 1 and %d (step %d, the whole %s, does not build)\n",
			       n, n, c->way->noun);
		else
			printf("bisect: undecided between 1 and %d (step %d, the whole %s, is neither good nor bad after %d runs)\n",
			       n, n, c->way->noun, c->steps[n].runs);
		v = json_pack("{s:s, s:[i,i]}", "kind", "undecided", "range", 1, n);
		write_json(c, v);
		json_decref(v);
		return 1;
	}
	b = n;
	write_json(c, NULL);
	while ((k = next_step(c, g, b))) {
		if ((rc = test_step(c, &c->steps[k])))
			return rc;
		if (c->steps[k].d == BS_GOOD)
			g = k;
		else if (c->steps[k].d == BS_BAD)
			b = k;
		write_json(c, NULL);
	}
	print_base(c);
	if (b == g + 1) {
		evidence(c, &c->steps[b], ev, sizeof(ev));
		printf("bisect: first bad step %d: %s (BAD after %d run%s: %s; step %d %s)\n", b,
		       c->steps[b].name, c->steps[b].runs, c->steps[b].runs == 1 ? "" : "s", ev,
		       g, g ? "GOOD" : "is the base");
		v = json_pack("{s:s}", "kind", "first_bad");
		id = step_head(&c->steps[b]);
		if (v && id)
			json_object_update(v, id);
		json_decref(id);
		write_json(c, v);
		json_decref(v);
		return 0;
	}
	for (int j = g + 1; j < b; j++)
		if (c->steps[j].d == BS_UNDECIDED)
			snprintf(undecided + strlen(undecided), sizeof(undecided) - strlen(undecided),
				 "%s%d", undecided[0] ? ", " : "", j);
	printf("bisect: undecided between %d and %d (step %d GOOD, step %d BAD; undecided: %s)\n",
	       g + 1, b, g, b, undecided);
	v = json_pack("{s:s, s:[i,i]}", "kind", "undecided", "range", g + 1, b);
	write_json(c, v);
	json_decref(v);
	return 1;
}

static void ctx_free(struct bs_ctx *c)
{
	for (int k = 0; c->steps && k < c->nsteps; k++) {
		for (size_t i = 0; i < c->steps[k].nrounds; i++)
			free(c->steps[k].rounds[i].vals);
		free(c->steps[k].rounds);
		json_decref(c->steps[k].id);
	}
	free(c->steps);
	json_decref(c->head);
	json_decref(c->params);
	strv_free(&c->names);
	strv_free(&c->patches);
	strv_free(&c->order);
}

int cmd_bisect(int argc, char **argv)
{
	struct bs_opts o;
	struct bs_ctx c = { 0 };
	int rc = parse_args(argc, argv, &o), one;

	/* --test-step among the arguments: its exit codes even for a usage error */
	one = o.test_step > 0;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		one |= !strncmp(argv[i], "--test-step", 11);
	if (rc) {
		strv_free(&o.run_args);
		return rc > 0 ? 0 : one ? EXIT_SKIP : 2;
	}
	if (setup(&c, &o)) {
		rc = one ? EXIT_SKIP : 2;
		goto out;
	}
	if (one) {
		struct bs_step *s = &c.steps[o.test_step];

		rc = test_step(&c, s);
		if (!rc) {
			json_t *v = json_pack("{s:s, s:i, s:s}", "kind", "test_step", "step", s->k,
					      "decision", bs_decision_names[s->d]);

			print_base(&c);
			write_json(&c, v);
			json_decref(v);
			rc = s->d == BS_GOOD ? 0 : s->d == BS_BAD ? 1 : EXIT_SKIP;
		} else if (rc < 128) {
			rc = EXIT_SKIP;
		}
		goto out;
	}
	rc = search(&c);
	if (rc < 0)
		rc = 2;
out:
	ctx_free(&c);
	strv_free(&o.run_args);
	return rc;
}
