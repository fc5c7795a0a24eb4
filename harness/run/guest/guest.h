/*
 * The ways a planned cell runs, one implementation each behind one
 * interface (as syzkaller's vm/vmimpl keeps one file per VM type): the
 * scheduler picks a way for the run (guest_way) and then only starts,
 * polls and kills cells (run/guest/cell.h); what differs between ways is
 * here. A new way is one file and a line in guest.c.
 *
 *   own     QEMU booted for the cell alone (--boot-per-cell; own.c)
 *   shared  one guest per group of cells, each sent to it in turn; a
 *           cell that does not PASS ends it (the default; shared.c)
 *   host    the runner on this machine, no guest (--target host; host.c)
 *
 * A restored guest (--restore on) is how own and shared start QEMU: from
 * a saved guest woken on its control port (boot_spawn_guest,
 * run/guest/snapshot.h) instead of a boot; the plan says which
 * (cell_plan_state).
 */
#ifndef HT_GUEST_H
#define HT_GUEST_H
#include <stdbool.h>
#include "run/plan/ctx.h"

struct cell;
struct boot;
struct boot_result;
struct strbuf;

struct guest_ops {
	const char *name;
	/* One guest runs several cells: the scheduler keeps a struct boot a slot. */
	bool shares_boots;
	/*
	 * Starts cell (cell_init'ed from its plan): its command line, job
	 * files, the process. b: the slot's shared boot (shares_boots only;
	 * not running yet: a fresh boot starts with this cell). 0 ok, -1 said
	 * on stderr and nothing left running that the caller must stop.
	 */
	int (*start)(const struct run_ctx *c, struct cell *cell, struct boot *b);
	/* The cell ended while its guest runs on (NULL: a guest ends with its cell). */
	bool (*done)(struct cell *cell, double now);
	/* After the cell's end: what the way leaves in the cell directory. */
	void (*ended)(struct cell *cell, struct boot_result *br, int wait_status);
	/* A silent guest can be asked where its vCPUs are (QMP, run/guest/hang.h). */
	bool locates_hangs;
	/* The cell file its command line is written to: qemu.argv, runner.argv. */
	const char *argv_file;
	/* job.env lines of this way's own, appended to b (NULL: none). */
	void (*job_env)(const struct cell *cell, struct strbuf *b);
};

/* The way every cell of this run is run (run/guest/guest.c: the list of ways). */
const struct guest_ops *guest_way(const struct run_ctx *c);
#endif
