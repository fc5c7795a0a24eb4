/* Options of `htab-torture run`: parsing and validation, one message per bad value. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *const workload_names[] = {
	"full_update", "overwrite", "batch_add_batch_del",
	"add_del_on_diff_cpu", "lookup", "churn", NULL,
};

static const char *const test_actions[] = { "panic", "hang", "warn", NULL };

enum {
	OPT_KERNEL_IMAGE = 0x100, OPT_KERNEL_RELEASE, OPT_MAP_TYPE,
	OPT_PREALLOC, OPT_DRY_RUN, OPT_TEST_ACTION, OPT_MODPARAM, OPT_MODULE,
};

static const struct option long_opts[] = {
	{ "cpus", required_argument, NULL, 'c' },
	{ "workload", required_argument, NULL, 'w' },
	{ "duration", required_argument, NULL, 'd' },
	{ "out", required_argument, NULL, 'o' },
	{ "kernel", required_argument, NULL, 'k' },
	{ "kernel-image", required_argument, NULL, OPT_KERNEL_IMAGE },
	{ "kernel-release", required_argument, NULL, OPT_KERNEL_RELEASE },
	{ "module", required_argument, NULL, OPT_MODULE },
	{ "accel", required_argument, NULL, 'a' },
	{ "bpftrace", required_argument, NULL, 'b' },
	{ "modparam", required_argument, NULL, OPT_MODPARAM },
	{ "map-type", required_argument, NULL, OPT_MAP_TYPE },
	{ "prealloc", required_argument, NULL, OPT_PREALLOC },
	{ "timeout", required_argument, NULL, 't' },
	{ "repeat", required_argument, NULL, 'r' },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "test-action", required_argument, NULL, OPT_TEST_ACTION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void run_usage(FILE *f)
{
	fputs("usage: htab-torture run --cpus N[,N...] --workload W[,W...] --duration SECONDS --out DIR\n"
	      "         [--kernel distro] [--kernel-image PATH] [--kernel-release R] [--module KO]\n"
	      "         [--accel auto|kvm|tcg] [--bpftrace NAME[,NAME...]|none]\n"
	      "         [--modparam key=val]... [--map-type hash] [--prealloc 0|1]\n"
	      "         [--timeout SECONDS] [--repeat N] [--dry-run]\n"
	      "workloads: full_update overwrite batch_add_batch_del add_del_on_diff_cpu lookup churn\n"
	      "exit status: 0 all cells PASS/SKIP, 1 some cell FAIL/CRASH/TIMEOUT, 2 usage or setup error\n",
	      f);
}

/* strtol with the checks libbpf-tools does: whole string, no overflow, in range. */
static int parse_int(const char *opt, const char *s, long lo, long hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "error: %s '%s': must be an integer %ld..%ld\n",
			opt, s, lo, hi);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static void print_list(FILE *f, const char *const *list)
{
	for (const char *const *p = list; *p; p++)
		fprintf(f, "%s%s", p == list ? "" : ", ", *p);
}

static int parse_cpus(struct run_opts *o, const char *s)
{
	struct strv items = { 0 };
	int err = -1;

	if (strv_split(&items, s, ',')) {
		fprintf(stderr, "error: --cpus '%s': must be a comma-separated list of integers 1..%d\n",
			s, MAX_VCPUS);
		goto cleanup;
	}
	for (size_t i = 0; i < items.n; i++) {
		if (o->ncpus >= (int)(sizeof(o->cpus) / sizeof(o->cpus[0]))) {
			fprintf(stderr, "error: --cpus: at most %zu values\n",
				sizeof(o->cpus) / sizeof(o->cpus[0]));
			goto cleanup;
		}
		if (parse_int("--cpus", items.v[i], 1, MAX_VCPUS, &o->cpus[o->ncpus]))
			goto cleanup;
		o->ncpus++;
	}
	err = 0;
cleanup:
	strv_free(&items);
	return err;
}

static int parse_workloads(struct run_opts *o, const char *s)
{
	struct strv items = { 0 };
	int err = -1;

	if (strv_split(&items, s, ',')) {
		fprintf(stderr, "error: --workload '%s': empty item\n", s);
		goto cleanup;
	}
	for (size_t i = 0; i < items.n; i++) {
		if (!in_list(workload_names, items.v[i])) {
			fprintf(stderr, "error: --workload '%s': must be one of ", items.v[i]);
			print_list(stderr, workload_names);
			fputc('\n', stderr);
			goto cleanup;
		}
		if (strv_push(&o->workloads, items.v[i]))
			goto cleanup;
	}
	err = 0;
cleanup:
	strv_free(&items);
	return err;
}

