// SPDX-License-Identifier: GPL-2.0
/*
 * batch_dump - time a full bpf_map_lookup_batch() dump of a sparse hash map
 * (seed 003: batch ops took every bucket lock, so dumping a 50K-entry map
 * holding one element cost as much as a full one).
 *
 * For each populated count N it creates a fresh hash map of MAX_ENTRIES,
 * inserts keys 0..N-1, dumps the whole map once untimed (and checks that
 * exactly N entries come back), then times REPEATS dumps. It prints a table
 * in the shape of the seed's google-benchmark output, BM_DumpHashMap/N.
 *
 * No BPF program is involved, so there is no .bpf.c and no skeleton: the
 * maps are made with bpf_map_create(), one per N.
 *
 * Exit: 0 pass, 1 a dump returned the wrong number of entries, 2 bad
 * arguments, 3 setup refused (no BPF, ENOMEM, ...).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdbool.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench_common.h"

#define TOOL "batch_dump"
#define MAX_POINTS 64
#define FILL_CHUNK 4096
#define MAX_MAP_ENTRIES (1L << 24)

static struct env {
	long max_entries;	/* -m */
	long points[MAX_POINTS];/* -p: populated entry counts */
	int nr_points;
	long repeats;		/* -r: timed dumps per point */
	long batch;		/* -b: entries per lookup_batch call, 0 = max_entries */
} env = {
	.max_entries = 50000,
	.points = { 1, 10, 200, 500, 1000, 5000, 20000, 39000 },
	.nr_points = 8,
	.repeats = 10,
	.batch = 0,
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: " TOOL " [-m MAX_ENTRIES] [-p N,N,...] [-r REPEATS] [-b BATCH] [-v]\n"
"Time full bpf_map_lookup_batch() dumps of a BPF hash map holding N entries.\n"
"  -m MAX_ENTRIES  map capacity, 1..%ld (default 50000)\n"
"  -p N,N,...      populated entry counts, each 0..MAX_ENTRIES, at most %d\n"
"                  (default 1,10,200,500,1000,5000,20000,39000)\n"
"  -r REPEATS      timed dumps per N, 1..100000 (default 10)\n"
"  -b BATCH        entries asked per lookup_batch call, 1..MAX_ENTRIES;\n"
"                  0 = MAX_ENTRIES, one call per dump (default 0)\n"
"  -v              libbpf debug output\n"
"exit: 0 pass, 1 wrong entry count, 2 bad arguments, 3 setup refused\n",
		MAX_MAP_ENTRIES, MAX_POINTS);
}

static int parse_points(const char *arg)
{
	char *copy = strdup(arg), *rest = copy, *tok;
	int ret = 0;

	if (!copy)
		return -1;
	env.nr_points = 0;
	/* strsep, not strtok: "1,,2" must be an error, not "1,2". */
	while ((tok = strsep(&rest, ","))) {
		if (env.nr_points == MAX_POINTS) {
			fprintf(stderr, "invalid -p (N,N,...): more than %d counts\n", MAX_POINTS);
			ret = -1;
			break;
		}
		/* The upper bound is checked against -m once all options are read. */
		if (parse_long_opt('p', "N,N,...", tok, 0, MAX_MAP_ENTRIES,
				   &env.points[env.nr_points++])) {
			ret = -1;
			break;
		}
	}
	free(copy);
	return ret;
}

