/* Options of `htab-torture run`: parsing and validation, one message per bad value. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../kmod/callers.h"
#include "../kmod/fault_spec.h"
#include "../kmod/params.h"
#include "../kmod/workloads.h"
#include "lib/opts.h"
#include "run/plan/cli.h"
#include "run/plan/matrix.h"
#include "rundir/cell_id.h"
#include "run/plan/noise.h"
#include "run/plan/shard_auto.h"

/* The module's list (kmod/workloads.h): a workload added there is valid here. */
#define WORKLOAD_NAME(name) #name,
#define WORKLOAD_SPACE_NAME(name) " " #name
const char *const workload_names[] = { HT_WORKLOADS(WORKLOAD_NAME) NULL };

/* The module's map types (kmod/params.h); a value is part of a cell id. */
#define MAP_TYPE_NAME(name, ...) #name,
static const char *const map_types[] = { HT_MAP_TYPES(MAP_TYPE_NAME) NULL };
#define MAP_TYPE_LRU(name, bpf, lru, percpu) lru,
static const bool map_type_lru[] = { HT_MAP_TYPES(MAP_TYPE_LRU) };

/* The module's int parameters and their bounds (kmod/params.h), for --modparam. */
struct int_param {
	const char *name;
	int dflt, min, max;
};
#define INT_PARAM(type, name, dflt, min, max, help) HT_PARAM_IF_##type({ #name, dflt, min, max },)
static const struct int_param int_params[] = { HT_PARAMS(INT_PARAM) };
#define NINT_PARAMS (sizeof(int_params) / sizeof(int_params[0]))
/* Every parameter's name, and fault= (kmod/inject.c). */
#define PARAM_NAME(type, name, ...) #name,
static const char *const param_names[] = { HT_PARAMS(PARAM_NAME) "fault", NULL };

/* The int parameter named by the kl characters at s, or NULL. */
static const struct int_param *int_param_find(const char *s, size_t kl)
{
	for (size_t i = 0; i < NINT_PARAMS; i++)
		if (strlen(int_params[i].name) == kl && !strncmp(int_params[i].name, s, kl))
			return &int_params[i];
	return NULL;
}

/* The module's caller kinds (kmod/callers.h), in its order: a --callers value joins them with '+'. */
#define CALLER_NAME(name) #name,
static const char *const caller_kinds[] = { HT_CALLERS(CALLER_NAME) NULL };

static const char *const test_actions[] = { "panic", "hang", "warn", "none", NULL };

const int default_cpus[] = { 16, 32, 48, 64, 96 };
const int ndefault_cpus = sizeof(default_cpus) / sizeof(default_cpus[0]);

int default_duration_s(enum accel_mode resolved)
{
	return resolved == ACCEL_KVM ? 10 : 3;
}

enum {
	OPT_KERNEL_IMAGE = 0x100, OPT_KERNEL_RELEASE, OPT_KERNEL_TREE, OPT_JSON, OPT_MAP_TYPE,
	OPT_PREALLOC, OPT_DRY_RUN, OPT_TEST_ACTION, OPT_MODPARAM, OPT_MODULE,
	OPT_NOISE, OPT_JOBS, OPT_SHARD, OPT_PLAN_ONLY, OPT_TARGET, OPT_JOB_SCRIPT,
	OPT_FAULT, OPT_CRASH_GRACE, OPT_MAX_ENTRIES, OPT_VALUE_SIZE, OPT_COVERAGE, OPT_LPJ, OPT_BOOT_OPT, OPT_PVH, OPT_LZ4, OPT_RESTORE,
	OPT_BOOT_PER_CELL, OPT_CELLS_PER_BOOT, OPT_CALLERS, OPT_TASKS_PER_CPU, OPT_DEBUG_INFO, OPT_SANITIZERS,
	OPT_BPFTRACE_AOT, OPT_BPFTRACE_PREATTACH, OPT_GUEST_MEM, OPT_RESTORE_BOOTS,
};

#define AXES_GROUP "matrix (each a comma list; cells are every combination)"
#define RUN_GROUP "the run"
#define GUEST_GROUP "guest and module"
#define TEST_GROUP "tests"

