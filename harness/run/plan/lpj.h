/*
 * lpj= on the guest's command line under TCG. Without it every secondary CPU
 * runs calibrate_delay() under emulation (and fails: "failed to get a good
 * estimate for loops_per_jiffy"); 6.1 brings APs up one at a time, so boot
 * grew by ~1.5 s per vCPU. The value is the boot CPU's own ("Calibrating
 * delay loop (skipped), value calculated using timer frequency.. N BogoMIPS
 * (lpj=N)"), read from a one-off 1-vCPU boot of the same image on this host
 * (loglevel=7, no initramfs: it panics and QEMU exits) and cached per (image
 * contents, host CPU model) in vm-images/out/lpj/ (HTAB_LPJ_CACHE overrides).
 */
#ifndef HT_LPJ_H
#define HT_LPJ_H
#include <stddef.h>
#include "run/plan/ctx.h"

/* The lpj= of the boot CPU's "Calibrating delay loop" line (the first one); -1 if none. */
long lpj_from_console(const char *text);

/*
 * The cache file's name for image on a host whose CPU is cpu_model:
 * "<FNV-1a 64 of the image's bytes>-<FNV-1a 32 of cpu_model>", hex.
 * 0 ok, -1 when the image cannot be read.
 */
int lpj_cache_name(const char *image, const char *cpu_model, char *out, size_t n);
/* The cached value (LPJ=N line of DIR/NAME), -1 if none or not valid. */
long lpj_cache_get(const char *dir, const char *name);
/* Writes DIR/NAME atomically (LPJ=, IMAGE=, CPU_MODEL= lines). 0 ok. */
int lpj_cache_put(const char *dir, const char *name, long lpj, const char *image,
		  const char *cpu_model);
/* The calibration boot's QEMU argv (console into console_path). 0 ok. */
int lpj_calibrate_argv(const char *qemu, enum accel_mode accel, const char *image,
		       const char *console_path, struct strv *a);

/*
 * Sets k->lpj and k->lpj_source for a run: --lpj N ("option"), off or KVM
 * (0, "off"/"kvm"), else the cache, else (unless dry_run: then 0,
 * "uncalibrated") a calibration boot, whose console stays beside the cache
 * file. -1 with a one-line error on stderr when calibration fails.
 */
int lpj_resolve(const struct run_ctx *c, struct kernel_res *k, bool dry_run);
#endif
