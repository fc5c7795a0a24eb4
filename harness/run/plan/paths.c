/* Where things are: the repo root, the guest kernel, its initramfs, the module. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/plan/paths.h"
#include "lib/spawn.h"
#include "lib/util.h"

int bzimage_release(const char *image, char *out, size_t n)
{
	unsigned char hdr[0x210];
	char ver[256];
	uint16_t off;
	FILE *f = fopen(image, "rb");
	int err = -1;

	if (!f)
		return -1;
	if (fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr) || memcmp(hdr + 0x202, "HdrS", 4))
		goto cleanup;
	off = hdr[0x20e] | hdr[0x20f] << 8;
	if (!off || fseek(f, off + 0x200, SEEK_SET) || !fgets(ver, sizeof(ver), f))
		goto cleanup;
	ver[strcspn(ver, " \n")] = '\0';
	if (!ver[0])
		goto cleanup;
	snprintf(out, n, "%s", ver);
	err = 0;
cleanup:
	fclose(f);
	return err;
}

int module_vermagic(const char *ko, char *out, size_t n)
{
	size_t len;
	char *buf = read_file(ko, &len), *p;

	if (!buf)
		return -1;
	p = memmem(buf, len, "vermagic=", 9);
	if (!p) {
		free(buf);
		return -1;
	}
	p += 9;
	snprintf(out, n, "%.*s", (int)strcspn(p, " "), p);
	free(buf);
	return 0;
}

int ensure_initramfs(const char *root, const char *release, const char *path, bool modules)
{
	char script[PATH_MAX], dir[PATH_MAX], src[PATH_MAX];
	struct stat out, in;
	bool stale = false;

	/* Rebuilt when the init or the script that packs it changed since. */
	for (const char *const *f = (const char *const[]){ "vm-images/guest/init",
			"vm-images/guest/reseed.c", "vm-images/guest/tasks.c", "kmod/tasks_proto.h",
			"vm-images/mkinitramfs.sh", NULL }; *f; f++) {
		snprintf(src, sizeof(src), "%s/%s", root, *f);
		if (!stat(path, &out) && !stat(src, &in) && in.st_mtime > out.st_mtime)
			stale = true;
	}
	if (file_exists(path) && !stale)
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	if (mkdir_p(dirname(dir)))
		return -1;
	snprintf(script, sizeof(script), "%s/vm-images/mkinitramfs.sh", root);
	fprintf(stderr, "building %s\n", path);
	if (spawn_run(modules ? (char *[]){ script, (char *)release, (char *)path, NULL } :
		      (char *[]){ script, "--no-modules", (char *)release, (char *)path, NULL },
		      NULL, NULL))
		return -1;
	return file_exists(path) ? 0 : -1;
}

int cache_dir(const char *root, const char *env, const char *name, char *out, size_t n)
{
	const char *e = getenv(env);

	if (e && *e)
		return pathf(out, n, "%s", e);
	return pathf(out, n, "%s/vm-images/out/%s", root, name);
}
