/* The guest's compiled bpftrace programs, into the cache (bt_aot.h). */
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "run/record/bt_aot.h"

/* KEY or KEY.fail: KEY is 16 lowercase hex digits (run-job.sh's bt_aot). */
static bool aot_name(const char *name)
{
	size_t i;

	for (i = 0; i < 16; i++)
		if (!strchr("0123456789abcdef", name[i]) || !name[i])
			return false;
	return !name[i] || !strcmp(name + i, ".fail");
}

void bt_aot_publish(const struct run_ctx *c, const char *cell_dir)
{
	const char *cache = c->bt_aot_cache;
	char src[PATH_MAX], dst[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (!cache[0] || pathf(src, sizeof(src), "%s/bpftrace/aot", cell_dir) ||
	    !(d = opendir(src)))
		return;
	while ((de = readdir(d))) {
		size_t len;
		char *data;

		if (!aot_name(de->d_name) || pathf(src, sizeof(src), "%s/bpftrace/aot/%s", cell_dir,
						   de->d_name) ||
		    pathf(dst, sizeof(dst), "%s/%s", cache, de->d_name))
			continue;
		data = read_file(src, &len);
		if (!data || write_file_atomic(dst, data, len))
			fprintf(stderr, "warning: cannot copy %s to %s: %m\n", src, dst);
		free(data);
	}
	closedir(d);
}
