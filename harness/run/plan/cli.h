/* Options of `htab-torture run`: one struct, parsed and validated in one place. */
#ifndef HT_CLI_H
#define HT_CLI_H
#include <stdbool.h>
#include "run/plan/accel.h"
#include "rundir/axes.h"
#include "lib/util.h"
#include "../kmod/params.h"

#define MAX_VCPUS 256
/* --duration: whole seconds the module's duration_ms takes (kmod/params.h) */
#define MIN_DURATION_S ((HT_PARAM_MIN(duration_ms) + 999) / 1000)
#define MAX_DURATION_S (HT_PARAM_MAX(duration_ms) / 1000)
/* --restore-boots N: the most saved boots of one guest */
#define MAX_RESTORE_BOOTS 64
/* --guest-mem MB: the bounds the option takes (256 MB to 1 TiB) */
#define MIN_GUEST_MEM_MB 256
#define MAX_GUEST_MEM_MB 1048576
#define DEFAULT_CRASH_GRACE_S 10
#define MAX_CRASH_GRACE_S 600

/* --lpj: auto (under TCG: calibrated per image and host, run/plan/lpj.h), off, or a value. */
enum lpj_mode { LPJ_AUTO, LPJ_OFF, LPJ_VALUE };
#define LPJ_MAX 2147483647L

struct run_opts {
	int cpus[64];
	int ncpus;			/* 0 after parsing only with --plan-only */
	/* Values of every axis (axes.h) but vCPUs (cpus[]): workloads (default full_update),
	   kernels (labels: "distro" or variant names), noises (profile names, default none),
	   map_types, preallocs, max_entries_list (the map; defaults hash, 1, 4096),
	   faults (--fault values, verbatim; default "none"), test_actions (tests:
	   panic|hang|warn|none per cell; empty = none). */
	AXIS_LISTS(struct strv);
	int duration_s;			/* 0 = by accelerator (resolved in run.c) */
	const char *out;
	int jobs;			/* 0 = decided by host cores and memory */
	int shard_i, shard_n;		/* --shard i/n; n = 0: whole plan */
	bool plan_only;
	bool plan_json;			/* --json: --plan-only prints JSON */
	bool target_host;		/* --target host: no VM, this machine */
	const char *job_script;		/* JOB_SCRIPT= in job.env (tests, custom sequences) */
	char job_script_abs[4096];	/* --job-script made absolute (the guest needs it so) */
	char **argv;			/* the command line, for the manifest */
	int argc;
	const char *kernel_image;	/* --kernel-image / HTAB_KERNEL_IMAGE */
	struct strv kernel_trees;	/* --kernel-tree DIRs, absolute */
	struct strv kernel_tree_labels;	/* their labels, tree-NAME, in the same order */
	const char *kernel_release;	/* --kernel-release; else from the image */
	const char *module;		/* --module; default kmod/htab_torture.ko */
	enum accel_mode accel;
	struct strv bpftrace;		/* script names; empty = none */
	struct strv modparams;		/* key=val, passed through */
	int timeout_s;			/* 0 = derived per cell */
	int crash_grace_s;		/* after a report's first console line, before QEMU is stopped */
	int repeat;
	bool dry_run;
	bool coverage;			/* --coverage: the coverage kernel, nothing else */
	enum lpj_mode lpj_mode;		/* --lpj */
	long lpj_value;			/* with LPJ_VALUE */
	bool bt_aot_off;		/* --bpftrace-aot off: no ahead-of-time bpftrace programs */
	bool bt_preattach;		/* observers live in the snapshot: on by default with --restore on */
	bool bt_preattach_given;	/* --bpftrace-preattach on|off was given */
	bool pvh_off;			/* --pvh off: boot the bzImage (run/plan/pvh.h) */
	bool lz4_off;			/* --lz4 off: Debian's bzImage as it is (run/plan/lz4.h) */
	int guest_mem_mb;		/* --guest-mem: RAM before the map's and noise's share; 0 (auto): qemu_mem_mb */
	bool restore;			/* restore saved guests (run/guest/snapshot.h): on by default in guests */
	bool restore_given;		/* --restore on|off was given */
	int restore_boots;		/* --restore-boots: boots a restored guest is saved from; 0: one */
	bool debug_info;		/* --debug-info on: variants with line tables (decode.h) */
	bool sanitizers;		/* --sanitizers on: variants with KASAN & co and line tables */
	struct strv boot_opts;		/* --boot-opt: words appended to the kernel command line */
	bool boot_per_cell;		/* --boot-per-cell: every cell boots a guest of its own */
	int cells_per_boot;		/* --cells-per-boot: at most N cells in a shared boot; 0 = all */
	int tasks_per_cpu;		/* --tasks-per-cpu: cells with task callers; 0 = the module's */
};

/* The kernel variant with gcov counters (vm-images/kernels/variants/coverage). */
#define COVERAGE_KERNEL "coverage"

extern const char *const workload_names[];
/* Does the --callers value (kinds joined with '+') hold kind? */
bool callers_has_kind(const char *value, const char *kind);
/*
 * Is a cell of callers (NULL: the default) possible on map_type with
 * prealloc ("0"/"1")? The module refuses nmi and irq callers but on a
 * preallocated hash or percpu_hash map, and task callers on an LRU map.
 * *why, when it is not: what the callers need.
 */
bool callers_map_possible(const char *callers, const char *map_type, const char *prealloc,
			  const char **why);
/* The matrix `run` plans without --cpus (make run). */
extern const int default_cpus[];
extern const int ndefault_cpus;
/* Measurement window without --duration: short under TCG, where boots dominate. */
int default_duration_s(enum accel_mode resolved);

/*
 * "16,32,48" and ranges "16-96:16" / "2-4" (step 1), mixed; duplicates are an
 * error. Appends to cpus (capacity cap). 0 ok, -1 with a one-line message in err.
 */
int parse_cpu_list(const char *s, int *cpus, int *n, int cap, char *err, size_t errlen);

/*
 * A --fault value: "none" or a value of the module's fault=, parsed by the
 * module's own parser (kmod/fault_spec.h). 0 ok, -1 with a one-line
 * message in err (what is wrong, and in which fault when it holds
 * several); whether a symbol or CPU list fits the guest is the module's.
 */
int fault_check(const char *s, char *err, size_t errlen);

void run_opts_init(struct run_opts *o);
void run_opts_free(struct run_opts *o);
/* 0 ok, 1 --help printed, 2 usage error (message already on stderr). */
int run_opts_parse(struct run_opts *o, int argc, char **argv);
void run_usage(FILE *f);
/* The --kernel-tree DIR whose label is label (tree-NAME), or NULL. */
const char *run_opts_kernel_tree(const struct run_opts *o, const char *label);

/*
 * The build flavour variant kernels get (vm-images/kernels/flavours):
 * "sanitizers", "debug-info" or NULL (plain).
 */
const char *run_opts_flavour(const struct run_opts *o);
#endif
