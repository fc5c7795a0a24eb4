// SPDX-License-Identifier: GPL-2.0
/*
 * full_update_driver - user-space driver of the full-map update benchmark
 * (seed 000, the freelist "skip empty lists" fix).
 *
 * It creates a preallocated hash map through the skeleton, fills it to
 * capacity, attaches full_update_driver.bpf.c to the getpgid() tracepoint and
 * runs one pinned thread per selected CPU calling getpgid() in a loop. Each
 * call makes the program try bpf_loop(LOOPS) updates of a key the map does
 * not hold, all of which must fail with E2BIG. Per CPU it prints
 *   CPU:hash_map_full_perf N events per sec
 * where an event is one update attempt and N is attempts per second of time
 * spent inside bpf_loop() on that CPU (the seed's selftest measures the same
 * in-program rate), then a total and a detail table.
 *
 * -m lookup (seed 004, "bpf: Inline LRU map lookup"): the map (-t hash or
 * lru_hash) is filled with keys [0, max_entries) and each program run makes
 * LOOPS lookups sweeping them in order, wrapping, per CPU; it prints
 *   CPU:TYPE_lookup_perf N lookups per sec
 * (lookups per second of time inside bpf_loop()), the total and a detail
 * table. An LRU map may have evicted some keys while it was filled: their
 * lookups miss and are counted, not failed; a hash map's must all hit.
 *
 * Exit: 0 pass, 1 an invariant broke (an update succeeded, failed with an
 * error other than E2BIG, a hash map lookup missed, or none ran), 2 bad
 * arguments, 3 setup refused.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench_common.h"
#include "full_update_driver.h"
#include "full_update_driver.skel.h"

#define TOOL "full_update_driver"
#define FILL_CHUNK 4096

static struct env {
	long nr_cpus;		/* -n: worker CPUs, -1 = every CPU we may run on */
	long duration;		/* -d: seconds */
	long max_entries;	/* -e: map capacity */
	long loops;		/* -l: bpf_loop() iterations per program run */
	int lookup;		/* -m lookup */
	int lru;		/* -t lru_hash */
} env = {
	.nr_cpus = -1,
	.duration = 5,
	.max_entries = 10000,
	.loops = 10000,
};

struct worker {
	pthread_t thread;
	int cpu;
	int pin_err;
	unsigned long calls;	/* getpgid() calls made */
};

static int stop;
static pthread_barrier_t start_line;

static void usage(FILE *f)
{
	fprintf(f,
"usage: " TOOL " [-n NR_CPUS|-1] [-d SECONDS] [-e MAX_ENTRIES] [-l LOOPS] [-m update|lookup]\n"
"       [-t hash|lru_hash] [-v]\n"
"Update absent keys of a full preallocated BPF hash map from a BPF program\n"
"run by getpgid(), one pinned thread per CPU; print events/s per CPU.\n"
"  -n NR_CPUS      worker CPUs, the first N we may run on; -1 = all (default -1)\n"
"  -d SECONDS      run time, 1..3600 (default %ld)\n"
"  -e MAX_ENTRIES  map capacity, 1..16777216 (default %ld)\n"
"  -l LOOPS        updates per program run, 1..%u (default %ld); one run keeps\n"
"                  its CPU, so under TCG stay well below 1e6\n"
"  -m update|lookup update: the above (default); lookup: the map filled, each\n"
"                  loop iteration looks up the next key, wrapping (seed 004)\n"
"  -t hash|lru_hash the map type (default hash; lru_hash only with -m lookup)\n"
"  -v              libbpf debug output\n"
"exit: 0 pass, 1 invariant broken, 2 bad arguments, 3 setup refused\n",
		env.duration, env.max_entries, FULL_UPDATE_MAX_LOOPS, env.loops);
}

