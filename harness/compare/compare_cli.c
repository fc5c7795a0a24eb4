/* The `compare` subcommand: options, loading the runs, the outputs, exit status. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/compare.h"
#include "lib/opts.h"

static const struct opt_spec compare_opts[] = {
	{ "json", 'j', "FILE", "options",
	  "write the comparison as JSON ('-': stdout, no table);\n"
	  "default: RUN/compare.json for one run, none for two" },
	{ "alpha", 'a', "A", "options", "significance level, 0 < A < 1 (default 0.05)" },
	{ "base", 'b', "KERNEL", "options", "one run: the base kernel (default: its first)" },
	{ "base-fault", 'f', "FAULT", "options", "one run: every other fault against this one" },
	{ "help", 'h', NULL, "options", "this text" },
};
#define NCOMPARE_OPTS (sizeof(compare_opts) / sizeof(compare_opts[0]))

static void usage(FILE *f)
{
	fputs("usage: htab-torture compare RUN_A RUN_B [--json FILE] [--alpha A]\n"
	      "       htab-torture compare RUN [--base KERNEL | --base-fault FAULT] [--json FILE] [--alpha A]\n"
	      "  Two runs: cells matched on vcpus, workload, kernel (unless each run has one\n"
	      "  kernel), noise, fault and module params; B against A. One run: every kernel\n"
	      "  against the base kernel (default: the first of the run's --kernel list), or\n"
	      "  with --base-fault every other fault against that one (e.g. none), per kernel.\n"
	      "  Per metric: mean ±%stddev over PASS repeats, %change, Welch's t-test p\n"
	      "  (* when p < alpha) and a (1-alpha) bootstrap CI of mean(B)/mean(A). Per verdict\n"
	      "  and signature: k of n cells a side with Clopper-Pearson CIs, Fisher's exact p\n"
	      "  (regressed/fixed when p < alpha, else no evidence), repeats a side for 80% power.\n\n", f);
	opts_help(f, compare_opts, NCOMPARE_OPTS);
	fputs("\nexit status: 0 compared, 1 nothing matched or JSON not written, 2 usage or bad run dir\n",
	      f);
}

/* 0 ok, 1 help printed, 2 usage error. */
static int parse_args(struct cmp_opts *o, int argc, char **argv)
{
	struct option longopts[NCOMPARE_OPTS + 1];
	int c;

	opts_long(longopts, compare_opts, NCOMPARE_OPTS);
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->resamples = ST_BOOT_RESAMPLES;
	o->seed = ST_BOOT_SEED;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': o->json = optarg; break;
		case 'a': if (opts_fraction("alpha", optarg, &o->alpha)) return 2; break;
		case 'b': o->base = optarg; break;
		case 'f': o->base_fault = optarg; break;
		case 'h': usage(stdout); return 1;
		default:
			fprintf(stderr, "error: unknown option or missing value: %s "
				"(see 'htab-torture compare --help')\n", argv[optind - 1]);
			return 2;
		}
	}
	if (argc - optind < 1 || argc - optind > 2) {
		fprintf(stderr, "error: need one run directory (across its kernels) or two, "
			"got %d (see 'htab-torture compare --help')\n", argc - optind);
		return 2;
	}
	o->run_a = argv[optind];
	o->run_b = argc - optind == 2 ? argv[optind + 1] : NULL;
	if (o->run_b && (o->base || o->base_fault)) {
		fprintf(stderr, "error: --base%s '%s' applies to one run only\n",
			o->base ? "" : "-fault", o->base ? o->base : o->base_fault);
		return 2;
	}
	if (o->base && o->base_fault) {
		fprintf(stderr, "error: --base and --base-fault: give one (kernels or faults)\n");
		return 2;
	}
	return 0;
}

static int load_run(struct rep_run *r, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "error: run directory '%s': %s\n", dir,
			errno ? strerror(errno) : "not a directory");
		return -1;
	}
	if (rep_run_load(r, dir))
		return -1;
	if (!r->n) {
		fprintf(stderr, "error: '%s' holds no cells: not a run directory\n", dir);
		rep_run_free(r);
		return -1;
	}
	return 0;
}

static const char *pick_base(const struct rep_run *r, const char *want)
{
	char list[1024] = "";

	for (size_t i = 0; i < r->nkernels; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 i ? ", " : "", r->kernels[i]);
	if (r->nkernels < 2) {
		fprintf(stderr, "error: '%s' has one kernel (%s): nothing to compare within it; "
			"give a second run\n", r->dir, list);
		return NULL;
	}
	if (!want)
		return cmp_first_kernel(r);
	for (size_t i = 0; i < r->nkernels; i++)
		if (!strcmp(r->kernels[i], want))
			return r->kernels[i];
	fprintf(stderr, "error: --base '%s': not a kernel of %s (kernels: %s)\n", want,
		r->dir, list);
	return NULL;
}

/* --base-fault must name a fault of the run, and the run must have another. */
static int check_base_fault(const struct rep_run *r, const char *want)
{
	struct strv faults = { 0 };
	char list[1024] = "";
	bool found = false;
	int err = -1;

	if (cmp_run_faults(r, &faults))
		goto out;
	for (size_t i = 0; i < faults.n; i++) {
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 faults.v[i]);
		found |= !strcmp(faults.v[i], want);
	}
	if (!found)
		fprintf(stderr, "error: --base-fault '%s': not a fault of %s (faults: %s)\n", want,
			r->dir, list);
	else if (faults.n < 2)
		fprintf(stderr, "error: '%s' has one fault (%s): nothing to compare within it\n",
			r->dir, list);
	else
		err = 0;
out:
	strv_free(&faults);
	return err;
}

static int write_json(const struct cmp_result *res, const char *path)
{
	json_t *j = cmp_to_json(res);
	int err;

	if (!j) {
		fprintf(stderr, "error: cannot build the JSON\n");
		return -1;
	}
	if (!strcmp(path, "-"))
		err = json_dumpf(j, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
				 JSON_REAL_PRECISION(10)) || fputc('\n', stdout) == EOF;
	else
		err = json_dump_file(j, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
				     JSON_REAL_PRECISION(10));
	if (err)
		fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
	json_decref(j);
	return err ? -1 : 0;
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_opts o;
	struct rep_run a = { 0 }, b = { 0 };
	struct cmp_result res = { 0 };
	const char *base = NULL, *json;
	char def_json[4200];
	int ret = parse_args(&o, argc, argv);

	if (ret)
		return ret == 1 ? 0 : 2;
	if (load_run(&a, o.run_a))
		return 2;
	ret = 2;
	if (o.run_b ? load_run(&b, o.run_b) :
	    o.base_fault ? check_base_fault(&a, o.base_fault) : !(base = pick_base(&a, o.base)))
		goto cleanup;
	ret = 1;
	if (cmp_build(&res, &a, o.run_b ? &b : NULL, base, &o)) {
		fprintf(stderr, "error: out of memory\n");
		goto cleanup;
	}
	json = o.json;
	if (!json && !o.run_b) {
		snprintf(def_json, sizeof(def_json), "%s/compare.json", o.run_a);
		json = def_json;
	}
	if (!json || strcmp(json, "-"))
		cmp_print(stdout, &res);
	if (json && write_json(&res, json))
		goto cleanup;
	if (!res.ng) {
		fprintf(stderr, "error: no cell group of A matches one of B\n");
		goto cleanup;
	}
	ret = 0;
cleanup:
	cmp_result_free(&res);
	rep_run_free(&a);
	if (o.run_b)
		rep_run_free(&b);
	return ret;
}
