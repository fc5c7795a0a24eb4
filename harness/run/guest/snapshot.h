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
 * Boots q as QR_SAVE in DIR.tmp.PID, waits (budget_s, and no longer than
 * quiet_s of a silent console, 0: no such limit; cell_plan.h save_quiet_s)
 * for the guest's "ready" on htab.ret, migrates it into DIR.tmp.PID/state
 * over QMP, quits QEMU and renames the directory to dir. 0 ok; -1 with a
 * one-line error on stderr naming the console to read, or silently once
 * *stop is set (QEMU killed, nothing left).
 */
int snapshot_save(const struct qemu_cfg *q, const char *key, const char *dir, int budget_s,
		  int quiet_s, const volatile sig_atomic_t *stop, struct snapshot_info *info);
/*
 * snapshot_save's wait: polls DIR/exit_status for the guest's "ready" (1),
 * QEMU's end (0, *st its status), budget_s, quiet_s (0: none) without
 * DIR/console.log growing (*silent set) or *stop (-1: QEMU's group killed).
 */
int snapshot_wait_ready(const char *dir, pid_t pid, int budget_s, int quiet_s,
			const volatile sig_atomic_t *stop, int *st, bool *silent);
/* The FIFO QEMU's htab.ctl chardev opens (LOGDIR/ctl), made before QEMU starts. 0 ok. */
int snapshot_ctl_make(const char *log_dir);
/*
 * Wakes a restored guest: once QEMU opened LOGDIR/ctl, writes its line
 * (group may be NULL) and removes the FIFO. 0 ok or QEMU already gone
 * (the cell's poll sees it), -1 with an error on stderr.
 */
int snapshot_wake(const char *log_dir, const char *group, pid_t qemu);
#endif
