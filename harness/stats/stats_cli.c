/* The `stats` subcommand: options, reading the samples, the table or JSON, exit status. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/opts.h"
#include "stats/stats.h"
#include "stats/stats_cli.h"

static const struct opt_spec stats_opts[] = {
	{ "base", 'b', "GROUP", "options", "the reference group (default: the first in the input)" },
	{ "json", 'j', NULL, "options", "print JSON instead of the table" },
	{ "alpha", 'a', "A", "options", "the CI is at level 1 - A, 0 < A < 1 (default 0.05)" },
	{ "help", 'h', NULL, "options", "this text" },
};
#define NSTATS_OPTS (sizeof(stats_opts) / sizeof(stats_opts[0]))

struct stats_opts {
	const char *base, *file;
	bool json;
	double alpha;
};

static void usage(FILE *f)
{
	fputs("usage: htab-torture stats [--base GROUP] [--json] [--alpha A] [FILE | -]\n"
	      "  Samples as NDJSON on stdin or in FILE, one object a line:\n"
	      "    {\"group\": \"time_ops=1\", \"rep\": 3, \"value\": 123.4}\n"
	      "  (\"rep\", a pairing key such as the round, is optional). Per group: n,\n"
	      "  mean ± sd (n - 1); for every group but the base, as `compare` does: the\n"
	      "  ratio of its mean to the base's, Welch's t-test p and a (1-alpha) percentile\n"
	      "  bootstrap CI of that ratio; when every sample has a rep, the mean ± sd of\n"
	      "  the per-rep ratios value / base value (reps of both only).\n\n", f);
	opts_help(f, stats_opts, NSTATS_OPTS);
	fputs("\nexit status: 0 printed; 2 usage or bad input (not JSON, a missing field,\n"
	      "an unknown --base, a group with fewer than 2 samples)\n", f);
}

/* 0 ok, 1 help printed, 2 usage error. */
static int parse_args(struct stats_opts *o, int argc, char **argv)
{
	struct option longopts[NSTATS_OPTS + 1];
	int c;

	opts_long(longopts, stats_opts, NSTATS_OPTS);
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': o->base = optarg; break;
		case 'j': o->json = true; break;
		case 'a': if (opts_fraction("alpha", optarg, &o->alpha)) return 2; break;
		case 'h': usage(stdout); return 1;
		default:
			fprintf(stderr, "error: unknown option or missing value: %s "
				"(see 'htab-torture stats --help')\n", argv[optind - 1]);
			return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "error: one input file at most, got %d: '%s' "
			"(see 'htab-torture stats --help')\n", argc - optind, argv[optind + 1]);
		return 2;
	}
	o->file = argc > optind ? argv[optind] : "-";
	return 0;
}

static int read_samples(struct stats_set *s, const char *file)
{
	bool in = !strcmp(file, "-");
	FILE *f = in ? stdin : fopen(file, "r");
	char err[512];
	int ret;

	if (!f) {
		fprintf(stderr, "error: %s: %s\n", file, strerror(errno));
		return -1;
	}
	ret = stats_read_ndjson(s, f, in ? "stdin" : file, err, sizeof(err));
	if (ret)
		fprintf(stderr, "error: %s\n", err);
	if (!in)
		fclose(f);
	return ret;
}

int cmd_stats(int argc, char **argv)
{
	struct stats_opts o;
	struct stats_set s;
	char err[1200];
	int ret = parse_args(&o, argc, argv);

	if (ret)
		return ret == 1 ? 0 : 2;
	stats_init(&s);
	s.alpha = o.alpha;
	ret = 2;
	if (read_samples(&s, o.file))
		goto cleanup;
	if (stats_compute(&s, o.base, err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		goto cleanup;
	}
	if (o.json) {
		json_t *j = stats_json(&s);

		if (!j || json_dumpf(j, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
				     JSON_REAL_PRECISION(10)) || fputc('\n', stdout) == EOF) {
			fprintf(stderr, "error: cannot write the JSON\n");
			json_decref(j);
			ret = 1;
			goto cleanup;
		}
		json_decref(j);
	} else {
		stats_print(stdout, &s);
	}
	ret = 0;
cleanup:
	stats_free(&s);
	return ret;
}
