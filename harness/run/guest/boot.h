/*
 * One guest boot, as a process: QEMU (or the runner with --target host) in
 * its own process group that dies with the harness. A boot of its own runs
 * one cell (--boot-per-cell); a shared boot runs the cells of one group one
 * after another (vm-images/guest/run-group.sh): the host writes
 * OUT/boots/NAME/cmd.N (the N-th cell's id, or "stop"), the guest answers
 * "cell N STATUS STATE" on the htab.ret port (OUT/boots/NAME/exit_status)
 * after printing "htab-group: cell N done" on the console, where the host
 * cuts the shared console into each cell's console.log.
 */
#ifndef HT_BOOT_H
#define HT_BOOT_H
#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>
#include "lib/util.h"
#include "run/plan/qemu_argv.h"	/* BOOTS_DIR */


struct boot {
	pid_t pid;		/* 0: not running */
	char name[224];		/* first cell's id + "." + its attempt */
	char dir[PATH_MAX];	/* OUT/boots/NAME */
	char key[96];		/* its group (boot_group_key) */
	double t0;		/* monotonic, at the start of QEMU */
	int cells;		/* cells sent (cmd.1 .. cmd.cells) */
	long long con_off;	/* console bytes already given to its cells */
	bool reusable;		/* the last cell left the guest as it found it */
};

/*
 * Forks argv[0] in its own process group (SIGKILL when the harness dies),
 * stdin /dev/null, stdout and stderr to log, and state (a saved guest,
 * NULL: none) open on QEMU_STATE_FD (run/plan/qemu_argv.h); the pid, or -1.
 */
pid_t boot_spawn(char *const argv[], const char *log, const char *state);
/*
 * boot_spawn of a guest's QEMU. state NULL: it boots. Else it restores that
 * saved guest (run/guest/snapshot.h): the htab.ctl FIFO made in dir first,
 * then the guest woken with group (NULL: a boot of its own) once QEMU has
 * it open. -1 (QEMU killed) on failure.
 */
pid_t boot_spawn_guest(char *const argv[], const char *log, const char *state, const char *dir,
			const char *group);
/*
 * The FIFOs of a boot's QMP monitor (LOGDIR/qmp.in, qmp.out; run/plan/qemu_argv.h),
 * made afresh before QEMU starts: QEMU refuses to start without them. 0 ok.
 */
int boot_monitor_make(const char *log_dir);
/* ... and removed once it has ended: a FIFO left in a run blocks whoever reads it. */
void boot_monitor_remove(const char *log_dir);
/* SIGTERM the group, SIGKILL after 3 s; the wait status. */
int boot_kill_group(pid_t pid);
/* A wait status as cell.json's qemu_exit: exit code, -signal, -1. */
int boot_decode_status(int st);

/*
 * Starts a shared boot: BOOTS_DIR/name made empty, qemu.argv written, QEMU
 * spawned; state non-NULL (--restore on): QEMU restores that saved guest,
 * woken on its htab.ctl port with the boot's name as its group
 * (run/guest/snapshot.h).
 */
int boot_start(struct boot *b, const char *out, const char *name, const char *key,
	       const struct strv *argv, const char *state);
/* Sends the next cell (cmd.N); N, or -1. */
int boot_send(struct boot *b, const char *cell_id);
/*
 * What the guest said of cell n on the port: 1 with *status and state
 * (ok, taint-N, module-loaded, exit-N) when it has, 0 not yet. A bare
 * number before any "cell" line is init's own (its mounts failed): cell 1's
 * status, state "init".
 */
int boot_cell_status(const struct boot *b, int n, int *status, char *state, size_t len);
/*
 * Where cell n's part of the console ends: after its "htab-group: cell n
 * done" line, -1 while that line is not complete in the file yet.
 */
long long boot_cell_cut(const struct boot *b, int n);
/* The console's size (where a cell's part ends when the boot ended with it). */
long long boot_console_size(const struct boot *b);
/* Copies console bytes [con_off, cut) to path and moves con_off to cut. */
int boot_split_console(struct boot *b, long long cut, const char *path);
/* Asks the guest to stop (cmd "stop"), waits up to 1 s, then kills it. */
void boot_stop(struct boot *b);

/* The console a shared boot writes (OUT/boots/NAME/console.log). */
void boot_console_path(const struct boot *b, char *path, size_t len);
#endif
