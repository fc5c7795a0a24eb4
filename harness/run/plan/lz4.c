/* A Debian bzImage rewrapped with an LZ4 decompressor under TCG (lz4.h). */
#include <libgen.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "run/plan/derived_image.h"
#include "run/plan/lz4.h"

static const struct derived_image lz4 = {
	.what = "lz4",
	.cache_env = "HTAB_LZ4_CACHE",
	.suffix = ".bzImage",
	.boot_path = "lz4",
	.how = "as the same kernel with an LZ4 decompressor",
	.script = "vm-images/lz4-bzimage/lz4-bzimage.sh",
};

int lz4_resolve(const struct run_ctx *c, struct kernel_res *k, bool dry_run)
{
	char dir[PATH_MAX], config[PATH_MAX + 200];

	if (c->o->lz4_off || c->accel == ACCEL_KVM || !k->boot_path ||
	    strcmp(k->boot_path, "bzimage") || !k->line[0] || !k->release[0])
		return 0;
	snprintf(dir, sizeof(dir), "%s", k->image);
	if (pathf(config, sizeof(config), "%s/config-%s", dirname(dir), k->release) ||
	    !file_exists(config))
		return 0;
	return derived_image_resolve(c, k, dry_run, &lz4,
				     (char *[]){ k->line, k->image, config, NULL }) < 0 ? -1 : 0;
}