static int parse_args(int argc, char **argv, int max_cpus)
{
	int opt;

	while ((opt = getopt(argc, argv, "n:d:e:l:m:t:vh")) != -1) {
		switch (opt) {
		case 'n':
			if (parse_long_opt('n', "NR_CPUS", optarg, LONG_MIN, LONG_MAX, &env.nr_cpus))
				return -1;
			if (env.nr_cpus != -1 && (env.nr_cpus < 1 || env.nr_cpus > max_cpus)) {
				fprintf(stderr, "invalid -n (NR_CPUS) %ld: must be -1 (all) or in [1, %d], "
					"the CPUs this process may run on\n", env.nr_cpus, max_cpus);
				return -1;
			}
			break;
		case 'd':
			if (parse_long_opt('d', "SECONDS", optarg, 1, 3600, &env.duration))
				return -1;
			break;
		case 'e':
			if (parse_long_opt('e', "MAX_ENTRIES", optarg, 1, 1L << 24, &env.max_entries))
				return -1;
			break;
		case 'l':
			if (parse_long_opt('l', "LOOPS", optarg, 1, FULL_UPDATE_MAX_LOOPS, &env.loops))
				return -1;
			break;
		case 'm':
			if (strcmp(optarg, "update") && strcmp(optarg, "lookup")) {
				fprintf(stderr, "invalid -m %s: must be update or lookup\n", optarg);
				return -1;
			}
			env.lookup = !strcmp(optarg, "lookup");
			break;
		case 't':
			if (strcmp(optarg, "hash") && strcmp(optarg, "lru_hash")) {
				fprintf(stderr, "invalid -t %s: must be hash or lru_hash\n", optarg);
				return -1;
			}
			env.lru = !strcmp(optarg, "lru_hash");
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
	if (env.lru && !env.lookup) {
		fprintf(stderr, "-t lru_hash needs -m lookup (an LRU map evicts instead of "
			"failing updates with E2BIG)\n");
		return -1;
	}
	return 0;
}

/* The CPUs we may run on, in order; returns how many. */
static int allowed_cpus(int *cpus)
{
	cpu_set_t set;
	int i, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			cpus[n++] = i;
	return n;
}

/* Fill keys [0, max_entries), then prove the map is full. */
static int fill_map(int fd, __u32 max_entries)
{
	static __u32 keys[FILL_CHUNK];
	static struct full_update_value vals[FILL_CHUNK];
	/* Batch updates accept no BPF_NOEXIST (only BPF_F_LOCK): the keys are new anyway. */
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 base, i, count, absent = max_entries;
	struct full_update_value v = { 0 };
	int err;

	for (base = 0; base < max_entries; base += count) {
		count = max_entries - base < FILL_CHUNK ? max_entries - base : FILL_CHUNK;
		for (i = 0; i < count; i++) {
			keys[i] = base + i;
			vals[i].index = base + i;
		}
		err = bpf_map_update_batch(fd, keys, vals, &count, &opts);
		if (err) {
			fprintf(stderr, "filling the map: update_batch at key %u: %s\n",
				base + count, strerror(-err));
			return err;
		}
	}
	if (env.lru)	/* an LRU map evicts instead: nothing to prove */
		return 0;
	err = bpf_map_update_elem(fd, &absent, &v, BPF_ANY);
	if (err != -E2BIG) {
		fprintf(stderr, "map not full after filling %u keys: update of key %u "
			"returned %d, expected -E2BIG\n", max_entries, absent, err);
		return err ? err : -EEXIST;
	}
	return 0;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	w->pin_err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_barrier_wait(&start_line);
	if (w->pin_err)
		return NULL;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		syscall(__NR_getpgid, 0);
		w->calls++;
	}
	return NULL;
}

static void on_sigint(int sig)
{
	(void)sig;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
}

/* Run the workers for env.duration seconds (or until SIGINT); returns elapsed s. */
static double run_workers(struct worker *ws, int n)
{
	struct timespec left = { .tv_sec = env.duration };
	sigset_t sigint;
	double t0, t1;
	int i;

	/* Workers inherit a blocked SIGINT, so Ctrl-C reaches main's sleep. */
	sigemptyset(&sigint);
	sigaddset(&sigint, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigint, NULL);
	pthread_barrier_init(&start_line, NULL, n + 1);
	for (i = 0; i < n; i++)
		pthread_create(&ws[i].thread, NULL, worker_fn, &ws[i]);
	pthread_sigmask(SIG_UNBLOCK, &sigint, NULL);
	pthread_barrier_wait(&start_line);
	t0 = now_s(CLOCK_MONOTONIC);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED) &&
	       nanosleep(&left, &left) && errno == EINTR)
		;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++)
		pthread_join(ws[i].thread, NULL);
	t1 = now_s(CLOCK_MONOTONIC);
	pthread_barrier_destroy(&start_line);
	return t1 - t0;
}

static double ev_per_s(const struct full_update_stats *s)
{
	return s->loop_ns ? s->updates * 1e9 / s->loop_ns : 0;
}

