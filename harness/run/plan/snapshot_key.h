/*
 * --restore on: a guest booted once per QEMU command line, saved at init's
 * save point (every CPU online, the modules loaded, nothing mounted over 9p:
 * QEMU will not migrate a guest with a 9p export mounted), and restored
 * (QEMU -incoming) for every later boot of that command line, cell or
 * shared. Under TCG a boot at 96 vCPUs is ~30 s of firmware, decompression,
 * initcalls and module loading that a restore skips.
 *
 * The cache: DIR/NAME/ with state (the migration stream), key (what it was
 * saved from), info.json (when, how long the boot and the save took, its
 * size) and console.log of the saved boot. DIR is vm-images/out/snapshots
 * (HTAB_SNAPSHOT_CACHE overrides); NAME is the FNV-1a 64 of the key: the
 * bytes of the booted image, the initramfs and the QEMU binary, and the
 * QEMU command line with the per-boot parts (9p share, console and port
 * files, group) left out. A key that differs from the file's is a miss.
 *
 * A restored guest is woken on its htab.ctl port (a FIFO, LOGDIR/ctl) with
 * "group=NAME seed=HEX time=EPOCH": its group (none for a boot of its own),
 * 32 bytes from the host's getrandom() it reseeds its CRNG with (guest
 * htab-reseed; and vmgenid where the kernel has it), and the host's clock.
 */
#ifndef HT_SNAPSHOT_KEY_H
#define HT_SNAPSHOT_KEY_H
#include <stdbool.h>
#include <stddef.h>
#include "run/plan/qemu_argv.h"

/* The cache directory: HTAB_SNAPSHOT_CACHE, else ROOT/vm-images/out/snapshots. */
void snapshot_cache_dir(const char *root, char *out, size_t n);
/*
 * The part of the key the files give: FNV-1a 64 of the bytes of image,
 * initrd and qemu (a name is looked up in PATH), as hex. 0 ok, -1 when one
 * cannot be read.
 */
int snapshot_files_id(const char *qemu, const char *image, const char *initrd, char *out, size_t n);
/*
 * The key of a guest booted as q (its restore, cell_dir, log_dir, group and
 * state ignored) from files_id: "htab-torture snapshot 1", the files id and
 * the command line, one word a line. malloc'd; NULL on no memory.
 */
char *snapshot_key(const struct qemu_cfg *q, const char *files_id);
/* DIR/NAME for key. */
void snapshot_dir_of(const char *cache, const char *key, char *out, size_t n);
/* True when dir holds a state saved from exactly key. */
bool snapshot_valid(const char *dir, const char *key);

#endif
