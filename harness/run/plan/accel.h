/* Choice of QEMU accelerator: KVM only where it really works, else multi-threaded TCG. */
#ifndef HT_ACCEL_H
#define HT_ACCEL_H
#include <stdbool.h>

enum accel_mode { ACCEL_AUTO, ACCEL_KVM, ACCEL_TCG };

int accel_parse(const char *s, enum accel_mode *out);
const char *accel_name(enum accel_mode m);
/* true when a "flags" line of the cpuinfo text has vmx or svm as a whole word. */
bool cpuinfo_has_virt(const char *cpuinfo);
/*
 * Resolve AUTO: KVM needs both the virt flag (a /dev/kvm without it, like
 * kvm_pvm here, hangs stock kernels) and an openable /dev/kvm.
 */
enum accel_mode accel_choose(enum accel_mode want, const char *cpuinfo, bool kvm_openable);
/* Read /proc/cpuinfo and try /dev/kvm; returns KVM or TCG. */
enum accel_mode accel_detect(enum accel_mode want);
bool kvm_usable(const char *dev);
#endif
