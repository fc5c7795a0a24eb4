/*
 * --target host: the job (noise, bpftrace, insmod, verdict) runs on the
 * machine the harness runs on, through the same runner the guests use.
 */
#ifndef HT_TARGET_HOST_H
#define HT_TARGET_HOST_H
#include <stddef.h>

/*
 * Can this kernel run the job? Checks, under sysroot ("" = this machine):
 * /proc/modules exists, /proc/sys/kernel/modules_disabled is 0, the module's
 * vermagic is release, and kprobes exist (/sys/kernel/debug/kprobes or
 * /sys/bus/event_source/devices/kprobe). 0 yes; -1 and the exact reason.
 */
int host_target_check(const char *sysroot, const char *release, const char *module,
		      char *why, size_t n);
#endif
