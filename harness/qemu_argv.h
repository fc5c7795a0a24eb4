/* The QEMU command line of one cell, built as an argv list, one function per concern. */
#ifndef HT_QEMU_ARGV_H
#define HT_QEMU_ARGV_H
#include "accel.h"
#include "util.h"

struct qemu_cfg {
	const char *qemu;		/* binary, default qemu-system-x86_64 */
	enum accel_mode accel;		/* KVM or TCG, already resolved */
	int vcpus;
	const char *kernel_image;
	const char *initrd;
	const char *runner;		/* host path of run-job.sh, seen by the guest */
	const char *cell_dir;		/* absolute */
};

/* Guest RAM: 512 MB + 32 MB per vCPU (per-CPU areas, bpftrace's LLVM). */
int qemu_mem_mb(int vcpus);
int qemu_argv_build(const struct qemu_cfg *c, struct strv *argv);
/* One shell-quoted line, for --dry-run. */
char *qemu_argv_join(const struct strv *argv);
#endif