/* Print the seed-format lines, the total and the detail; return the exit code. */
static int report(const struct full_update_stats *st, int nr_possible,
		  const struct worker *ws, int n, double elapsed)
{
	struct full_update_stats sum = {};
	double rate, rsum = 0, rsq = 0, mean, sd;
	int cpu, i, nrates = 0;

	for (cpu = 0; cpu < nr_possible; cpu++) {
		const struct full_update_stats *s = &st[cpu];

		sum.prog_runs += s->prog_runs;
		sum.updates += s->updates;
		sum.update_ok += s->update_ok;
		sum.update_e2big += s->update_e2big;
		sum.update_other += s->update_other;
		if (!s->updates)
			continue;
		rate = ev_per_s(s);
		printf("%d:hash_map_full_perf %.0f events per sec\n", cpu, rate);
		rsum += rate;
		rsq += rate * rate;
		nrates++;
	}
	mean = nrates ? rsum / nrates : 0;
	sd = nrates > 1 ? sqrt((rsq - nrates * mean * mean) / (nrates - 1)) : 0;
	printf("total:hash_map_full_perf %.0f events per sec (%d CPUs; per CPU %.0f ± %.0f stddev)\n",
	       rsum, nrates, mean, sd);

	printf("# detail: loop_s = time inside bpf_loop(); wall_ev/s = updates / elapsed %.3f s\n",
	       elapsed);
	printf("# %4s %10s %12s %12s %8s %8s %9s %12s %10s %9s\n", "cpu", "prog_runs",
	       "updates", "e2big", "ok", "other", "loop_s", "wall_ev/s", "getpgid/s",
	       "other_err");
	printf("# %4s %10s %12s %12s %8s %8s %9s %12s %10s %9s\n", "", "count", "count",
	       "count", "count", "count", "s", "1/s", "1/s", "-errno");
	for (i = 0; i < n; i++) {
		const struct full_update_stats *s = &st[ws[i].cpu];

		printf("# %4d %10llu %12llu %12llu %8llu %8llu %9.3f %12.0f %10.0f %9lld\n",
		       ws[i].cpu, s->prog_runs, s->updates, s->update_e2big, s->update_ok,
		       s->update_other, s->loop_ns / 1e9, s->updates / elapsed,
		       ws[i].calls / elapsed, s->other_err);
	}

	if (!sum.updates) {
		printf("result: FAIL (no update ran: the program never fired)\n");
		return EXIT_FAIL;
	}
	if (sum.update_ok || sum.update_other ||
	    sum.update_e2big + sum.update_ok + sum.update_other != sum.updates) {
		printf("result: FAIL (%llu updates: %llu E2BIG, %llu succeeded, %llu other errors; "
		       "all must be E2BIG on a full map)\n", sum.updates, sum.update_e2big,
		       sum.update_ok, sum.update_other);
		return EXIT_FAIL;
	}
	printf("result: PASS (%llu updates in %llu program runs, all E2BIG)\n",
	       sum.updates, sum.prog_runs);
	return EXIT_PASS;
}

/* -m lookup: the seed-004 lines, the total and the detail; the exit code. */
static int report_lookup(const struct full_update_stats *st, int nr_possible,
			 const struct worker *ws, int n, double elapsed)
{
	const char *type = env.lru ? "lru_hash" : "hash";
	unsigned long long ops = 0, hit = 0, miss = 0;
	double rate, rsum = 0, rsq = 0, mean, sd;
	int cpu, i, nrates = 0;

	for (cpu = 0; cpu < nr_possible; cpu++) {
		const struct full_update_stats *s = &st[cpu];

		ops += s->updates;
		hit += s->lookup_hit;
		miss += s->lookup_miss;
		if (!s->updates)
			continue;
		rate = ev_per_s(s);
		printf("%d:%s_lookup_perf %.0f lookups per sec\n", cpu, type, rate);
		rsum += rate;
		rsq += rate * rate;
		nrates++;
	}
	mean = nrates ? rsum / nrates : 0;
	sd = nrates > 1 ? sqrt((rsq - nrates * mean * mean) / (nrates - 1)) : 0;
	printf("total:%s_lookup_perf %.0f lookups per sec (%d CPUs; per CPU %.0f ± %.0f stddev)\n",
	       type, rsum, nrates, mean, sd);
	printf("# detail: loop_s = time inside bpf_loop(); elapsed %.3f s\n", elapsed);
	printf("# %4s %10s %12s %12s %12s %9s %10s\n", "cpu", "prog_runs", "lookups", "hit",
	       "miss", "loop_s", "getpgid/s");
	for (i = 0; i < n; i++) {
		const struct full_update_stats *s = &st[ws[i].cpu];

		printf("# %4d %10llu %12llu %12llu %12llu %9.3f %10.0f\n", ws[i].cpu, s->prog_runs,
		       s->updates, s->lookup_hit, s->lookup_miss, s->loop_ns / 1e9,
		       ws[i].calls / elapsed);
	}
	if (!ops) {
		printf("result: FAIL (no lookup ran: the program never fired)\n");
		return EXIT_FAIL;
	}
	if (hit + miss != ops || (!env.lru && miss)) {
		printf("result: FAIL (%llu lookups: %llu hit, %llu missed; a full hash map's "
		       "must all hit)\n", ops, hit, miss);
		return EXIT_FAIL;
	}
	printf("result: PASS (%llu lookups in %s map of %ld keys: %llu hit, %llu missed)\n",
	       ops, type, env.max_entries, hit, miss);
	return EXIT_PASS;
}

