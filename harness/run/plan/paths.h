/* Where things are: the repo root, the guest kernel, its initramfs, the module, scripts. */
#ifndef HT_PATHS_H
#define HT_PATHS_H
#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"

/* Release string from a bzImage's setup header ("6.1.0-57-amd64"). */
int bzimage_release(const char *image, char *out, size_t n);
/* "vermagic=" of a .ko: its first word, the release it was built for. */
int module_vermagic(const char *ko, char *out, size_t n);
/*
 * Runs vm-images/mkinitramfs.sh when the initramfs is missing or older than
 * guest/init or the script; !modules: --no-modules (a --kernel-tree).
 */
int ensure_initramfs(const char *root, const char *release, const char *path, bool modules);
/*
 * A cache the runs share: $ENV when set and not empty, else
 * ROOT/vm-images/out/NAME. 0 ok, -1 when it does not fit in n.
 */
int cache_dir(const char *root, const char *env, const char *name, char *out, size_t n);
#endif