static int parse_args(int argc, char **argv)
{
	int opt, i;

	while ((opt = getopt(argc, argv, "m:p:r:b:vh")) != -1) {
		switch (opt) {
		case 'm':
			if (parse_long_opt('m', "MAX_ENTRIES", optarg, 1, MAX_MAP_ENTRIES,
					   &env.max_entries))
				return -1;
			break;
		case 'p':
			if (parse_points(optarg))
				return -1;
			break;
		case 'r':
			if (parse_long_opt('r', "REPEATS", optarg, 1, 100000, &env.repeats))
				return -1;
			break;
		case 'b':
			if (parse_long_opt('b', "BATCH", optarg, 0, MAX_MAP_ENTRIES, &env.batch))
				return -1;
			break;
		case 'v':
			bench_verbose = 1;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_PASS);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	for (i = 0; i < env.nr_points; i++) {
		if (env.points[i] > env.max_entries) {
			fprintf(stderr, "invalid -p (N,N,...) %ld: must be in [0, %ld] "
				"(-m MAX_ENTRIES)\n", env.points[i], env.max_entries);
			return -1;
		}
	}
	if (env.batch > env.max_entries) {
		fprintf(stderr, "invalid -b (BATCH) %ld: must be in [0, %ld] (-m MAX_ENTRIES)\n",
			env.batch, env.max_entries);
		return -1;
	}
	if (!env.batch)
		env.batch = env.max_entries;
	return 0;
}

static int populate(int fd, __u32 n)
{
	static __u32 keys[FILL_CHUNK];
	static __u64 vals[FILL_CHUNK];
	__u32 base, i, count;
	int err;

	for (base = 0; base < n; base += count) {
		count = n - base < FILL_CHUNK ? n - base : FILL_CHUNK;
		for (i = 0; i < count; i++) {
			keys[i] = base + i;
			vals[i] = ~(__u64)(base + i);
		}
		err = bpf_map_update_batch(fd, keys, vals, &count, NULL);
		if (err) {
			fprintf(stderr, "populating %u entries: update_batch at key %u: %s\n",
				n, base + count, strerror(-err));
			return err;
		}
	}
	return 0;
}

/* One full dump; *entries and *calls say what it took. */
static int dump_all(int fd, void *keys, void *vals, __u32 *entries, __u32 *calls)
{
	__u64 in_batch = 0, out_batch = 0;	/* htab's token is a u32 bucket index */
	void *in = NULL;
	__u32 count;
	int err;

	*entries = *calls = 0;
	for (;;) {
		count = env.batch;
		err = bpf_map_lookup_batch(fd, in, &out_batch, keys, vals, &count, NULL);
		(*calls)++;
		if (err && err != -ENOENT)
			return err;
		*entries += count;
		if (err == -ENOENT)	/* the last call: the whole map was walked */
			return 0;
		in_batch = out_batch;
		in = &in_batch;
	}
}

struct point_result {
	double wall_mean, wall_sd, cpu_mean;
	__u32 calls;
};

/* Create, populate and dump one map; returns an EXIT_* code. */
static int run_point(__u32 n, void *keys, void *vals, struct point_result *r)
{
	double sum = 0, sq = 0, cpu_sum = 0, d;
	unsigned long long w0, c0;
	__u32 entries, calls;
	int fd, err, ret = EXIT_SETUP;
	long i;

	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "batch_dump", sizeof(__u32), sizeof(__u64),
			    env.max_entries, NULL);
	if (fd < 0) {
		fprintf(stderr, "creating a hash map of %ld entries: %s\n", env.max_entries,
			strerror(-fd));
		return EXIT_SETUP;
	}
	if (populate(fd, n))
		goto cleanup;
	err = dump_all(fd, keys, vals, &entries, &calls);
	if (!err && entries != n) {
		fprintf(stderr, "BM_DumpHashMap/%u: the dump returned %u entries, expected %u\n",
			n, entries, n);
		ret = EXIT_FAIL;
		goto cleanup;
	}
	for (i = 0; !err && i < env.repeats; i++) {
		w0 = now_ns(CLOCK_MONOTONIC);
		c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
		err = dump_all(fd, keys, vals, &entries, &r->calls);
		cpu_sum += now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
		d = now_ns(CLOCK_MONOTONIC) - w0;
		sum += d;
		sq += d * d;
	}
	if (err) {
		fprintf(stderr, "lookup_batch on %u entries, %ld per call: %s%s\n", n, env.batch,
			strerror(-err), err == -ENOSPC ? " (a bucket holds more: raise -b)" : "");
		goto cleanup;
	}
	r->wall_mean = sum / env.repeats;
	r->cpu_mean = cpu_sum / env.repeats;
	r->wall_sd = env.repeats > 1 ?
		sqrt(fmax(0, (sq - env.repeats * r->wall_mean * r->wall_mean) / (env.repeats - 1))) : 0;
	ret = EXIT_PASS;
cleanup:
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	void *keys = NULL, *vals = NULL;
	struct point_result r;
	int i, ret = EXIT_SETUP;
	char name[48];

	if (parse_args(argc, argv))
		return EXIT_USAGE;
	libbpf_set_print(bench_libbpf_print);

	print_env_header(TOOL);
	printf("# params: map hash prealloc max_entries %ld key 4 B value 8 B, lookup_batch "
	       "count %ld per call, repeats %ld per N (+1 untimed dump that checks the count)\n",
	       env.max_entries, env.batch, env.repeats);
	printf("# Time: mean wall-clock ns of one full dump (lookup_batch calls until ENOENT); "
	       "CPU: mean process CPU ns (user+sys) of one dump; Iterations: timed dumps; "
	       "Time sd: stddev of Time; calls: lookup_batch calls per dump\n");
	printf("%-24s %15s %15s %12s %14s %6s\n", "Benchmark", "Time", "CPU", "Iterations",
	       "Time sd", "calls");
	printf("%.*s\n", 91, "-------------------------------------------------------------"
	       "-------------------------------------------------------------");
	fflush(stdout);

	keys = calloc(env.batch, sizeof(__u32));
	vals = calloc(env.batch, sizeof(__u64));
	if (!keys || !vals) {
		fprintf(stderr, "out of memory for %ld-entry batch buffers\n", env.batch);
		goto cleanup;
	}
	for (i = 0; i < env.nr_points; i++) {
		ret = run_point(env.points[i], keys, vals, &r);
		if (ret != EXIT_PASS)
			goto cleanup;
		snprintf(name, sizeof(name), "BM_DumpHashMap/%ld", env.points[i]);
		printf("%-24s %12.0f ns %12.0f ns %12ld %11.0f ns %6u\n", name, r.wall_mean,
		       r.cpu_mean, env.repeats, r.wall_sd, r.calls);
		fflush(stdout);
	}
	printf("result: PASS (%d counts, every dump returned exactly N entries)\n", env.nr_points);

cleanup:
	free(keys);
	free(vals);
	return ret;
}
