/* One planned cell (run/plan/cell_plan.h) while its guest runs: its boot, console and clocks. */
#ifndef HT_CELL_H
#define HT_CELL_H
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include "run/guest/boot.h"
#include "run/plan/cell_plan.h"
#include "run/guest/boot_marks.h"
#include "run/plan/cli.h"
#include "parse/console_follow.h"
#include "run/plan/guest_mem.h"
#include "run/plan/qemu_argv.h"
#include "lib/util.h"

struct hang_ctx;

/* A planned cell while its guest runs, and once it has ended until it is recorded. */
struct guest_ops;

struct cell {
	const struct cell_plan *p;
	const struct guest_ops *ops;	/* the way it runs (run/guest/guest.h) */
	const struct strv *argv;	/* what boots it: p->argv, or boot_argv in a shared boot */
	struct strv boot_argv;	/* its shared boot's QEMU command line (cell_plan_boot_argv) */
	int timeout_s;		/* p->timeout_s; a shared boot's later cell: less the boot's part */
	int attempt;		/* 1 for the first start of this cell in this directory */
	/* While it runs. */
	pid_t pid;		/* its boot's QEMU */
	struct boot *boot;	/* a shared boot (run/guest/boot.h); NULL: a boot of its own */
	int in_boot;		/* its N there (cmd.N): 1 = the boot's first cell */
	char console[PATH_MAX];	/* the console it follows: its own, or the shared boot's */
	double status_at;	/* monotonic, when the shared boot said it is done; NAN */
	char boot_state[32];	/* what the guest said after it: ok, taint-N, ... ("": nothing) */
	bool boot_went_on;	/* the shared boot outlived it */
	double t0, last_progress;
	double next_probe;	/* monotonic, the boot stall's next look (p->boot_probe_s) */
	int boot_probes;	/* looks taken (cell.json "boot_probes") */
	char boot_probe_saw[160];	/* what the last one saw (hang_boot_stalled) */
	long long seen;
	long long phases_size;
	/* Host seconds since start when each phases.env key appeared (NAN: not yet). */
	double host_phase[5];
	/* Host seconds since start when each boot mark's console line was seen (NAN: not yet). */
	double boot_mark[BM_NR];
	double follow_now;	/* the poll's clock, for on_line */
	/* The console, followed while it grows (console_follow.h). */
	struct console_follow follow;
	double crash_seen_s;	/* host s since start when a report's first line was seen; NAN */
	double crash_deadline;	/* monotonic time QEMU is stopped at, once a report was seen */
	long long runner_seen;	/* guest.log + phases.env bytes: the runner still going on */
	/* Where its vCPUs were when it went silent past its budget (run/guest/hang.h); NULL: not asked. */
	json_t *hang;
	struct hang_ctx *hang_ctx;	/* its QMP session, once it timed out (run/guest/hang.h) */
};

/* The phases.env keys, in order; host_phase[] follows it. */
extern const char *const phase_keys[5];

struct boot_result {
	bool timed_out, quiet_timeout, interrupted;
	int quiet_s;		/* the silence that ended it (quiet_timeout): quiet_s, boot_quiet_s,
				 * or the silence a boot stall was seen after (boot_probe_s) */
	bool crash_stopped;	/* stopped by the harness a grace period after a kernel report */
	int qemu_exit;		/* exit code, -signal, or -1000 if it never ran */
	bool boot_goes_on;	/* a shared boot that runs on: no exit (qemu_exit -1000) */
	double wall_s;
};

/* Set by SIGINT/SIGTERM: the running QEMU is killed and no new cell starts. */
extern volatile sig_atomic_t harness_stop;
void install_stop_handlers(void);

/* A cell ready to start: its plan and way, argv and timeout from the plan, nothing running. */
void cell_init(struct cell *cell, const struct cell_plan *p, const struct guest_ops *ops);
void cell_free(struct cell *cell);
/*
 * Shared boots: the QEMU command line of the boot named name in place of
 * the plan's own (cell_plan_boot_argv). 0 ok.
 */
int cell_boot_argv(const struct run_ctx *c, struct cell *cell, const char *name);
/* job.env and qemu.argv, after clearing what a previous unfinished boot left. */
int cell_write_job(const struct run_ctx *c, const struct cell *cell);
/*
 * Starts the cell its way (ops->start): command line, job files, process;
 * counts the attempt. b: the slot's shared boot (NULL unless the way
 * shares boots). 0 ok; -1 said on stderr, nothing of it left running.
 */
int cell_start(const struct run_ctx *c, struct cell *cell, struct boot *b);
/* For the ways: what every start shares (the attempt, the clocks, the console follower). */
void cell_begin(struct cell *cell);
/*
 * For a way whose process is the cell's alone: job files written,
 * cell_begin, the console in the cell directory, and *log its process's
 * log there (log_name). 0 ok.
 */
int cell_begin_alone(const struct run_ctx *c, struct cell *cell, const char *log_name, char *log,
		     size_t n);
/*
 * --restore on: saves the guest a planned cell restores (snap_dir) unless
 * a valid one is there already. 1 saved (info filled), 0 there, -1 failed
 * (a one-line error on stderr).
 */
struct snapshot_info;
int cell_snapshot_ensure(const struct run_ctx *c, const struct cell_plan *p, struct snapshot_info *info);
/* The attempt cell_start would count next (1 for a fresh directory). */
int cell_next_attempt(const struct cell_plan *p);
/*
 * 1 when it has ended (br filled), 0 while it runs; kills it on timeout
 * (a guest asked first where its vCPUs are: cell->hang, run/guest/hang.h), and
 * crash_grace_s after the first kernel report on the console (the wait
 * restarts while the runner's guest.log / phases.env still grow).
 */
int cell_poll(struct cell *cell, struct boot_result *br);
/* Kills a running cell (harness interrupted). */
void cell_kill(struct cell *cell, struct boot_result *br);
#endif
