/* The PVH boot of an uncompressed vmlinux under TCG (pvh.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/spawn.h"
#include "run/plan/lpj.h"
#include "run/plan/pvh.h"

static bool is_elf(const char *path)
{
	char m[4] = { 0 };
	FILE *f = fopen(path, "rb");
	bool elf = f && fread(m, 1, 4, f) == 4 && !memcmp(m, "\177ELF", 4);

	if (f)
		fclose(f);
	return elf;
}

static void as_is(struct kernel_res *k, const char *path)
{
	snprintf(k->boot_image, sizeof(k->boot_image), "%s", k->image);
	k->boot_path = path;
}

int pvh_resolve(const struct run_ctx *c, struct kernel_res *k, bool dry_run)
{
	const char *e = getenv("HTAB_PVH_CACHE");
	char dir[PATH_MAX], name[128], elf[PATH_MAX + 160], no[PATH_MAX + 160], script[PATH_MAX];
	int rc;

	if (c->target_host)
		return as_is(k, "host"), 0;
	if (is_elf(k->image))
		return as_is(k, "pvh"), 0;
	if (c->o->pvh_off || c->accel == ACCEL_KVM)
		return as_is(k, "bzimage"), 0;
	if (e && *e ? pathf(dir, sizeof(dir), "%s", e) :
	    pathf(dir, sizeof(dir), "%s/vm-images/out/pvh", c->root))
		return -1;
	if (lpj_cache_name(k->image, "", name, sizeof(name)))
		return as_is(k, "bzimage"), 0;
	name[16] = '\0';	/* the image's part */
	if (pathf(elf, sizeof(elf), "%s/%s.vmlinux", dir, name) ||
	    pathf(no, sizeof(no), "%s/%s.nopvh", dir, name))
		return -1;
	if (file_exists(elf)) {
		if (pathf(k->boot_image, sizeof(k->boot_image), "%s", elf))
			return -1;
		k->boot_path = "pvh";
		return 0;
	}
	if (file_exists(no) || dry_run) {
		if (dry_run && !file_exists(no))
			fprintf(stderr, "note: pvh: %s not extracted yet: a run boots its vmlinux through PVH\n",
				k->image);
		return as_is(k, "bzimage"), 0;
	}
	if (mkdir_p(dir)) {
		fprintf(stderr, "error: pvh: cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (pathf(script, sizeof(script), "%s/vm-images/pvh-vmlinux.sh", c->root))
		return -1;
	rc = spawn_run((char *[]){ script, k->image, elf, NULL }, NULL, NULL);
	if (rc == 0) {
		fprintf(stderr, "pvh: %s boots as %s (PVH, no decompression in the guest)\n", k->image,
			elf);
		if (pathf(k->boot_image, sizeof(k->boot_image), "%s", elf))
			return -1;
		k->boot_path = "pvh";
		return 0;
	}
	if (rc == 3) {
		FILE *f = fopen(no, "w");

		if (f)
			fclose(f);
	} else {
		fprintf(stderr, "warning: pvh: extracting the vmlinux of %s failed (exit %d): it boots as a bzImage\n",
			k->image, rc);
	}
	return as_is(k, "bzimage"), 0;
}
