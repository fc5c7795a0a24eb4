/* One matrix cell: its plan (directory, job.env, QEMU argv, timeouts) and its boot. */
#ifndef HT_CELL_H
#define HT_CELL_H
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include "cli.h"
#include "util.h"

/* What every cell of a run shares, resolved once. */
struct run_ctx {
	const struct run_opts *o;
	char root[PATH_MAX];
	char out[PATH_MAX];		/* absolute */
	char kernel_image[PATH_MAX];
	char release[128];
	char initrd[PATH_MAX];
	char module[PATH_MAX];
	char runner[PATH_MAX];
	struct strv bt_paths;		/* absolute .bt paths, same order as o->bpftrace */
	enum accel_mode accel;
	char *qemu;			/* binary; HTAB_QEMU overrides */
};

struct cell {
	char id[192];
	char dir[PATH_MAX];
	int vcpus, repeat;
	const char *workload, *kernel, *noise;
	int timeout_s;		/* whole boot, host side */
	int quiet_s;		/* no growth of console.log / guest.log */
	int attach_timeout_s, run_timeout_s;	/* for the guest runner */
	struct strv modparams;
	struct strv argv;
};

struct boot_result {
	bool timed_out, quiet_timeout, interrupted;
	int qemu_exit;		/* exit code, -signal, or -1000 if it never ran */
	double wall_s;
};

/* Set by SIGINT/SIGTERM: the running QEMU is killed and no new cell starts. */
extern volatile sig_atomic_t harness_stop;
void install_stop_handlers(void);

int cell_plan(const struct run_ctx *c, int vcpus, const char *workload, int repeat,
	      struct cell *cell);
void cell_free(struct cell *cell);
/* job.env and qemu.argv, after clearing what a previous unfinished boot left. */
int cell_write_job(const struct run_ctx *c, const struct cell *cell);
int cell_boot(const struct cell *cell, struct boot_result *br);
#endif
