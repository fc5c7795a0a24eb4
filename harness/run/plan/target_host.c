/* --target host: whether this machine's kernel can run the job (target_host.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/plan/paths.h"
#include "run/plan/target_host.h"
#include "lib/util.h"

int host_target_check(const char *sysroot, const char *release, const char *module,
		      char *why, size_t n)
{
	char p[4096], vm[128], *s;

	snprintf(p, sizeof(p), "%s/proc/modules", sysroot);
	if (!file_exists(p)) {
		snprintf(why, n, "this kernel cannot load modules (no %s: built without CONFIG_MODULES)", p);
		return -1;
	}
	snprintf(p, sizeof(p), "%s/proc/sys/kernel/modules_disabled", sysroot);
	s = read_file(p, NULL);
	if (s && atoi(s) != 0) {
		snprintf(why, n, "module loading is disabled (%s = %d)", p, atoi(s));
		free(s);
		return -1;
	}
	free(s);
	if (module_vermagic(module, vm, sizeof(vm))) {
		snprintf(why, n, "cannot read the vermagic of %s", module);
		return -1;
	}
	if (strcmp(vm, release)) {
		snprintf(why, n, "%s was built for %s, this kernel is %s (build the module against this kernel's headers)",
			 module, vm, release);
		return -1;
	}
	snprintf(p, sizeof(p), "%s/sys/kernel/debug/kprobes", sysroot);
	if (file_exists(p))
		return 0;
	snprintf(p, sizeof(p), "%s/sys/bus/event_source/devices/kprobe", sysroot);
	if (file_exists(p))
		return 0;
	snprintf(why, n, "this kernel has no kprobes (neither %s/sys/kernel/debug/kprobes nor %s exists)",
		 sysroot, p);
	return -1;
}
