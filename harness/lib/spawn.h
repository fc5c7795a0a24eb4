/*
 * The one way the harness runs another program (QEMU aside, which gets its
 * own process group and dies with the harness: run/guest/cell.c): an argv, never a
 * shell line unless argv is {"/bin/sh", "-c", script}.
 */
#ifndef HT_SPAWN_H
#define HT_SPAWN_H
#include <stdbool.h>

struct spawn_opts {
	const char *dir;	/* chdir first; NULL: here */
	const char *log;	/* stdout and stderr into this file (truncated); NULL: inherited */
	bool null_stdin;	/* stdin from /dev/null */
	const char *in;		/* stdin from this file (instead of null_stdin) */
	bool die_with_parent;	/* SIGKILL when the caller dies (kill -9 too) */
};

/*
 * Runs argv[0] (PATH searched) and waits. captured non-NULL: its stdout is
 * read into a malloc'd NUL-terminated *captured (stderr still inherited).
 * Returns the exit status, 128 + signal, 127 when it could not be run, -1
 * when no child started.
 */
int spawn_run(char *const argv[], const struct spawn_opts *o, char **captured);
#endif
