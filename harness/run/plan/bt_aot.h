/*
 * Ahead-of-time bpftrace programs: the guest's runner loads a kprobe-form
 * script as a program `bpftrace --aot` compiled in an earlier cell of the
 * same kernel, and compiles the ones it lacked after its measurement
 * (vm-images/guest/run-job.sh, BPFTRACE_AOT). This is where they are kept.
 */
#ifndef HTAB_RUN_PLAN_BT_AOT_H
#define HTAB_RUN_PLAN_BT_AOT_H

#include <stddef.h>

/*
 * The cache directory, absolute (the guest sees the host root read-only at
 * the same paths): $HTAB_BPFTRACE_AOT_CACHE, else ROOT/vm-images/out/bpftrace-aot.
 * Created if missing; -1 (with a warning) if it cannot be. A run works it
 * out once (run_ctx.bt_aot_cache).
 */
int bt_aot_cache_dir(const char *root, char *out, size_t n);

#endif