/* Open, size and load the skeleton, fill the map, attach. */
static int setup(struct full_update_driver **out)
{
	struct full_update_driver *skel;
	int err;

	skel = full_update_driver__open();
	if (!skel) {
		fprintf(stderr, "failed to open the BPF skeleton: %s\n", strerror(errno));
		return -errno;
	}
	*out = skel;
	skel->rodata->target_tgid = getpid();
	skel->rodata->nr_loops = env.loops;
	skel->rodata->absent_key_base = env.max_entries;
	bpf_map__set_max_entries(skel->maps.full_map, env.max_entries);
	skel->rodata->lookup_mode = env.lookup;
	if (env.lru)
		bpf_map__set_type(skel->maps.full_map, BPF_MAP_TYPE_LRU_HASH);

	err = full_update_driver__load(skel);
	if (err) {
		fprintf(stderr, "failed to load the BPF object (map of %ld entries): %s\n",
			env.max_entries, strerror(-err));
		return err;
	}
	err = fill_map(bpf_map__fd(skel->maps.full_map), env.max_entries);
	if (err)
		return err;
	err = full_update_driver__attach(skel);
	if (err)
		fprintf(stderr, "failed to attach to tp/syscalls/sys_enter_getpgid: %s\n",
			strerror(-err));
	return err;
}

int main(int argc, char **argv)
{
	static int cpus[CPU_SETSIZE];
	struct full_update_driver *skel = NULL;
	struct full_update_stats *st = NULL;
	struct worker *ws = NULL;
	int nr_allowed, nr_possible, n, i, ret = EXIT_SETUP;
	double elapsed;
	__u32 zero = 0;

	nr_allowed = allowed_cpus(cpus);
	if (nr_allowed <= 0) {
		fprintf(stderr, "sched_getaffinity: %s\n", strerror(-nr_allowed));
		return EXIT_SETUP;
	}
	if (parse_args(argc, argv, nr_allowed))
		return EXIT_USAGE;
	n = env.nr_cpus < 0 ? nr_allowed : env.nr_cpus;
	libbpf_set_print(bench_libbpf_print);
	signal(SIGINT, on_sigint);

	print_env_header(TOOL);
	printf("# params: %d worker CPUs (first: %d, last: %d), duration %ld s, map %s "
	       "prealloc max_entries %ld key 4 B value 16 B, %s, loops %ld per run, "
	       "hook tp/syscalls/sys_enter_getpgid\n", n, cpus[0], cpus[n - 1],
	       env.duration, env.lru ? "lru_hash" : "hash", env.max_entries,
	       env.lookup ? "lookups of keys 0..max_entries-1 in order" : "updates of absent keys",
	       env.loops);
	fflush(stdout);

	nr_possible = libbpf_num_possible_cpus();
	ws = calloc(n, sizeof(*ws));
	st = calloc(nr_possible > 0 ? nr_possible : 1, sizeof(*st));
	if (nr_possible <= 0 || !ws || !st) {
		fprintf(stderr, "out of memory or no possible CPUs (%d)\n", nr_possible);
		goto cleanup;
	}
	if (setup(&skel))
		goto cleanup;

	for (i = 0; i < n; i++)
		ws[i].cpu = cpus[i];
	elapsed = run_workers(ws, n);
	for (i = 0; i < n; i++) {
		if (ws[i].pin_err) {
			fprintf(stderr, "pinning a worker to CPU %d: %s\n", ws[i].cpu,
				strerror(ws[i].pin_err));
			goto cleanup;
		}
	}
	if (bpf_map__lookup_elem(skel->maps.stats, &zero, sizeof(zero), st,
				 nr_possible * sizeof(*st), 0)) {
		fprintf(stderr, "reading the per-CPU counters: %s\n", strerror(errno));
		goto cleanup;
	}
	ret = env.lookup ? report_lookup(st, nr_possible, ws, n, elapsed)
			 : report(st, nr_possible, ws, n, elapsed);

cleanup:
	full_update_driver__destroy(skel);
	free(st);
	free(ws);
	return ret;
}