/* The options, grouped for --help (opts.h): getopt's table and the help are made from it. */
static const struct opt_spec run_opts_table[] = {
	{ "cpus", 'c', "LIST", AXES_GROUP, "vCPUs: 16,32,48 or ranges 16-96:16 (default 16,32,48,64,96)" },
	{ "workload", 'w', "W[,W...]", AXES_GROUP,
	  "default " HT_PARAM_DEFAULT(workload) "; see workloads below" },
	{ "kernel", 'k', "K[,K...]", AXES_GROUP,
	  "distro (Debian's) or a variant of vm-images/build-kernel.sh --list\n(built on demand)" },
	{ "noise", OPT_NOISE, "PROFILE[,...]", AXES_GROUP, "stress-ng in the guest, default none; see below" },
	{ "map-type", OPT_MAP_TYPE, "TYPE[,...]", AXES_GROUP,
	  "one of" HT_MAP_TYPES(HT_SPACE_NAME) " (default " HT_PARAM_DEFAULT(map_type) ")" },
	{ "prealloc", OPT_PREALLOC, "0|1[,...]", AXES_GROUP, "default " HT_PARAM_DEFAULT_STR(prealloc) },
	{ "max-entries", OPT_MAX_ENTRIES, "N[,N...]", AXES_GROUP,
	  HT_PARAM_RANGE_STR(max_entries) ", default " HT_PARAM_DEFAULT_STR(max_entries)
	  "; a cell away from a map default has\n-m<type>, -p<0|1>, -e<N>, -s<N> in its id" },
	{ "value-size", OPT_VALUE_SIZE, "N[,N...]", AXES_GROUP,
	  "bytes of a map value, " HT_PARAM_RANGE_STR(value_size) ", default "
	  HT_PARAM_DEFAULT_STR(value_size) " (guest RAM follows)" },
	{ "callers", OPT_CALLERS, "C[,C...]", AXES_GROUP,
	  "who calls the map: kinds joined with +, in this order, kthread\n"
	  "always (default " HT_PARAM_DEFAULT(callers) "): kthread (the workload's bound kthreads),\n"
	  "nmi (an NMI a worker CPU per hrtimer period: insert, check, delete\n"
	  "of keys of its own), irq (the same from the hrtimer, hardirq),\n"
	  "task (user-space tasks, --tasks-per-cpu a vCPU, unbound, through\n"
	  "the bpf() syscall: insert, replace, check, delete of keys of their\n"
	  "own); e.g. --callers kthread,kthread+nmi; nmi and irq need a\n"
	  "preallocated map, every kind but kthread a hash or percpu_hash map;\n"
	  "a cell away from kthread has -c<value>" },
	{ "fault", OPT_FAULT, "SPEC", AXES_GROUP,
	  "repeatable, one value each (default none); the module's fault=SPEC:\n"
	  "none | delay[:SYMBOL]:N|Nns|Nus[:OPT...] | exhaust[:OPT...]\n"
	  "| lockhold[:SYMBOL]:N|Nns|Nus[:OPT...],\n"
	  "OPT p=P | every=N | cpus=LIST, several joined with + (kmod/README.md)\n"
	  "e.g. --fault none --fault delay:__pcpu_freelist_pop:2000ns:p=0.01" },
	{ "repeat", 'r', "N", AXES_GROUP, "every cell N times (default 1)" },
	{ "out", 'o', "DIR", RUN_GROUP,
	  "required; the same command on the same DIR runs only the unfinished cells" },
	{ "duration", 'd', "SECONDS", RUN_GROUP,
	  "default 3 under TCG, 10 under KVM; at most the module's\n"
	  "duration_ms bound (" HT_PARAM_RANGE_STR(duration_ms) " ms)" },
	{ "jobs", OPT_JOBS, "N", RUN_GROUP,
	  "cells at once (default: while the host's cores and memory allow)" },
	{ "shard", OPT_SHARD, "I/N|auto", RUN_GROUP,
	  "only the cells whose plan index mod N is I-1 ('htab-torture merge');\n"
	  "auto: I/N from a Slurm array, a Kubernetes Indexed Job or a\n"
	  "GitHub Actions matrix (harness/FORMAT.md, harness/jobs/)" },
	{ "plan-only", OPT_PLAN_ONLY, NULL, RUN_GROUP,
	  "print the cell ids of the plan (after --shard), one a line" },
	{ "json", OPT_JSON, NULL, RUN_GROUP,
	  "with --plan-only: the plan as a JSON array, a cell each:\n"
	  "id, dir (under --out), repeat and every axis value" },
	{ "dry-run", OPT_DRY_RUN, NULL, RUN_GROUP, "print the QEMU command lines only" },
	{ "target", OPT_TARGET, "vm|host", RUN_GROUP,
	  "host: the job on this machine (needs module loading and kprobes)" },
	{ "timeout", 't', "SECONDS", RUN_GROUP,
	  "a cell, from its boot or, in a shared boot, from its start\n(default: derived per cell)" },
	{ "boot-per-cell", OPT_BOOT_PER_CELL, NULL, RUN_GROUP,
	  "every cell boots a guest of its own (default: cells of one kernel\n"
	  "and vCPU count share a boot, a fresh insmod each; a cell that is\n"
	  "not PASS, a taint that appeared or a module left loaded ends it)" },
	{ "cells-per-boot", OPT_CELLS_PER_BOOT, "N", RUN_GROUP,
	  "at most N cells in a shared boot (default 0: all of its group);\n"
	  "the next boot takes the plan's next cell, so small N interleaves\n"
	  "kernels against a slow drift of the host" },
	{ "crash-grace", OPT_CRASH_GRACE, "SECONDS", RUN_GROUP,
	  "after the first kernel report on the console (Oops, BUG, panic,\n"
	  "WARNING, lockup, RCU stall, hung task, lockdep, GPF, KASAN) wait\n"
	  "this long (default 10, 0..600) for the rest, then stop the guest:\n"
	  "CRASH; the wait restarts while the guest's runner goes on" },
	{ "coverage", OPT_COVERAGE, NULL, GUEST_GROUP,
	  "--kernel coverage: gcov counters in the allocator's files;\n"
	  "each cell gets coverage.json (lines and branches hit)" },
	{ "kernel-tree", OPT_KERNEL_TREE, "DIR", GUEST_GROUP,
	  "a kernel tree you built (bzImage, .config, Module.symvers, vmlinux):\n"
	  "one more kernel, labelled tree-<DIR's name>; the module is built\n"
	  "against it and its .config checked first (vm-images/tree-config.req)" },
	{ "debug-info", OPT_DEBUG_INFO, "on|off", GUEST_GROUP,
	  "on: build variant kernels with DWARF line tables\n"
	  "(vm-images/kernels/debug.config, a build of its own: LINE-VARIANT-debug)\n"
	  "so a crash's excerpt is decoded to file:line in cell.json; off (default)" },
	{ "sanitizers", OPT_SANITIZERS, "on|off", GUEST_GROUP,
	  "on: build variant kernels with KASAN, KFENCE, UBSAN and DEBUG_LIST, and\n"
	  "line tables (vm-images/kernels/sanitizers.config: LINE-VARIANT-san), so\n"
	  "a bug that corrupts memory is named as one; off (default)" },
	{ "kernel-image", OPT_KERNEL_IMAGE, "PATH", GUEST_GROUP, "boot this image (one --kernel label)" },
	{ "kernel-release", OPT_KERNEL_RELEASE, "R", GUEST_GROUP, "its release (else read from the image)" },
	{ "module", OPT_MODULE, "KO", GUEST_GROUP, "default kmod/htab_torture.ko" },
	{ "accel", 'a', "auto|kvm|tcg", GUEST_GROUP, "default auto: KVM where the CPU has vmx/svm" },
	{ "lpj", OPT_LPJ, "auto|off|N", GUEST_GROUP,
	  "lpj= on the guest's command line (default auto: under TCG the\n"
	  "booted image's own value on this host, from a one-off 1-vCPU boot,\n"
	  "cached in vm-images/out/lpj/; none under KVM)" },
	{ "pvh", OPT_PVH, "auto|off", GUEST_GROUP,
	  "auto: under TCG boot the bzImage's uncompressed vmlinux through\n"
	  "PVH where the kernel has the entry (vm-images/pvh-vmlinux.sh, cached\n"
	  "in vm-images/out/pvh/); off (default): the bzImage" },
	{ "lz4", OPT_LZ4, "auto|off", GUEST_GROUP,
	  "auto (default): under TCG a Debian bzImage that decompresses itself\n"
	  "slowly (6.1's XZ, ~3 s a boot) boots as the same kernel with an LZ4\n"
	  "decompressor (vm-images/lz4-bzimage/, cached in vm-images/out/lz4/);\n"
	  "off: as Debian ships it" },
	{ "guest-mem", OPT_GUEST_MEM, "auto|MB", GUEST_GROUP,
	  "the guest's RAM before the map's share (2 x its footprint), the noise's\n"
	  "vm workers and the observers' copy: auto (default) 512 + 32 MB a vCPU up\n"
	  "to 32 vCPUs (1536 MB), or MB (" HT_STR(MIN_GUEST_MEM_MB) ".." HT_STR(MAX_GUEST_MEM_MB)
	  "; a smaller guest restores\n"
	  "faster, bench/RESULTS.md)" },
	{ "restore", OPT_RESTORE, "on|off", GUEST_GROUP,
	  "on: boot each (kernel, vCPUs, guest RAM) once, save the guest once\n"
	  "its CPUs are online and its modules loaded (before any 9p mount),\n"
	  "and restore that instead of booting (fresh random state and clock\n"
	  "each time); cached in vm-images/out/snapshots/ (default with guests).\n"
	  "off: boot every guest (the default with --target host)" },
	{ "restore-boots", OPT_RESTORE_BOOTS, "N", GUEST_GROUP,
	  "with --restore on: save each guest from N boots (htab.boot=K) and\n"
	  "restore boot r mod N for repeat r, so repeats sample N boots' layouts\n"
	  "(KASLR, per-CPU areas), not one (compare: \"N PASS in M boots\");\n"
	  "1.." HT_STR(MAX_RESTORE_BOOTS) ", default 1" },
	{ "tasks-per-cpu", OPT_TASKS_PER_CPU, "N", GUEST_GROUP,
	  "with --callers ...+task: user-space tasks a vCPU calling the map\n"
	  "(module tasks_per_cpu=N, " HT_PARAM_RANGE_STR(tasks_per_cpu) "; default "
	  HT_STR(HT_TASKS_PER_CPU_DEFAULT) ")" },
	{ "boot-opt", OPT_BOOT_OPT, "WORD", GUEST_GROUP,
	  "repeatable: appended to the guest's kernel command line\n"
	  "(e.g. maxcpus=2: the guest's init onlines the rest)" },
	{ "bpftrace", 'b', "NAME[,...]|none", GUEST_GROUP,
	  "scripts of bpftrace/ (default __pcpu_freelist_pop)" },
	{ "bpftrace-aot", OPT_BPFTRACE_AOT, "on|off", GUEST_GROUP,
	  "on (default): a kprobe-form script runs as a program bpftrace --aot\n"
	  "compiled in an earlier cell of the same kernel (cached in\n"
	  "vm-images/out/bpftrace-aot/), without LLVM's start-up; off: bpftrace\n"
	  "compiles every script in every cell" },
	{ "bpftrace-preattach", OPT_BPFTRACE_PREATTACH, "on|off", GUEST_GROUP,
	  "on (default with --restore on): the scripts go live in the guest\n"
	  "before it is saved, so a restored cell starts with its probes\n"
	  "attached; each snapshot then holds bpftrace (384 MB more guest RAM,\n"
	  "a save 5-12 s longer); off: each cell starts its own" },
	{ "modparam", OPT_MODPARAM, "KEY=VAL", GUEST_GROUP,
	  "repeatable, passed to the module: a parameter below (value_size=, …),\n"
	  "an integer in its bounds; guest RAM grows with the map, one the\n"
	  "host cannot hold is refused" },
	{ "job-script", OPT_JOB_SCRIPT, "PATH", TEST_GROUP,
	  "the guest runner sources PATH instead of the insmod sequence\n"
	  "(the cell passes when it returns 0)" },
	{ "test-action", OPT_TEST_ACTION, "A[,A...]", TEST_GROUP,
	  "an axis: panic, hang, warn, none, lkdtm:NAME or kmodule:NAME (makes the\n"
	  "guest do it; lkdtm:NAME writes NAME to LKDTM's provoke-crash/DIRECT,\n"
	  "kmodule:NAME inserts NAME.ko of the kernel's build: --sanitizers on)" },
	{ "help", 'h', NULL, "help", "this text" },
};
#define NRUN_OPTS (sizeof(run_opts_table) / sizeof(run_opts_table[0]))

