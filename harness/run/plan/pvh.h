/*
 * PVH boot under TCG: QEMU boots the uncompressed vmlinux inside the bzImage
 * through its PVH entry, so the kernel does not decompress itself under
 * emulation. The vmlinux is extracted once per image by
 * vm-images/pvh-vmlinux.sh into vm-images/out/pvh/<FNV-1a 64 of the
 * bzImage>.vmlinux (HTAB_PVH_CACHE overrides); an image without a PVH entry
 * (CONFIG_PVH unset: the source-built variants today) is remembered as
 * <hash>.nopvh and boots as a bzImage.
 */
#ifndef HT_PVH_H
#define HT_PVH_H
#include <stdbool.h>
#include "run/plan/ctx.h"

/*
 * Sets k->boot_image and k->boot_path ("pvh" or "bzimage"): --pvh off, KVM
 * or --target host boot k->image as it is; an ELF image boots through PVH as
 * it is; a dry run only reads the cache. A failed extraction is a warning
 * (the bzImage boots). 0 always but when the cache cannot be written.
 */
int pvh_resolve(const struct run_ctx *c, struct kernel_res *k, bool dry_run);
#endif
