/*
 * --target host: no guest, the runner (vm-images/guest/run-job.sh) on this
 * machine in its own process group; it logs into the cell (no serial
 * console) and its exit status is the one the guest would have sent.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "lib/strbuf.h"
#include "run/guest/boot.h"
#include "run/guest/cell.h"
#include "run/guest/guest.h"

static int host_start(const struct run_ctx *c, struct cell *cell, struct boot *b)
{
	char log[PATH_MAX + 32];
	pid_t pid;

	(void)b;
	if (cell_begin_alone(c, cell, "runner.log", log, sizeof(log)))
		return -1;
	pid = boot_spawn(cell->argv->v, log, NULL);
	cell->pid = pid > 0 ? pid : 0;	/* never -1: a kill would signal process group 1 */
	return cell->pid ? 0 : -1;
}

/* The runner's own exit status (no htab.ret port here). */
static void host_ended(struct cell *cell, struct boot_result *br, int st)
{
	char p[PATH_MAX + 32], buf[16];

	if (br->crash_stopped || br->timed_out || br->interrupted || !WIFEXITED(st))
		return;
	snprintf(p, sizeof(p), "%s/exit_status", cell->p->dir);
	snprintf(buf, sizeof(buf), "%d\n", WEXITSTATUS(st));
	write_file_atomic(p, buf, strlen(buf));
}

/* No serial console on this machine: the runner logs into the cell. */
static void host_job_env(const struct cell *cell, struct strbuf *b)
{
	sb_appendf(b, "TARGET=host\nCONSOLE='%s/console.log'\n", cell->p->dir);
}

const struct guest_ops guest_host = {
	.name = "host", .start = host_start, .ended = host_ended, .locates_hangs = false,
	.argv_file = "runner.argv", .job_env = host_job_env,
};
