/*
 * A guest booted for one cell (--boot-per-cell): QEMU with the cell's own
 * console, exit port and QMP monitor in its directory; restored from a
 * saved guest when the plan says so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "run/guest/boot.h"
#include "run/guest/cell.h"
#include "run/guest/guest.h"

static int own_start(const struct run_ctx *c, struct cell *cell, struct boot *b)
{
	char log[PATH_MAX + 32];
	pid_t pid;

	(void)b;
	if (cell_begin_alone(c, cell, "qemu.log", log, sizeof(log)))
		return -1;
	if (boot_monitor_make(cell->p->dir)) {
		fprintf(stderr, "error: cannot make the QMP FIFOs in %s: %s\n", cell->p->dir, strerror(errno));
		return -1;
	}
	pid = boot_spawn_guest(cell->argv->v, log, cell_plan_state(cell->p), cell->p->dir, NULL);
	cell->pid = pid > 0 ? pid : 0;	/* never -1: a kill would signal process group 1 */
	return cell->pid ? 0 : -1;
}

static void own_ended(struct cell *cell, struct boot_result *br, int st)
{
	(void)br;
	(void)st;
	boot_monitor_remove(cell->p->dir);
}

const struct guest_ops guest_own = {
	.name = "own", .start = own_start, .ended = own_ended, .locates_hangs = true,
	.argv_file = "qemu.argv",
};
