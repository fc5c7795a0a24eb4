/*
 * --restore on: saving a guest at init's save point and waking a restored
 * one (the cache and its keys: run/plan/snapshot_key.h).
 */
#ifndef HT_SNAPSHOT_H
#define HT_SNAPSHOT_H
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "run/plan/snapshot_key.h"

struct snapshot_info {
	double boot_s;		/* QEMU start -> the guest at its save point */
	double save_s;		/* the migration to the file */
	long long bytes;	/* the state file's size */
};
/*
 * A save boot's limits (cell_plan.h) and how its wait ended: budget_s; no
 * longer than quiet_s of a silent console (0: no such limit; save_quiet_s);
 * looked at each probe_s of silence (0: never; save_probe_s), ended when it
 * has the TCG boot stall's shape (run/guest/hang.h: hang_boot_stalled) over
 * the monitor of its vcpus.
 */
struct save_wait {
	int budget_s, quiet_s, probe_s, vcpus;
	bool silent;		/* out: quiet_s, or a probe, ended it */
	char stall[160];	/* out: what the probe saw ("": none) */
};
/*
 * Boots q as QR_SAVE in DIR.tmp.PID, waits (w) for the guest's "ready" on
 * htab.ret, migrates it into DIR.tmp.PID/state over QMP, quits QEMU and
 * renames the directory to dir. 0 ok; -1 with a one-line error on stderr
 * naming the console to read, or silently once *stop is set (QEMU killed,
 * nothing left).
 */
int snapshot_save(const struct qemu_cfg *q, const char *key, const char *dir, struct save_wait *w,
		  const volatile sig_atomic_t *stop, struct snapshot_info *info);
/*
 * snapshot_save's wait: polls DIR/exit_status for the guest's "ready" (1),
 * QEMU's end (0, *st its status), w's budget, silence or stall (w->silent,
 * w->stall) or *stop (-1: QEMU's group killed).
 */
int snapshot_wait_ready(const char *dir, pid_t pid, struct save_wait *w,
			const volatile sig_atomic_t *stop, int *st);
/* The FIFO QEMU's htab.ctl chardev opens (LOGDIR/ctl), made before QEMU starts. 0 ok. */
int snapshot_ctl_make(const char *log_dir);
/*
 * Wakes a restored guest: once QEMU opened LOGDIR/ctl, writes its line
 * (group may be NULL) and removes the FIFO. 0 ok or QEMU already gone
 * (the cell's poll sees it), -1 with an error on stderr.
 */
int snapshot_wake(const char *log_dir, const char *group, pid_t qemu);
#endif
