/*
 * One matrix cell, planned once before anything runs and not changed
 * after: its directory, axis values, kernel, map and the guest RAM it
 * needs, its group (the cells that boot the same guest), timeouts, the
 * insmod line, the QEMU (or runner) command line of a boot of its own,
 * and where the guest it restores is saved. Every way of running it
 * (run/guest/) and its record (run/record/) read these; nothing derives
 * them again.
 */
#ifndef HT_CELL_PLAN_H
#define HT_CELL_PLAN_H
#include <limits.h>
#include <stdbool.h>
#include "run/plan/ctx.h"
#include "run/plan/guest_mem.h"
#include "run/plan/qemu_argv.h"
#include "rundir/manifest.h"
#include "lib/util.h"

struct cell_plan {
	const struct plan_cell *pc;
	char id[192];
	char dir[PATH_MAX];
	int vcpus, repeat;
	/* The plan cell's axis values; fault the --fault value ("none": no fault= parameter). */
	AXIS_VALUES(axis_cstr);
	const struct kernel_res *k;
	char *noise_cmd;	/* "" for none */
	int timeout_s;		/* whole boot, host side (a shared boot's later cell: struct cell's) */
	int boot_budget_s;	/* the boot's part of timeout_s */
	int quiet_s;		/* no growth of console.log / guest.log */
	int boot_quiet_s;	/* the same before the runner starts (T_BOOT_DONE): a TCG boot stall */
	int save_quiet_s;	/* a save boot's (--restore): boot_quiet_s without --timeout; 0 none */
	int boot_probe_s;	/* before the runner, each this many s of silence: a stall's shape? 0 none */
	int save_probe_s;	/* the same for a save boot (without --timeout); 0 none */
	int attach_timeout_s, run_timeout_s;	/* for the guest runner */
	int aot_compile_s;		/* the runner's limit on one bpftrace --aot; 0: AOT off */
	int crash_grace_s;	/* after a kernel report, before QEMU is stopped */
	struct map_shape map;	/* the map the cell creates (guest RAM follows it) */
	int mem_mb;		/* guest RAM (0 with --target host) */
	/*
	 * Cells that boot the same guest: kernel, vCPUs and guest RAM make the
	 * QEMU command line; the rest (workload, noise, fault, repeat) is the
	 * job's, and a fresh insmod serves it.
	 */
	char group[96];
	struct guest_detectors detectors;	/* lockup/stall thresholds the guest gets */
	struct strv modparams;
	struct strv argv;	/* a boot of its own: QEMU, or the runner with --target host */
	bool restored;		/* --restore on: QEMU starts from the saved guest in snap_dir */
	char snap_dir[PATH_MAX];
	char snap_state[PATH_MAX + 8];	/* snap_dir/state */
};

/* Plans pc; 0, or -1 (out of memory, a path too long, an unknown kernel or noise). */
int cell_plan_make(const struct run_ctx *c, const struct plan_cell *pc, struct cell_plan *p);
void cell_plan_free(struct cell_plan *p);
/*
 * Part of cell_plan_make: timeout_s (the whole boot, or --timeout), quiet_s,
 * and the runner's attach_timeout_s and run_timeout_s, from the accelerator
 * (or --target host), the cell's vCPUs and noise, the bpftrace scripts and
 * the duration.
 */
void cell_plan_timeouts(const struct run_ctx *c, struct cell_plan *p);
/*
 * Shared boots: the QEMU command line of a boot named name that starts
 * with this cell (the share is the run directory, console and exit port
 * in OUT/boots/NAME) into *argv (emptied first). 0 ok.
 */
int cell_plan_boot_argv(const struct run_ctx *c, const struct cell_plan *p, const char *name,
			struct strv *argv);
/*
 * --restore on: the key of the guest p restores (run/plan/snapshot_key.h)
 * and in *q the QEMU configuration that saves it. malloc'd; NULL on failure.
 */
char *cell_plan_snapshot_key(const struct run_ctx *c, const struct cell_plan *p, struct qemu_cfg *q);
/* --restore-boots N: the saved boot repeat restores (repeat mod N), 0 with one or when booting. */
int cell_plan_boot_index(const struct run_ctx *c, int repeat);
/* The saved guest a boot of p starts from (QEMU_STATE_FD), NULL when p boots. */
static inline const char *cell_plan_state(const struct cell_plan *p)
{
	return p->restored ? p->snap_state : NULL;
}
#endif
