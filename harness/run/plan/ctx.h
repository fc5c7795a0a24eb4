/*
 * What every cell of a run shares, resolved once before any cell is
 * planned: the options, the output directory, the kernels (image, module,
 * initramfs of each), the bpftrace scripts, the accelerator.
 */
#ifndef HT_CTX_H
#define HT_CTX_H
#include <limits.h>
#include <stdbool.h>
#include "run/plan/accel.h"
#include "run/plan/cli.h"
#include "lib/decode.h"
#include "lib/util.h"

/* One kernel of the --kernel axis, resolved once: image, module and initramfs for it. */
struct kernel_res {
	char label[64];			/* as given: "distro", "distro-6.12", a variant, "host" */
	char name[64];			/* what it resolved to: "distro-6.1" for "distro" */
	char line[16];			/* the kernel line: "6.1", "6.12" (of the release) */
	char tree[PATH_MAX];		/* --kernel-tree DIR (absolute), "" otherwise */
	char tree_describe[128];	/* its `git describe --always --dirty`, "" if not git */
	char image[PATH_MAX];		/* "" with --target host */
	char release[128];
	char kdir[PATH_MAX];		/* its tree or headers ("" if not known) */
	char hash[72];			/* build-kernel.sh HASH of a variant, "" for distro */
	char module[PATH_MAX];
	char initrd[PATH_MAX];
	char boot_image[PATH_MAX];	/* what QEMU boots: image, its vmlinux (run/plan/pvh.h) or LZ4 one (lz4.h) */
	const char *boot_path;		/* "pvh", "lz4", "bzimage" or "host" */
	long lpj;			/* preset on the command line (lpj=); 0: none */
	const char *lpj_source;		/* "cache", "calibrated", "option", "off", "kvm" */
	char snap_files[24];		/* --restore: the files' part of a snapshot key (run/guest/snapshot.h) */
	bool kasan;			/* its .config has CONFIG_KASAN=y: a boot takes ~4x as long */
};

#define MAX_KERNELS 16

/* What every cell of a run shares, resolved once. */
struct run_ctx {
	const struct run_opts *o;
	char root[PATH_MAX];
	char out[PATH_MAX];		/* absolute */
	struct kernel_res kernels[MAX_KERNELS];
	int nkernels;
	char runner[PATH_MAX];
	struct strv bt_paths;		/* absolute .bt paths, same order as o->bpftrace */
	char bt_aot_cache[PATH_MAX];	/* bpftrace AOT programs (plan/bt_aot.h); "": none */
	char *observe;			/* --bpftrace-preattach: bt_paths joined by ','; NULL: off */
	char observe_id[24];		/* what those observers are (snapshot key): their files' hash */
	enum accel_mode accel;
	int duration_s;			/* --duration, or the accelerator's default */
	bool target_host;
	int host_cpus;			/* online CPUs: --target host, TCG overcommit */
	char *qemu;			/* binary; HTAB_QEMU overrides */
};

const struct kernel_res *kernel_find(const struct run_ctx *c, const char *label);

/* k as lib/decode.h searches its files (the strings are k's). */
static inline struct decode_kernel kernel_decode_of(const struct kernel_res *k)
{
	return (struct decode_kernel){ .tree = k->tree, .kdir = k->kdir, .release = k->release,
				       .line = k->line, .module = k->module, .image = k->image };
}
#endif
