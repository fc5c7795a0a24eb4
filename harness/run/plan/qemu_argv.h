/* The QEMU command line of one cell, built as an argv list, one function per concern. */
#ifndef HT_QEMU_ARGV_H
#define HT_QEMU_ARGV_H
#include "run/plan/accel.h"
#include "lib/util.h"

#define BOOTS_DIR "boots"	/* OUT/boots/NAME: the shared boots of a run (run/guest/boot.h) */

struct qemu_cfg {
	const char *qemu;		/* binary, default qemu-system-x86_64 */
	enum accel_mode accel;		/* KVM or TCG, already resolved */
	int vcpus;
	const char *kernel_image;
	const char *initrd;
	const char *runner;		/* host path of run-job.sh, seen by the guest */
	const char *cell_dir;		/* absolute: the 9p share "cell" (a shared boot: OUT) */
	const char *log_dir;		/* console.log, exit_status; NULL: cell_dir */
	const char *group;		/* a shared boot's name (htab.group=, run/guest/boot.h); NULL: none */
	int host_cpus;			/* for the overcommit factor; 0: unknown, taken as vcpus */
	long long map_bytes;		/* the cell's map footprint (guest_mem.h); 0: none */
	int noise_mb;			/* what the cell's noise maps (noise.h noise_mem_mb); 0: none */
	int mem_base_mb;		/* --guest-mem: guest RAM before the map's and noise's share; 0: qemu_mem_mb */
	int boot_index;			/* --restore-boots: which saved boot (htab.boot=K when K > 0) */
	long lpj;			/* lpj= on the command line (run/plan/lpj.h); 0: none */
	const struct strv *boot_opts;	/* --boot-opt words, appended last; NULL: none */
	/*
	 * --restore (run/guest/snapshot.h): QR_SAVE boots a guest that stops at
	 * init's save point (htab.restore=1, no htab.group=: a restore is told
	 * its group on the htab.ctl port) with a QMP monitor; QR_RESTORE starts
	 * QEMU from a saved guest (read on QEMU_STATE_FD) instead of booting.
	 * Both add the htab.ctl port and vmgenid, the same devices either way
	 * (a migration needs them equal).
	 * The FIFO of the ctl port (ctl) is in the log directory. Every boot
	 * has a QMP monitor on the FIFOs qmp.in and qmp.out there.
	 */
	enum { QR_NONE, QR_SAVE, QR_RESTORE } restore;
	/*
	 * --bpftrace-preattach: the scripts (host paths, ',' between) init
	 * starts before the save (htab.observe=, vm-images/guest/init), with
	 * OBSERVE_MEM_MB more RAM for bpftrace's copy and its heap. Only on a
	 * saved or restored guest; NULL: none.
	 */
	const char *observe;
};
#define OBSERVE_MEM_MB 384

/*
 * A restore reads the saved guest from this descriptor (-incoming fd:3),
 * which whoever starts QEMU opens on the state file (run/guest/boot.c;
 * a shell: 3< STATE, as --dry-run prints). QEMU then reads the file
 * itself: through `exec:cat STATE`'s pipe the same restore took 1.3 s
 * instead of 0.9 (152 MB, 48 vCPUs) and 3.2 s instead of 1.9 (590 MB),
 * TCG on 2 host cores.
 */
#define QEMU_STATE_FD 3

/*
 * The guest's lockup and stall detectors. Under TCG a vCPU that waits for a
 * host core looks stuck to the guest, so their thresholds scale with the
 * overcommit factor (vCPUs / host cores, rounded up) and go on the command
 * line; under KVM they stay the kernel's defaults (not on the command line).
 */
#define WATCHDOG_THRESH_DEFAULT 10
#define WATCHDOG_THRESH_MAX 60
#define RCU_STALL_TIMEOUT_DEFAULT 21
#define RCU_STALL_TIMEOUT_MAX 300
struct guest_detectors {
	int overcommit;			/* ceil(vcpus / host cores), >= 1 */
	int watchdog_thresh;		/* s: soft lockup after 2x, hard lockup after 1x */
	int rcu_stall_timeout;		/* s: rcupdate.rcu_cpu_stall_timeout */
	int on_cmdline;			/* 1 under TCG */
};
void guest_detectors(enum accel_mode accel, int vcpus, int host_cpus, struct guest_detectors *d);

/*
 * Guest RAM base: 512 MB + 32 MB per vCPU up to GUEST_MEM_VCPUS_CAP vCPUs
 * (1536 MB). A restored 96-vCPU guest uses ~300 MB, and every restore
 * faults in QEMU's whole RAM (bench/RESULTS.md, "Why update p50 moved").
 */
#define GUEST_MEM_VCPUS_CAP 32
int qemu_mem_mb(int vcpus);
/*
 * The base (base_mb, --guest-mem; 0: qemu_mem_mb) plus the map's share
 * (guest_mem.h map_mem_mb) and the noise's (noise_mb MB): what -m gets.
 */
int guest_mem_mb(int base_mb, int vcpus, long long map_bytes, int noise_mb);
/* -m of c: guest_mem_mb, and OBSERVE_MEM_MB with observers in its snapshot. */
int qemu_cfg_mem_mb(const struct qemu_cfg *c);
int qemu_argv_build(const struct qemu_cfg *c, struct strv *argv);
/* One shell-quoted line, for --dry-run; state: a restore's, opened on QEMU_STATE_FD. */
char *qemu_argv_join(const struct strv *argv, const char *state);
#endif
