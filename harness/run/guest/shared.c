/*
 * Shared boots (run/guest/boot.h): a slot's guest runs the cells of one
 * group one after another. A cell starts the boot when the slot has none
 * (named after the cell and its attempt), else it is sent to the running
 * one; it is done when the guest says so on its port, and its part of the
 * shared console and its status are copied into its own directory.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run/guest/boot.h"
#include "run/guest/cell.h"
#include "run/guest/guest.h"

static int shared_start(const struct run_ctx *c, struct cell *cell, struct boot *b)
{
	bool fresh = !b->pid;
	char name[sizeof(b->name)];
	int n;

	if (fresh)
		snprintf(name, sizeof(name), "%s.%d", cell->p->id, cell_next_attempt(cell->p));
	if (cell_boot_argv(c, cell, fresh ? name : b->name)) {
		fprintf(stderr, "error: cannot plan boot %s for cell %s (out of memory or path too long)\n",
			fresh ? name : b->name, cell->p->id);
		return -1;
	}
	if (cell_write_job(c, cell))
		return -1;
	if (fresh && boot_start(b, c->out, name, cell->p->group, cell->argv, cell_plan_state(cell->p)))
		goto fail;
	cell_begin(cell);
	n = boot_send(b, cell->p->id);
	if (n < 0)
		goto fail;
	cell->boot = b;
	cell->in_boot = n;
	cell->pid = b->pid;
	boot_console_path(b, cell->console, sizeof(cell->console));
	/* Its part of the console starts where the cell before it ended. */
	cell->follow.off = b->con_off;
	if (n == 1)
		cell->t0 = b->t0;	/* its boot is its own: the split starts at QEMU */
	else if (!c->o->timeout_s)
		cell->timeout_s -= cell->p->boot_budget_s;
	return 0;
fail:
	if (fresh && b->pid)
		boot_stop(b);
	return -1;
}

/*
 * A shared boot's cell is done once the guest said so on the port and its
 * "done" line reached the console (the serial line drains behind the port:
 * waited for at most 5 s, then the cut is where the console is).
 */
static bool shared_done(struct cell *cell, double now)
{
	int status;
	char state[32];

	if (isnan(cell->status_at)) {
		if (!boot_cell_status(cell->boot, cell->in_boot, &status, state, sizeof(state)))
			return false;
		cell->status_at = now;
	}
	return boot_cell_cut(cell->boot, cell->in_boot) >= 0 || now - cell->status_at >= 5;
}

/*
 * A cell of a shared boot at its end: its part of the console (through its
 * "done" line, or all there is when the boot ended with it) and the status
 * the guest gave it into its own directory, as a boot of its own leaves them.
 */
static void shared_ended(struct cell *cell, struct boot_result *br, int st)
{
	struct boot *b = cell->boot;
	bool boot_goes_on = br->boot_goes_on;
	char p[PATH_MAX + 32], buf[16];
	long long cut = boot_goes_on ? boot_cell_cut(b, cell->in_boot) : -1;
	int status;

	(void)st;
	snprintf(p, sizeof(p), "%s/console.log", cell->p->dir);
	if (boot_split_console(b, cut >= 0 ? cut : boot_console_size(b), p))
		fprintf(stderr, "warning: %s: cannot write %s: %s\n", cell->p->id, p, strerror(errno));
	b->reusable = false;
	if (boot_cell_status(b, cell->in_boot, &status, cell->boot_state, sizeof(cell->boot_state))) {
		snprintf(p, sizeof(p), "%s/exit_status", cell->p->dir);
		snprintf(buf, sizeof(buf), "%d\n", status);
		write_file_atomic(p, buf, strlen(buf));
		b->reusable = boot_goes_on && !strcmp(cell->boot_state, "ok");
	}
	cell->boot_went_on = boot_goes_on;
	if (!boot_goes_on) {
		b->pid = 0;
		boot_monitor_remove(b->dir);
	}
}

const struct guest_ops guest_shared = {
	.name = "shared", .shares_boots = true, .start = shared_start, .done = shared_done,
	.ended = shared_ended, .locates_hangs = true,
	.argv_file = "qemu.argv",
};
