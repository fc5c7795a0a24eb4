/*
 * The --kernel axis: Debian's kernels ("distro", "distro-6.12", ...:
 * vm-images/kernel-lines.sh; the module in kmod/ or built against their
 * headers in vm-images/build/kmod-<label>-<release>/), a variant
 * [LINE/]VARIANT built by vm-images/build-kernel.sh (module in
 * kmod-<LINE>-<variant>-<hash>/), or a --kernel-tree (kmod-tree-<name>-<hash>/).
 */
#ifndef HT_KERNELS_H
#define HT_KERNELS_H
#include <stdbool.h>
#include "run/plan/ctx.h"

/*
 * Fills c->kernels (one per --kernel label) with image, release, module and
 * initramfs path; builds variants and their modules on demand. -1 with a
 * one-line message on stderr (unknown variant → the valid names).
 */
int kernels_resolve(struct run_ctx *c);
/* "KERNEL_IMAGE=a KERNEL_RELEASE=b KDIR=c HASH=d" (build-kernel.sh's last line). */
int parse_build_line(const char *line, struct kernel_res *k);
#endif
