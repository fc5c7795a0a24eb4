/*
 * Progress of a matrix on stderr: one line per finished cell, always; on a
 * TTY also a live status line (done/total, what runs, elapsed, ETA) redrawn
 * in place. Not a TTY (CI, a log file): plain lines only.
 */
#ifndef HT_PROGRESS_H
#define HT_PROGRESS_H
#include <stdbool.h>
#include <stddef.h>

struct progress {
	size_t total;		/* cells of this invocation (after --shard) */
	size_t done;		/* finished, including those finished before */
	size_t done_here;	/* finished by this invocation */
	double t0;
	bool tty, status_shown;
	/* The ETA's model (progress_eta_boots): what finished cells cost. */
	bool shared;		/* cells share boots */
	size_t boots_left;	/* boots the cells left still need (the scheduler's count) */
	double wall_sum;	/* host s of the cells finished here */
	double boot_sum;	/* the boots' part of it (QEMU start -> runner) */
	size_t boots_seen;	/* cells finished here that paid for a boot */
};

void progress_init(struct progress *p, size_t total, bool tty);
/* A line for the log (clears the status line first on a TTY). */
void progress_line(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Redraw the status line (TTY only); running: ids of running cells, comma-separated. */
void progress_status(struct progress *p, size_t nrunning, const char *running);
void progress_end(struct progress *p);
/*
 * Seconds left: the mean wall time per cell finished by this invocation
 * (which already includes the parallelism) times the cells left; -1 while
 * nothing has finished.
 */
double progress_eta(double elapsed, size_t done_here, size_t left);
/*
 * With shared boots a boot is paid once per group, not per cell: seconds
 * left = f x (left x C + boots x B), B the mean boot (QEMU start -> runner,
 * over the cells that booted), C the mean rest of a cell, f elapsed / the
 * cells' summed wall (the parallelism). -1 while nothing has finished.
 */
double progress_eta_boots(double elapsed, const struct progress *p, size_t left, size_t boots);
/* Shared boots or not, and the boots the plan needs before any runs. */
void progress_boots(struct progress *p, bool shared, size_t boots_left);
/* A finished cell's host wall time and its boot's part (NAN: it joined a running boot). */
void progress_cell_cost(struct progress *p, double wall_s, double boot_s);
#endif
