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
#endif
