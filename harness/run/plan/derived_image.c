/* A boot image derived once per kernel image, cached (derived_image.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/spawn.h"
#include "lib/util.h"
#include "run/plan/derived_image.h"
#include "run/plan/lpj.h"

int derived_image_resolve(const struct run_ctx *c, struct kernel_res *k, bool dry_run,
			  const struct derived_image *d, char *const args[])
{
	const char *e = getenv(d->cache_env);
	char dir[PATH_MAX], name[128], out[PATH_MAX + 160], no[PATH_MAX + 160], script[PATH_MAX];
	struct strv a = { 0 };
	int rc;

	if (e && *e ? pathf(dir, sizeof(dir), "%s", e) :
	    pathf(dir, sizeof(dir), "%s/vm-images/out/%s", c->root, d->what))
		return -1;
	if (lpj_cache_name(k->image, "", name, sizeof(name)))
		return 0;
	name[16] = '\0';	/* the image's part */
	if (pathf(out, sizeof(out), "%s/%s%s", dir, name, d->suffix) ||
	    pathf(no, sizeof(no), "%s/%s.no%s", dir, name, d->what))
		return -1;
	if (file_exists(out))
		goto boot;
	if (file_exists(no))
		return 0;
	if (dry_run) {
		fprintf(stderr, "note: %s: %s not derived yet: a run boots it %s\n", d->what, k->image,
			d->how);
		return 0;
	}
	if (mkdir_p(dir)) {
		fprintf(stderr, "error: %s: cannot create %s: %s\n", d->what, dir, strerror(errno));
		return -1;
	}
	if (pathf(script, sizeof(script), "%s/%s", c->root, d->script) || strv_push(&a, script))
		goto oom;
	for (int i = 0; args[i]; i++)
		if (strv_push(&a, args[i]))
			goto oom;
	if (strv_push(&a, out))
		goto oom;
	rc = spawn_run(a.v, NULL, NULL);
	strv_free(&a);
	if (rc == 0) {
		fprintf(stderr, "%s: %s boots as %s (%s)\n", d->what, k->image, out, d->how);
		goto boot;
	}
	if (rc == 3) {
		FILE *f = fopen(no, "w");

		if (f)
			fclose(f);
	} else {
		fprintf(stderr, "warning: %s: deriving from %s failed (exit %d): it boots as it is\n",
			d->what, k->image, rc);
	}
	return 0;
boot:
	if (pathf(k->boot_image, sizeof(k->boot_image), "%s", out))
		return -1;
	k->boot_path = d->boot_path;
	return 1;
oom:
	strv_free(&a);
	fprintf(stderr, "error: %s: out of memory\n", d->what);
	return -1;
}
