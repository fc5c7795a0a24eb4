/*
 * A boot image derived once per kernel image by a vm-images script and
 * cached beside the kit: the uncompressed vmlinux of a PVH boot (pvh.h),
 * the same kernel with an LZ4 decompressor (lz4.h). The cache is
 * vm-images/out/<what>/ (an environment variable overrides), the file
 * <FNV-1a 64 of the image><suffix>; an image the script declines (exit 3:
 * nothing to derive) is remembered as <hash>.no<what>.
 */
#ifndef HT_DERIVED_IMAGE_H
#define HT_DERIVED_IMAGE_H
#include <stdbool.h>
#include "run/plan/ctx.h"

struct derived_image {
	const char *what;	/* "pvh", "lz4": messages and the cache's folder */
	const char *cache_env;	/* overrides the folder: "HTAB_PVH_CACHE" */
	const char *suffix;	/* the derived file's: ".vmlinux" */
	const char *boot_path;	/* k->boot_path when it is booted */
	const char *how;	/* what booting it means, for the one-line note */
	const char *script;	/* under the kit's root: "vm-images/pvh-vmlinux.sh" */
};

/*
 * Boots k through d when it is cached or the script derives it now
 * (argv: the script, args, then the output path; args NULL-terminated,
 * typically ending with the image): sets k->boot_image and k->boot_path,
 * returns 1. Returns 0 when it is not to be booted (declined before, or
 * now; a failed script is a warning; a dry run only reads the cache) and
 * leaves k alone; -1 when the cache cannot be written.
 */
int derived_image_resolve(const struct run_ctx *c, struct kernel_res *k, bool dry_run,
			  const struct derived_image *d, char *const args[]);
#endif