void run_usage(FILE *f)
{
	fputs("usage: htab-torture run --out DIR [OPTIONS]\n"
	      "matrix: vCPUs x workload x kernel x noise x map type x prealloc x max entries x fault\n"
	      "  (x test action) x repeat\n\n", f);
	opts_help(f, run_opts_table, NRUN_OPTS);
	fputs("\nworkloads:" HT_WORKLOADS(WORKLOAD_SPACE_NAME) "\n"
	      "module parameters for --modparam (kmod/params.h; modinfo says what each does):\n", f);
	for (size_t i = 0; i < NINT_PARAMS; i++)
		fprintf(f, "  %-18s %d..%d, default %d\n", int_params[i].name, int_params[i].min,
			int_params[i].max, int_params[i].dflt);
	fputs("  and the named values of", f);
	for (size_t i = 0; param_names[i]; i++)
		if (!int_param_find(param_names[i], strlen(param_names[i])))
			fprintf(f, " %s", param_names[i]);
	fputs("\nnoise profiles:\n", f);
	noise_print_table(f);
	fputs("exit status: 0 all cells PASS/SKIP, 1 some cell FAIL/CRASH/TIMEOUT, 2 usage or setup error\n",
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

/* One item of a --cpus list: N, A-B or A-B:STEP. */
static int parse_cpu_item(const char *s, int *cpus, int *n, int cap, char *err, size_t errlen)
{
	long a, b, step = 1;
	char *end;

	errno = 0;
	a = strtol(s, &end, 10);
	b = a;
	if (!errno && end != s && *end == '-') {
		const char *bs = end + 1;

		b = strtol(bs, &end, 10);
		if (end == bs)
			goto bad;
		if (!errno && *end == ':') {
			const char *ss = end + 1;

			step = strtol(ss, &end, 10);
			if (end == ss)
				goto bad;
		}
	}
	if (errno || end == s || *end || !isdigit((unsigned char)s[0]))
		goto bad;
	if (a < 1 || b > MAX_VCPUS || a > b || step < 1) {
		snprintf(err, errlen, "--cpus '%s': values must be 1..%d, ranges A-B[:STEP] with A <= B and STEP >= 1",
			 s, MAX_VCPUS);
		return -1;
	}
	for (long v = a; v <= b; v += step) {
		for (int i = 0; i < *n; i++)
			if (cpus[i] == v) {
				snprintf(err, errlen, "--cpus: %ld appears twice", v);
				return -1;
			}
		if (*n >= cap) {
			snprintf(err, errlen, "--cpus: at most %d values", cap);
			return -1;
		}
		cpus[(*n)++] = (int)v;
	}
	return 0;
bad:
	snprintf(err, errlen, "--cpus '%s': must be integers 1..%d or ranges A-B[:STEP], comma-separated",
		 s, MAX_VCPUS);
	return -1;
}

int parse_cpu_list(const char *s, int *cpus, int *n, int cap, char *err, size_t errlen)
{
	struct strv items = { 0 };
	int rc = 0;

	if (strv_split(&items, s, ',')) {
		snprintf(err, errlen, "--cpus '%s': must be integers 1..%d or ranges A-B[:STEP], comma-separated",
			 s, MAX_VCPUS);
		strv_free(&items);
		return -1;
	}
	for (size_t i = 0; i < items.n && !rc; i++)
		rc = parse_cpu_item(items.v[i], cpus, n, cap, err, errlen);
	strv_free(&items);
	return rc;
}

static int parse_cpus(struct run_opts *o, const char *s)
{
	char err[256];

	o->ncpus = 0;
	if (parse_cpu_list(s, o->cpus, &o->ncpus, (int)(sizeof(o->cpus) / sizeof(o->cpus[0])),
			   err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		return -1;
	}
	return 0;
}

/* A comma list of names from a fixed set into sv (replacing it). */
static int parse_names(struct strv *sv, const char *opt, const char *s,
		       bool (*valid)(const char *), void (*print_valid)(FILE *))
{
	struct strv items = { 0 };
	int err = -1;

	strv_free(sv);
	if (strv_split(&items, s, ',')) {
		fprintf(stderr, "error: %s '%s': empty item\n", opt, s);
		goto cleanup;
	}
	for (size_t i = 0; i < items.n; i++) {
		if (valid && !valid(items.v[i])) {
			fprintf(stderr, "error: %s '%s': must be one of ", opt, items.v[i]);
			print_valid(stderr);
			fputc('\n', stderr);
			goto cleanup;
		}
		for (size_t k = 0; k < sv->n; k++)
			if (!strcmp(sv->v[k], items.v[i])) {
				fprintf(stderr, "error: %s: '%s' appears twice\n", opt, items.v[i]);
				goto cleanup;
			}
		if (strv_push(sv, items.v[i]))
			goto cleanup;
	}
	err = 0;
cleanup:
	strv_free(&items);
	return err;
}

static bool noise_valid(const char *s) { return noise_find(s) != NULL; }
/* Test actions with an argument, PREFIX:NAME: one list, read by the check
   and by the help. lkdtm:NAME writes NAME to LKDTM's provoke-crash/DIRECT
   (a kernel built with --sanitizers on has LKDTM); kmodule:NAME inserts
   NAME.ko from the kernel's own build (--sanitizers on builds kfence_test,
   KFENCE's KUnit suite). The guest checks the name against the kernel. */
static const struct {
	const char *prefix, *example;
	int (*is_char)(int c);	/* NAME's letters: upper (an LKDTM type) or lower (a module) */
} test_action_args[] = {
	{ "lkdtm:", "lkdtm:READ_AFTER_FREE", isupper },
	{ "kmodule:", "kmodule:kfence_test", islower },
};

static bool test_action_arg(const char *s)
{
	for (size_t i = 0; i < sizeof(test_action_args) / sizeof(test_action_args[0]); i++) {
		size_t l = strlen(test_action_args[i].prefix);
		const char *n = s + l;

		if (strncmp(s, test_action_args[i].prefix, l) || !*n)
			continue;
		for (; *n; n++)
			if (!test_action_args[i].is_char((unsigned char)*n) &&
			    !isdigit((unsigned char)*n) && *n != '_')
				return false;
		return true;
	}
	return false;
}
static bool test_action_valid(const char *s) { return in_list(test_actions, s) || test_action_arg(s); }
static void print_test_actions(FILE *f)
{
	print_list(f, test_actions);
	for (size_t i = 0; i < sizeof(test_action_args) / sizeof(test_action_args[0]); i++)
		fprintf(f, ", %sNAME (e.g. %s; --sanitizers on)", test_action_args[i].prefix,
			test_action_args[i].example);
}
static void print_workloads(FILE *f) { print_list(f, workload_names); }
static bool workload_valid(const char *s) { return in_list(workload_names, s); }
static bool map_type_valid(const char *s) { return in_list(map_types, s); }
static void print_map_types(FILE *f) { print_list(f, map_types); }

/* As the module reads it, and written one way only (no sign, no leading 0): it names a cell. */
static bool plain_int_in(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	return !errno && end != s && !*end && (isdigit((unsigned char)s[0]) && (s[0] != '0' || !s[1])) &&
	       v >= lo && v <= hi;
}

static bool prealloc_valid(const char *s)
{
	return plain_int_in(s, HT_PARAM_MIN(prealloc), HT_PARAM_MAX(prealloc));
}

static void print_prealloc(FILE *f)
{
	for (int v = HT_PARAM_MIN(prealloc); v <= HT_PARAM_MAX(prealloc); v++)
		fprintf(f, "%s%d", v == HT_PARAM_MIN(prealloc) ? "" : ", ", v);
}

/* An integer axis of a module parameter: NAME_valid and print_NAME from its kmod/params.h row. */
#define INT_PARAM_AXIS(name)								\
	static bool name##_valid(const char *s)						\
	{										\
		return plain_int_in(s, HT_PARAM_MIN(name), HT_PARAM_MAX(name));		\
	}										\
	static void print_##name(FILE *f) { fputs("integers " HT_PARAM_RANGE_STR(name), f); }
INT_PARAM_AXIS(max_entries)
INT_PARAM_AXIS(value_size)

static bool map_type_is_lru(const char *s)
{
	for (size_t i = 0; map_types[i]; i++)
		if (!strcmp(map_types[i], s))
			return map_type_lru[i];
	return false;
}

/*
 * Kinds of caller_kinds joined with '+', each once, in the list's order
 * (so one set is one cell id), kthread among them, as the module takes it.
 */
static bool callers_valid(const char *s)
{
	struct strv parts = { 0 };
	size_t next = 0, i, k;
	bool ok = !strv_split(&parts, s, '+') && parts.n;

	for (i = 0; ok && i < parts.n; i++) {
		for (k = next; caller_kinds[k] && strcmp(caller_kinds[k], parts.v[i]); k++)
			;
		ok = caller_kinds[k] != NULL;
		next = k + 1;
	}
	ok = ok && !strcmp(parts.v[0], HT_CALLERS_DEFAULT);
	strv_free(&parts);
	return ok;
}

bool callers_has_kind(const char *value, const char *kind)
{
	size_t n = strlen(kind);

	for (const char *p = value; p; p = strchr(p, '+'), p = p ? p + 1 : NULL)
		if (!strncmp(p, kind, n) && (p[n] == '+' || !p[n]))
			return true;
	return false;
}

static void print_callers(FILE *f)
{
	fputs("kinds ", f);
	print_list(f, caller_kinds);
	fputs(" joined with '+' in that order, " HT_CALLERS_DEFAULT " first (e.g. "
	      HT_CALLERS_DEFAULT ", " HT_CALLERS_DEFAULT "+nmi)", f);
}

/*
 * Kernel labels become paths and cell ids: a conservative character set,
 * and at most one '/' between a line and a variant (6.12/fixed).
 */
static bool kernel_name_valid(const char *s)
{
	const char *slash = strchr(s, '/');

	if (!*s || strlen(s) > 48 || s[0] == '.' || s[0] == '-' || s[0] == '/')
		return false;
	if (slash && (strchr(slash + 1, '/') || !slash[1] || slash[1] == '.' || slash[1] == '-'))
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-/", *p))
			return false;
	return true;
}

static void print_kernel_rule(FILE *f)
{
	fputs("'distro', a distro kernel distro-LINE... (vm-images/kernel-lines.sh labels) "
	      "or a variant, [LINE/]VARIANT (letters, digits, . _ -; see vm-images/build-kernel.sh --list)", f);
}

/* I/N, or auto: from the scheduler's environment (run/plan/shard_auto.c), said on stderr. */
static int parse_shard(struct run_opts *o, const char *s)
{
	int i, n, len = 0;

	if (!strcmp(s, "auto")) {
		char msg[1024];
		int rc = shard_auto(getenv, &i, &n, msg, sizeof(msg));

		fprintf(stderr, "%s%s\n", rc ? "error: " : "", msg);
		if (rc)
			return -1;
	} else if (sscanf(s, "%d/%d%n", &i, &n, &len) != 2 || s[len] || n < 1 || n > SHARD_MAX ||
		   i < 1 || i > n) {
		fprintf(stderr, "error: --shard '%s': must be I/N with 1 <= I <= N <= %d (e.g. 1/4), or auto\n",
			s, SHARD_MAX);
		return -1;
	}
	o->shard_i = i;
	o->shard_n = n;
	return 0;
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

/*
 * KEY=VAL of --modparam as the module takes it (kmod/params.h): KEY one of
 * its parameters (insmod would ignore another), an int within its bounds
 * or at its default, read as param_set_int() does (kstrtoint, base 0).
 */
static int check_modparam(const char *s, size_t kl, const char *val)
{
	const struct int_param *p = int_param_find(s, kl);
	char *end;
	long v;

	if (p) {
		errno = 0;
		v = strtol(val, &end, 0);
		if (!errno && end != val && !*end && (v == p->dflt || (v >= p->min && v <= p->max)))
			return 0;
		fprintf(stderr, "error: --modparam %s: %s must be an integer %d..%d", s, p->name,
			p->min, p->max);
		if (p->dflt < p->min || p->dflt > p->max)
			fprintf(stderr, " or %d, its default", p->dflt);
		fputs(" (the module's bounds)\n", stderr);
		return -1;
	}
	if (kl == 5 && !strncmp(s, "fault", kl)) {
		char err[512];

		if (!fault_check(val, err, sizeof(err)))
			return 0;
		fprintf(stderr, "error: --modparam %s: %s\n", s, err);
		return -1;
	}
	for (size_t i = 0; param_names[i]; i++)
		if (strlen(param_names[i]) == kl && !strncmp(param_names[i], s, kl))
			return 0;
	fprintf(stderr, "error: --modparam %s: the module has no parameter '%.*s' (valid: ", s, (int)kl, s);
	print_list(stderr, param_names);
	fputs(")\n", stderr);
	return -1;
}

static int parse_modparam(struct run_opts *o, const char *s)
{
	const char *eq = strchr(s, '=');

	if (!eq || eq == s || strpbrk(s, " \t\n'\"")) {
		fprintf(stderr, "error: --modparam '%s': must be key=value without spaces or quotes\n", s);
		return -1;
	}
	if (check_modparam(s, (size_t)(eq - s), eq + 1))
		return -1;
	return strv_push(&o->modparams, s);
}

/*
 * A fault= value as the module parses it (kmod/fault_spec.h, the same
 * parser): what is wrong goes into err, after the fault it is in when
 * the value holds several.
 */
int fault_check(const char *s, char *err, size_t errlen)
{
	struct ht_fault_spec specs[HT_MAX_FAULTS];
	struct ht_fault_error e;
	char msg[256];
	int n = 0;

	if (!ht_fault_value_parse(s, specs, HT_MAX_FAULTS, &n, &e))
		return 0;
	ht_fault_strerror(s, &e, msg, sizeof(msg));
	if (e.spec_at || s[e.spec_len])
		snprintf(err, errlen, "'%.*s': %s", e.spec_len, s + e.spec_at, msg);
	else
		snprintf(err, errlen, "%s", msg);
	return -1;
}

static int parse_fault(struct run_opts *o, const char *s)
{
	char err[512];

	if (fault_check(s, err, sizeof(err))) {
		fprintf(stderr, "error: --fault '%s': %s\n", s, err);
		return -1;
	}
	for (size_t i = 0; i < o->faults.n; i++)
		if (!strcmp(o->faults.v[i], s)) {
			fprintf(stderr, "error: --fault: '%s' appears twice\n", s);
			return -1;
		}
	return strv_push(&o->faults, s);
}

static int parse_lpj(struct run_opts *o, const char *s)
{
	char *end;
	long v;

	if (!strcmp(s, "auto") || !strcmp(s, "off")) {
		o->lpj_mode = s[0] == 'a' ? LPJ_AUTO : LPJ_OFF;
		return 0;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || !isdigit((unsigned char)s[0]) || v < 1 || v > LPJ_MAX) {
		fprintf(stderr, "error: --lpj '%s': must be auto, off or an integer 1..%ld\n", s, LPJ_MAX);
		return -1;
	}
	o->lpj_mode = LPJ_VALUE;
	o->lpj_value = v;
	return 0;
}

static int parse_guest_mem(struct run_opts *o, const char *s)
{
	char *end;
	long v;

	if (!strcmp(s, "auto")) {
		o->guest_mem_mb = 0;
		return 0;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || !isdigit((unsigned char)s[0]) || v < MIN_GUEST_MEM_MB ||
	    v > MAX_GUEST_MEM_MB) {
		fprintf(stderr, "error: --guest-mem '%s': must be auto or MB, an integer %d..%d\n", s,
			MIN_GUEST_MEM_MB, MAX_GUEST_MEM_MB);
		return -1;
	}
	o->guest_mem_mb = (int)v;
	return 0;
}

/* One word of the kernel command line; htab.* and lpj= are the harness's own. */
static int parse_boot_opt(struct run_opts *o, const char *s)
{
	bool ok = *s && strlen(s) <= 128 && s[0] != '=' && s[0] != '-';

	for (const char *p = s; ok && *p; p++)
		ok = isalnum((unsigned char)*p) || strchr("._-=,:/", *p);
	if (!ok) {
		fprintf(stderr, "error: --boot-opt '%s': must be one kernel parameter, PARAM or PARAM=VALUE (letters, digits and ._-=,:/, at most 128)\n",
			s);
		return -1;
	}
	if (!strncmp(s, "htab.", 5) || !strncmp(s, "lpj=", 4) || !strcmp(s, "lpj")) {
		fprintf(stderr, "error: --boot-opt '%s': %s is the harness's own (use %s)\n", s,
			s[0] == 'h' ? "htab.*" : "lpj=", s[0] == 'h' ? "--job-script" : "--lpj N|off");
		return -1;
	}
	return strv_push(&o->boot_opts, s);
}

void run_opts_init(struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->accel = ACCEL_AUTO;
	o->repeat = 1;
	o->crash_grace_s = DEFAULT_CRASH_GRACE_S;
	/*
	 * Its A/Bs moved module metrics at 96 vCPUs, and 2 of 11 PVH boots
	 * stalled at asm_exc_int3 (bench/pvh_ab.sh; bench/RESULTS.md).
	 */
	o->pvh_off = true;
	o->kernel_image = getenv("HTAB_KERNEL_IMAGE");
	o->kernel_release = getenv("HTAB_KERNEL_RELEASE");
	/* The pop histogram is the headline figure; --bpftrace none turns it off. */
	strv_push(&o->bpftrace, "__pcpu_freelist_pop");
}

void run_opts_free(struct run_opts *o)
{
	for (int a = 0; a < AX_NR; a++)
		strv_free(&o->axv[a]);
	strv_free(&o->bpftrace);
	strv_free(&o->modparams);
	strv_free(&o->boot_opts);
	strv_free(&o->kernel_trees);
	strv_free(&o->kernel_tree_labels);
}

/*
 * tree-<the directory's name as given> (not a symlink's target), in the
 * characters a kernel label may have.
 */
static void kernel_tree_label(const char *dir, char *out, size_t n)
{
	char d[PATH_MAX];
	const char *base;
	size_t len;

	snprintf(d, sizeof(d), "%s", dir);
	for (len = strlen(d); len > 1 && d[len - 1] == '/'; len--)
		d[len - 1] = '\0';
	base = strrchr(d, '/');
	snprintf(out, n, "tree-%.40s", base && base[1] ? base + 1 : d);
	for (char *p = out + 5; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			*p = '_';
}

const char *run_opts_kernel_tree(const struct run_opts *o, const char *label)
{
	for (size_t i = 0; i < o->kernel_trees.n; i++)
		if (!strcmp(o->kernel_tree_labels.v[i], label))
			return o->kernel_trees.v[i];
	return NULL;
}

/* --kernel-tree DIR: an existing directory, kept absolute (the guest and the build need it so). */
static int parse_kernel_tree(struct run_opts *o, const char *arg)
{
	char abs[PATH_MAX], label[64];
	struct stat st;

	if (!realpath(arg, abs) || stat(abs, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "error: --kernel-tree '%s': not a directory\n", arg);
		return -1;
	}
	kernel_tree_label(arg, label, sizeof(label));
	for (size_t i = 0; i < o->kernel_tree_labels.n; i++)
		if (!strcmp(o->kernel_tree_labels.v[i], label)) {
			fprintf(stderr, "error: --kernel-tree '%s': its label %s is another tree's too (valid: trees in directories of different names)\n",
				arg, label);
			return -1;
		}
	return strv_push(&o->kernel_trees, abs) || strv_push(&o->kernel_tree_labels, label);
}

/* After every option: the trees join the --kernel labels, in either order of the options. */
static int add_kernel_trees(struct run_opts *o)
{
	for (size_t i = 0; i < o->kernel_tree_labels.n; i++) {
		for (size_t k = 0; k < o->kernels.n; k++)
			if (!strcmp(o->kernels.v[k], o->kernel_tree_labels.v[i])) {
				fprintf(stderr, "error: --kernel-tree %s: its label %s is a --kernel label too (valid: one of them)\n",
					o->kernel_trees.v[i], o->kernel_tree_labels.v[i]);
				return -1;
			}
		if (strv_push(&o->kernels, o->kernel_tree_labels.v[i]))
			return -1;
	}
	return 0;
}

/* A two-valued option, A or B; *set = (the value is SET_BY, one of them). */
static int parse_either(const char *opt, const char *arg, const char *a, const char *b,
			const char *set_by, bool *set)
{
	if (strcmp(arg, a) && strcmp(arg, b)) {
		fprintf(stderr, "error: %s '%s': must be %s or %s\n", opt, arg, a, b);
		return -1;
	}
	*set = !strcmp(arg, set_by);
	return 0;
}

static int parse_one(struct run_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'c':
		return parse_cpus(o, arg);
	case OPT_LPJ:
		return parse_lpj(o, arg);
	case OPT_BOOT_OPT:
		return parse_boot_opt(o, arg);
	case OPT_PVH:
		return parse_either("--pvh", arg, "auto", "off", "off", &o->pvh_off);
	case OPT_LZ4:
		return parse_either("--lz4", arg, "auto", "off", "off", &o->lz4_off);
	case OPT_GUEST_MEM:
		return parse_guest_mem(o, arg);
	case OPT_BPFTRACE_AOT:
		return parse_either("--bpftrace-aot", arg, "on", "off", "off", &o->bt_aot_off);
	case OPT_BPFTRACE_PREATTACH:
		o->bt_preattach_given = true;
		return parse_either("--bpftrace-preattach", arg, "on", "off", "on", &o->bt_preattach);
	case OPT_RESTORE_BOOTS:
		return parse_int("--restore-boots", arg, 1, MAX_RESTORE_BOOTS, &o->restore_boots);
	case OPT_RESTORE:
		o->restore_given = true;
		return parse_either("--restore", arg, "on", "off", "on", &o->restore);
	case OPT_DEBUG_INFO:
		return parse_either("--debug-info", arg, "on", "off", "on", &o->debug_info);
	case OPT_SANITIZERS:
		return parse_either("--sanitizers", arg, "on", "off", "on", &o->sanitizers);
	case 'w':
		return parse_names(&o->workloads, "--workload", arg, workload_valid, print_workloads);
	case 'd':
		return parse_int("--duration", arg, MIN_DURATION_S, MAX_DURATION_S, &o->duration_s);
	case 'o':
		o->out = arg;
		return 0;
	case 'k':
		return parse_names(&o->kernels, "--kernel", arg, kernel_name_valid, print_kernel_rule);
	case OPT_NOISE:
		return parse_names(&o->noises, "--noise", arg, noise_valid, noise_print_names);
	case OPT_FAULT:
		return parse_fault(o, arg);
	case OPT_JOBS:
		return parse_int("--jobs", arg, 1, 256, &o->jobs);
	case OPT_BOOT_PER_CELL:
		o->boot_per_cell = true;
		return 0;
	case OPT_CELLS_PER_BOOT:
		return parse_int("--cells-per-boot", arg, 0, 100000, &o->cells_per_boot);
	case OPT_SHARD:
		return parse_shard(o, arg);
	case OPT_PLAN_ONLY:
		o->plan_only = true;
		return 0;
	case OPT_JSON:
		o->plan_json = true;
		return 0;
	case OPT_TARGET:
		if (strcmp(arg, "vm") && strcmp(arg, "host")) {
			fprintf(stderr, "error: --target '%s': must be one of vm, host\n", arg);
			return -1;
		}
		o->target_host = !strcmp(arg, "host");
		return 0;
	case OPT_JOB_SCRIPT:
		/* The guest sees the host root: any existing file works once absolute. */
		if (strpbrk(arg, "'\n") || strlen(arg) >= sizeof(o->job_script_abs) ||
		    !realpath(arg, o->job_script_abs)) {
			fprintf(stderr, "error: --job-script '%s': must be an existing file, path without quotes\n",
				arg);
			return -1;
		}
		o->job_script = o->job_script_abs;
		return 0;
	case OPT_KERNEL_TREE:
		return parse_kernel_tree(o, arg);
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
		return parse_names(&o->map_types, "--map-type", arg, map_type_valid, print_map_types);
	case OPT_PREALLOC:
		return parse_names(&o->preallocs, "--prealloc", arg, prealloc_valid, print_prealloc);
	case OPT_MAX_ENTRIES:
		return parse_names(&o->max_entries_list, "--max-entries", arg, max_entries_valid,
				   print_max_entries);
	case OPT_VALUE_SIZE:
		return parse_names(&o->value_sizes, "--value-size", arg, value_size_valid,
				   print_value_size);
	case OPT_CALLERS:
		return parse_names(&o->callers_list, "--callers", arg, callers_valid, print_callers);
	case OPT_TASKS_PER_CPU:
		return parse_int("--tasks-per-cpu", arg, HT_PARAM_MIN(tasks_per_cpu), HT_PARAM_MAX(tasks_per_cpu),
				 &o->tasks_per_cpu);
	case 't':
		return parse_int("--timeout", arg, 10, 24 * 3600, &o->timeout_s);
	case OPT_CRASH_GRACE:
		return parse_int("--crash-grace", arg, 0, MAX_CRASH_GRACE_S, &o->crash_grace_s);
	case 'r':
		return parse_int("--repeat", arg, 1, 1000, &o->repeat);
	case OPT_DRY_RUN:
		o->dry_run = true;
		return 0;
	case OPT_COVERAGE:
		o->coverage = true;
		return 0;
	case OPT_TEST_ACTION:
		return parse_names(&o->test_actions, "--test-action", arg, test_action_valid,
				   print_test_actions);
	}
	return -1;
}

/* Defaults for what was not given (the default matrix of `make run`). */
static int apply_defaults(struct run_opts *o)
{
	if (!o->ncpus) {
		for (int i = 0; i < ndefault_cpus; i++)
			o->cpus[i] = default_cpus[i];
		o->ncpus = ndefault_cpus;
	}
	if (!o->workloads.n && strv_push(&o->workloads, HT_PARAM_DEFAULT(workload)))
		return -1;
	if (!o->kernels.n && strv_push(&o->kernels, o->target_host ? "host" : "distro"))
		return -1;
	/* An axis with a default and no value given runs at its default. */
	for (int a = 0; a < AX_NR; a++)
		if (a != AX_VCPUS && !o->axv[a].n && axes[a].dflt && !axes[a].null_default &&
		    strv_push(&o->axv[a], axes[a].dflt))
			return -1;
	return 0;
}

/* Does the run give axis a a value other than its default? */
static bool axis_set(const struct run_opts *o, int a)
{
	for (size_t i = 0; i < o->axv[a].n; i++)
		if (!axis_is_default(a, o->axv[a].v[i]))
			return true;
	return false;
}

bool callers_map_possible(const char *callers, const char *map_type, const char *prealloc,
			  const char **why)
{
	bool irq = callers && (callers_has_kind(callers, "nmi") || callers_has_kind(callers, "irq"));
	bool task = callers && callers_has_kind(callers, "task");

	if ((irq || task) && map_type && map_type_is_lru(map_type)) {
		*why = irq ? "nmi and irq callers need a hash or percpu_hash map (LRU lists take locks an NMI can deadlock on)"
			   : "task callers need a hash or percpu_hash map (an LRU map evicts the keys whose presence they check)";
		return false;
	}
	if (irq && prealloc && !strcmp(prealloc, "0")) {
		*why = "nmi and irq callers need a preallocated map (valid: --prealloc 1)";
		return false;
	}
	return true;
}

/*
 * The plan leaves out the crossings of --callers with --map-type and
 * --prealloc the module refuses (callers_map_possible); a callers value
 * with no possible cell at all is an error naming what it needs.
 */
static int check_callers_map(const struct run_opts *o)
{
	for (size_t i = 0; i < o->callers_list.n; i++) {
		const char *v = o->callers_list.v[i], *why = NULL;
		bool any = false;

		if (axis_is_default(AX_CALLERS, v))
			continue;
		for (size_t k = 0; k < o->map_types.n; k++)
			for (size_t l = 0; l < o->preallocs.n; l++)
				any |= callers_map_possible(v, o->map_types.v[k], o->preallocs.v[l], &why);
		if (!any) {
			fprintf(stderr, "error: --callers %s: no --map-type and --prealloc of this run has a cell for it: %s\n",
				v, why);
			return -1;
		}
	}
	return 0;
}

/* --tasks-per-cpu needs a cell with task callers, in a guest (the program is in its initramfs). */
static int check_tasks(const struct run_opts *o)
{
	bool any = false;

	for (size_t i = 0; i < o->callers_list.n; i++)
		any |= callers_has_kind(o->callers_list.v[i], "task");
	if (o->tasks_per_cpu && !any) {
		fprintf(stderr, "error: --tasks-per-cpu %d: no --callers value has task (valid: with --callers kthread+task, ...)\n",
			o->tasks_per_cpu);
		return -1;
	}
	if (any && o->target_host) {
		fprintf(stderr, "error: --callers with task and --target host: the task callers' program is in the guest's initramfs (valid: --target vm)\n");
		return -1;
	}
	for (size_t i = 0; o->tasks_per_cpu && i < o->modparams.n; i++)
		if (!strncmp(o->modparams.v[i], "tasks_per_cpu=", 14)) {
			fprintf(stderr, "error: --modparam %s and --tasks-per-cpu: give it one way (--tasks-per-cpu)\n",
				o->modparams.v[i]);
			return -1;
		}
	return 0;
}

static int check_required(const struct run_opts *o)
{
	if ((!o->out || !*o->out) && !o->plan_only) {
		fprintf(stderr, "error: --out DIR is required\n");
		return -1;
	}
	if (o->target_host && o->test_actions.n) {
		fprintf(stderr, "error: --test-action cannot be used with --target host (it would crash this machine)\n");
		return -1;
	}
	if (o->debug_info && o->sanitizers) {
		fprintf(stderr, "error: --debug-info on and --sanitizers on: one build flavour at a time "
			"(--sanitizers on has the line tables too)\n");
		return -1;
	}
	for (size_t i = 0; i < o->modparams.n; i++) {
		int a = axis_of_modparam(o->modparams.v[i]);

		if (a >= 0 && axes[a].dflt && axis_set(o, a)) {
			fprintf(stderr, "error: --modparam %s and %s: give the %s one way (%s)\n",
				o->modparams.v[i], axes[a].option, axes[a].name, axes[a].option);
			return -1;
		}
	}
	for (int a = 0; a < AX_NR; a++)
		for (size_t i = 0; axes[a].in_id == AXID_SUFFIX && i < o->axv[a].n; i++)
			for (size_t k = 0; k < i; k++) {
				char x[FAULT_SLUG_MAX + 1], y[FAULT_SLUG_MAX + 1];

				axis_slug(a, o->axv[a].v[i], x, sizeof(x));
				axis_slug(a, o->axv[a].v[k], y, sizeof(y));
				if (*x && !strcmp(x, y)) {
					fprintf(stderr, "error: %s '%s' and '%s' give the same cell id suffix '-%c%s'; write one of them differently\n",
						axes[a].option, o->axv[a].v[k], o->axv[a].v[i], axes[a].slug, x);
					return -1;
				}
			}
	if (check_callers_map(o) || check_tasks(o))
		return -1;
	if (o->plan_json && !o->plan_only) {
		fprintf(stderr, "error: --json goes with --plan-only (the plan as JSON)\n");
		return -1;
	}
	if (o->kernel_image && o->kernel_trees.n) {
		fprintf(stderr, "error: --kernel-image and --kernel-tree: give one (a tree has its image)\n");
		return -1;
	}
	if (o->kernel_image && o->kernels.n > 1) {
		fprintf(stderr, "error: --kernel-image names one kernel; give a single --kernel label with it\n");
		return -1;
	}
	return 0;
}

/* --coverage is the coverage kernel: alone it adds it, beside another kernel it is refused. */
static int check_coverage(struct run_opts *o)
{
	if (o->target_host) {
		fprintf(stderr, "error: --coverage cannot be used with --target host (it needs the coverage guest kernel)\n");
		return -1;
	}
	for (size_t i = 0; i < o->kernels.n; i++) {
		const char *slash = strchr(o->kernels.v[i], '/');

		/* coverage, or LINE/coverage */
		if (strcmp(slash ? slash + 1 : o->kernels.v[i], COVERAGE_KERNEL)) {
			fprintf(stderr, "error: --kernel '%s' with --coverage: only '%s' or LINE/%s is valid (or leave --kernel out)\n",
				o->kernels.v[i], COVERAGE_KERNEL, COVERAGE_KERNEL);
			return -1;
		}
	}
	return o->kernels.n ? 0 : strv_push(&o->kernels, COVERAGE_KERNEL);
}

int run_opts_parse(struct run_opts *o, int argc, char **argv)
{
	struct option long_opts[NRUN_OPTS + 1];
	int c;

	opts_long(long_opts, run_opts_table, NRUN_OPTS);
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
	o->argc = argc;
	o->argv = argv;
	if (add_kernel_trees(o))
		return 2;
	if (o->target_host && o->kernels.n) {
		fprintf(stderr, "error: --kernel cannot be used with --target host (the job runs on this machine's kernel)\n");
		return 2;
	}
	if (o->coverage && check_coverage(o))
		return 2;
	/* Guests are restored unless told otherwise; on the host there is no guest to save. */
	if (!o->restore_given)
		o->restore = !o->target_host;
	if (o->restore && o->target_host) {
		fprintf(stderr, "error: --restore on: there is no guest to save with --target host (valid: --restore off)\n");
		return 2;
	}
	if (o->restore_boots > 1 && !o->restore) {
		fprintf(stderr, "error: --restore-boots %d: only restored guests share boots (valid: with --restore on, the default in guests; booted cells are a boot each)\n",
			o->restore_boots);
		return 2;
	}
	/* Restored guests start with their observers live unless told otherwise. */
	if (!o->bt_preattach_given)
		o->bt_preattach = o->restore;
	if (o->bt_preattach && !o->restore) {
		fprintf(stderr, "error: --bpftrace-preattach on: observers go live in a guest before it is saved (valid: with --restore on, the default in guests)\n");
		return 2;
	}
	if (o->guest_mem_mb && o->target_host) {
		fprintf(stderr, "error: --guest-mem %d: there is no guest with --target host (valid: auto)\n",
			o->guest_mem_mb);
		return 2;
	}
	if (o->cells_per_boot && (o->boot_per_cell || o->target_host)) {
		fprintf(stderr, "error: --cells-per-boot %d: cells share boots only in guests without --boot-per-cell (valid: drop one of them)\n",
			o->cells_per_boot);
		return 2;
	}
	if (apply_defaults(o))
		return 2;
	return check_required(o) ? 2 : 0;
}

const char *run_opts_flavour(const struct run_opts *o)
{
	return o->sanitizers ? "sanitizers" : o->debug_info ? "debug-info" : NULL;
}
