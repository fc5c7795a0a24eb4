/* The PVH boot of an uncompressed vmlinux under TCG (pvh.h). */
#include <stdio.h>
#include <string.h>

#include "run/plan/derived_image.h"
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

static const struct derived_image pvh = {
	.what = "pvh",
	.cache_env = "HTAB_PVH_CACHE",
	.suffix = ".vmlinux",
	.boot_path = "pvh",
	.how = "through PVH, no decompression in the guest",
	.script = "vm-images/pvh-vmlinux.sh",
};

int pvh_resolve(const struct run_ctx *c, struct kernel_res *k, bool dry_run)
{
	int rc;

	if (c->target_host)
		return as_is(k, "host"), 0;
	if (is_elf(k->image))
		return as_is(k, "pvh"), 0;
	if (c->o->pvh_off || c->accel == ACCEL_KVM)
		return as_is(k, "bzimage"), 0;
	rc = derived_image_resolve(c, k, dry_run, &pvh, (char *[]){ k->image, NULL });
	if (rc == 0)
		as_is(k, "bzimage");
	return rc < 0 ? -1 : 0;
}
