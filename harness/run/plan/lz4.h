/*
 * Under TCG, a Debian kernel whose bzImage decompresses itself slowly (XZ:
 * the 6.1 line's, ~3 s of every boot here) boots as the same kernel with
 * an LZ4 decompressor (vm-images/lz4-bzimage/lz4-bzimage.sh: only
 * arch/x86/boot is rebuilt, from the line's Debian source; KASLR stays),
 * derived once per image into vm-images/out/lz4/<FNV-1a 64 of the
 * bzImage>.bzImage (HTAB_LZ4_CACHE overrides; derived_image.h). An image
 * with nothing to gain (gzip, LZ4, LZO, zstd) is remembered as <hash>.nolz4.
 */
#ifndef HT_LZ4_H
#define HT_LZ4_H
#include <stdbool.h>
#include "run/plan/ctx.h"

/*
 * After pvh_resolve: a kernel that boots its bzImage under TCG with --lz4
 * auto (the default), whose image has its Debian config beside it
 * (config-RELEASE, as Debian's /boot has: a distro kernel) boots the LZ4
 * one: sets k->boot_image and k->boot_path = "lz4". Anything else is left
 * as it is. 0, or -1 when the cache cannot be written.
 */
int lz4_resolve(const struct run_ctx *c, struct kernel_res *k, bool dry_run);
#endif
