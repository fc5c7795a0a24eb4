/* Where the guests' ahead-of-time bpftrace programs are kept (bt_aot.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "run/plan/bt_aot.h"
#include "run/plan/paths.h"

int bt_aot_cache_dir(const char *root, char *out, size_t n)
{
	char dir[PATH_MAX], abs[PATH_MAX];

	if (cache_dir(root, "HTAB_BPFTRACE_AOT_CACHE", "bpftrace-aot", dir, sizeof(dir)))
		return -1;
	if (mkdir_p(dir) || !realpath(dir, abs) || strlen(abs) >= n) {
		fprintf(stderr, "warning: bpftrace AOT cache %s: %s; bpftrace compiles every script\n",
			dir, strerror(errno ? errno : ENAMETOOLONG));
		return -1;
	}
	memcpy(out, abs, strlen(abs) + 1);
	return 0;
}