static int parse_bpftrace(struct run_opts *o, const char *s)
{
	struct strv items = { 0 };
	int err = -1;

	strv_free(&o->bpftrace);
	if (!strcmp(s, "none"))
		return 0;
	if (strv_split(&items, s, ',')) {
		fprintf(stderr, "error: --bpftrace '%s': must be 'none' or script names separated by commas\n", s);
		goto cleanup;
	}
	for (size_t i = 0; i < items.n; i++) {
		/* Names, not paths: the script must live in bpftrace/ of this repo. */
		if (strpbrk(items.v[i], "/ ") || items.v[i][0] == '.') {
			fprintf(stderr, "error: --bpftrace '%s': must be a script name from bpftrace/ (without .bt)\n",
				items.v[i]);
			goto cleanup;
		}
		if (strv_push(&o->bpftrace, items.v[i]))
			goto cleanup;
	}
	err = 0;
cleanup:
	strv_free(&items);
	return err;
}

static int parse_modparam(struct run_opts *o, const char *s)
{
	const char *eq = strchr(s, '=');

	if (!eq || eq == s || strpbrk(s, " \t\n'\"")) {
		fprintf(stderr, "error: --modparam '%s': must be key=value without spaces or quotes\n", s);
		return -1;
	}
	return strv_push(&o->modparams, s);
}

void run_opts_init(struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->kernel = "distro";
	o->accel = ACCEL_AUTO;
	o->prealloc = -1;
	o->repeat = 1;
	o->kernel_image = getenv("HTAB_KERNEL_IMAGE");
	o->kernel_release = getenv("HTAB_KERNEL_RELEASE");
	/* The pop histogram is the headline figure; --bpftrace none turns it off. */
	strv_push(&o->bpftrace, "__pcpu_freelist_pop");
}

void run_opts_free(struct run_opts *o)
{
	strv_free(&o->workloads);
	strv_free(&o->bpftrace);
	strv_free(&o->modparams);
}

static int parse_one(struct run_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'c':
		return parse_cpus(o, arg);
	case 'w':
		return parse_workloads(o, arg);
	case 'd':
		return parse_int("--duration", arg, 1, MAX_DURATION_S, &o->duration_s);
	case 'o':
		o->out = arg;
		return 0;
	case 'k':
		o->kernel = arg;
		return 0;
	case OPT_KERNEL_IMAGE:
		o->kernel_image = arg;
		return 0;
	case OPT_KERNEL_RELEASE:
		o->kernel_release = arg;
		return 0;
	case OPT_MODULE:
		o->module = arg;
		return 0;
	case 'a':
		if (accel_parse(arg, &o->accel)) {
			fprintf(stderr, "error: --accel '%s': must be one of auto, kvm, tcg\n", arg);
			return -1;
		}
		return 0;
	case 'b':
		return parse_bpftrace(o, arg);
	case OPT_MODPARAM:
		return parse_modparam(o, arg);
	case OPT_MAP_TYPE:
		if (!*arg || strpbrk(arg, " \t'\"")) {
			fprintf(stderr, "error: --map-type '%s': must be a map type name such as hash\n", arg);
			return -1;
		}
		o->map_type = arg;
		return 0;
	case OPT_PREALLOC:
		return parse_int("--prealloc", arg, 0, 1, &o->prealloc);
	case 't':
		return parse_int("--timeout", arg, 10, 24 * 3600, &o->timeout_s);
	case 'r':
		return parse_int("--repeat", arg, 1, 1000, &o->repeat);
	case OPT_DRY_RUN:
		o->dry_run = true;
		return 0;
	case OPT_TEST_ACTION:
		if (!in_list(test_actions, arg)) {
			fprintf(stderr, "error: --test-action '%s': must be one of ", arg);
			print_list(stderr, test_actions);
			fputc('\n', stderr);
			return -1;
		}
		o->test_action = arg;
		return 0;
	}
	return -1;
}

static int check_required(const struct run_opts *o)
{
	if (!o->ncpus) {
		fprintf(stderr, "error: --cpus is required (e.g. --cpus 2,4)\n");
		return -1;
	}
	if (!o->workloads.n) {
		fprintf(stderr, "error: --workload is required (e.g. --workload full_update)\n");
		return -1;
	}
	if (!o->duration_s) {
		fprintf(stderr, "error: --duration is required (seconds, 1..%d)\n", MAX_DURATION_S);
		return -1;
	}
	if (!o->out || !*o->out) {
		fprintf(stderr, "error: --out DIR is required\n");
		return -1;
	}
	return 0;
}

int run_opts_parse(struct run_opts *o, int argc, char **argv)
{
	int c;

	optind = 0;	/* full reset: tests call this more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", long_opts, NULL)) != -1) {
		if (c == 'h') {
			run_usage(stdout);
			return 1;
		}
		if (c == ':') {
			fprintf(stderr, "error: option '%s' needs a value\n", argv[optind - 1]);
			return 2;
		}
		if (c == '?') {
			fprintf(stderr, "error: unknown option '%s' (see --help)\n", argv[optind - 1]);
			return 2;
		}
		if (parse_one(o, c, optarg))
			return 2;
	}
	if (optind < argc) {
		fprintf(stderr, "error: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	return check_required(o) ? 2 : 0;
}
