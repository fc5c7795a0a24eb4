/*
 * Resolving the --kernel axis (kernels.h). Variant kernels come from
 * vm-images/build-kernel.sh (HTAB_BUILD_KERNEL overrides, for tests); each
 * gets its own module build, since a module loads only into the kernel whose
 * tree it was built against.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "lib/fnv.h"
#include "lib/spawn.h"
#include "lib/util.h"
#include "run/plan/kernels.h"
#include "run/plan/paths.h"

/* KEY=value in text: words of a line, or lines (build.info); the value to a blank. */
static int kv(const char *line, const char *key, char *out, size_t n)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), "%s=", key);
	for (p = strstr(line, pat); p && p != line && p[-1] != ' ' && p[-1] != '\n';
	     p = strstr(p + 1, pat))
		;
	if (!p)
		return -1;
	p += strlen(pat);
	snprintf(out, n, "%.*s", (int)strcspn(p, " \n"), p);
	return out[0] ? 0 : -1;
}

int parse_build_line(const char *line, struct kernel_res *k)
{
	return kv(line, "KERNEL_IMAGE", k->image, sizeof(k->image)) ||
	       kv(line, "KERNEL_RELEASE", k->release, sizeof(k->release)) ||
	       kv(line, "KDIR", k->kdir, sizeof(k->kdir)) ||
	       kv(line, "HASH", k->hash, sizeof(k->hash)) ? -1 : 0;
}

static int script_path(const struct run_ctx *c, const char *env, const char *rel,
		       char *out, size_t n)
{
	const char *e = getenv(env);

	if (e && *e)
		return pathf(out, n, "%s", e);
	return pathf(out, n, "%s/vm-images/%s", c->root, rel);
}

static int build_kernel_cmd(const struct run_ctx *c, char *out, size_t n)
{
	return script_path(c, "HTAB_BUILD_KERNEL", "build-kernel.sh", out, n);
}

static int check_variant(const struct run_ctx *c, const char *label)
{
	char script[PATH_MAX], *list = NULL, *argv[] = { script, "--list", NULL };
	int rc;
	bool found = false;

	if (build_kernel_cmd(c, script, sizeof(script)))
		return -1;
	rc = spawn_run(argv, NULL, &list);
	if (!list || rc) {
		fprintf(stderr, "error: --kernel '%s': %s --list failed\n", label, script);
		free(list);
		return -1;
	}
	for (char *s = strtok(list, "\n"); s; s = strtok(NULL, "\n"))
		found |= !strcmp(s, label);
	if (!found) {
		char *l2 = NULL;

		spawn_run(argv, NULL, &l2);

		char lines[PATH_MAX], *l3 = NULL;

		if (!script_path(c, "HTAB_KERNEL_LINES", "kernel-lines.sh", lines, sizeof(lines)))
			spawn_run((char *[]){ lines, "labels", NULL }, NULL, &l3);
		fprintf(stderr, "error: --kernel '%s': unknown; valid: distro", label);
		for (char *s = l3 ? strtok(l3, "\n") : NULL; s; s = strtok(NULL, "\n"))
			fprintf(stderr, ", %s", s);
		for (char *s = l2 ? strtok(l2, "\n") : NULL; s; s = strtok(NULL, "\n"))
			fprintf(stderr, ", %s", s);
		fputc('\n', stderr);
		free(l2);
		free(l3);
	}
	free(list);
	return found ? 0 : -1;
}

/* build-kernel.sh VARIANT (cached when built); its last stdout line describes the build. */
static int build_variant(const struct run_ctx *c, struct kernel_res *k)
{
	char script[PATH_MAX], flag[32], *out = NULL, *last;
	char *argv[] = { script, k->label, NULL, NULL };
	const char *flavour = run_opts_flavour(c->o);
	int rc;

	if (build_kernel_cmd(c, script, sizeof(script)))
		return -1;
	if (flavour) {
		snprintf(flag, sizeof(flag), "--%s", flavour);
		argv[1] = flag;
		argv[2] = k->label;
	}
	fprintf(stderr, "kernel %s: %s%s%s %s\n", k->label, script, flavour ? " --" : "",
		flavour ? flavour : "", k->label);
	rc = spawn_run(argv, NULL, &out);
	if (!out || rc) {
		fprintf(stderr, "error: --kernel '%s': %s %s failed (exit %d)\n", k->label, script,
			k->label, rc);
		free(out);
		return -1;
	}
	while (*out && out[strlen(out) - 1] == '\n')
		out[strlen(out) - 1] = '\0';
	last = strrchr(out, '\n');
	last = last ? last + 1 : out;
	/* LINE= is optional: without it the line is the release's */
	kv(last, "LINE", k->line, sizeof(k->line));
	if (parse_build_line(last, k)) {
		fprintf(stderr, "error: --kernel '%s': unexpected last line from %s: '%s'\n",
			k->label, script, last);
		free(out);
		return -1;
	}
	free(out);
	return 0;
}

/*
 * The module for a variant, in vm-images/build/kmod-<variant>-<hash>/, or
 * for a distro kernel other than the one kmod/ is built for, in
 * vm-images/build/kmod-<distro label>-<release>/: vm-images/build-kmod.sh
 * (a copy of kmod/'s sources built with make -C KDIR M=…, cached, locked).
 */
static int build_variant_module(const struct run_ctx *c, struct kernel_res *k)
{
	char dir[PATH_MAX], script[PATH_MAX], slug[sizeof(k->name)];
	int rc;

	/* "6.12/fixed": one directory, kmod-6.12-fixed-HASH */
	snprintf(slug, sizeof(slug), "%s", k->name);
	for (char *p = slug; (p = strchr(p, '/')); )
		*p = '-';
	if (pathf(dir, sizeof(dir), "%s/vm-images/build/kmod-%s-%s", c->root, slug,
		  k->hash[0] ? k->hash : k->release) ||
	    pathf(k->module, sizeof(k->module), "%s/htab_torture.ko", dir) ||
	    pathf(script, sizeof(script), "%s/vm-images/build-kmod.sh", c->root))
		return -1;
	rc = spawn_run((char *[]){ script, dir, k->kdir, NULL }, NULL, NULL);
	if (rc) {
		fprintf(stderr, "error: --kernel '%s': building the module against %s failed (log: %s.tmp/build.log)\n",
			k->label, k->kdir, dir);
		return -1;
	}
	return 0;
}

/*
 * The tree a given image was built in, when it is one the kit knows: a
 * variant's build directory (build.info's kdir=, while that tree still holds
 * the same build) or a distro image in BOOT/ beside its headers in
 * usr/src/linux-headers-RELEASE. What the label would have resolved, so a
 * repro's job.env (KDIR), its KASAN budget and its decoding are the cell's.
 */
static void given_image_kdir(struct kernel_res *k)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], hash[80], *slash, *info, *stamp;
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", k->image);
	if (!(slash = strrchr(dir, '/')))
		return;
	*slash = '\0';
	if (pathf(path, sizeof(path), "%s/build.info", dir) == 0 && (info = read_file(path, NULL))) {
		bool unread = kv(info, "kdir", k->kdir, sizeof(k->kdir)) ||
			      kv(info, "hash", hash, sizeof(hash)) ||
			      pathf(path, sizeof(path), "%s/.htab-hash", k->kdir);

		free(info);
		if (unread) {
			k->kdir[0] = '\0';
			return;
		}
		stamp = read_file(path, NULL);
		if (!stamp || strncmp(stamp, hash, strlen(hash)))
			k->kdir[0] = '\0';
		free(stamp);
		return;
	}
	/* ROOT/boot/vmlinuz-RELEASE: ROOT/usr/src/linux-headers-RELEASE */
	if (strncmp(slash + 1, "vmlinuz-", 8) || !(slash = strrchr(dir, '/')) ||
	    strcmp(slash, "/boot"))
		return;
	*slash = '\0';
	if (pathf(k->kdir, sizeof(k->kdir), "%s/usr/src/linux-headers-%s", dir, k->release) ||
	    stat(k->kdir, &st) || !S_ISDIR(st.st_mode))
		k->kdir[0] = '\0';
}

static int resolve_given_image(const struct run_ctx *c, struct kernel_res *k)
{
	const struct run_opts *o = c->o;

	if (!file_exists(o->kernel_image)) {
		fprintf(stderr, "error: kernel image %s not found\n", o->kernel_image);
		return -1;
	}
	snprintf(k->image, sizeof(k->image), "%s", o->kernel_image);
	if (o->kernel_release) {
		snprintf(k->release, sizeof(k->release), "%s", o->kernel_release);
	} else if (bzimage_release(o->kernel_image, k->release, sizeof(k->release))) {
		fprintf(stderr, "error: cannot read the kernel release from %s (not a bzImage?); give --kernel-release\n",
			o->kernel_image);
		return -1;
	}
	given_image_kdir(k);
	return 0;
}

/* Is label one of Debian's kernels (vm-images/lines/): distro or distro-LINE...? */
static bool is_distro_label(const char *label)
{
	return !strcmp(label, "distro") || !strncmp(label, "distro-", 7);
}

/*
 * A distro label through vm-images/kernel-lines.sh resolve (HTAB_KERNEL_LINES
 * overrides, for tests): which table row it is, the newest installed
 * release of it, its image and headers. The script's own message says
 * what is unknown or what to install.
 */
static int resolve_distro(const struct run_ctx *c, struct kernel_res *k)
{
	char script[PATH_MAX], *out = NULL;
	char *argv[] = { script, "resolve", k->label, NULL };
	int rc;

	if (script_path(c, "HTAB_KERNEL_LINES", "kernel-lines.sh", script, sizeof(script)))
		return -1;
	rc = spawn_run(argv, NULL, &out);
	if (rc || !out || kv(out, "LABEL", k->name, sizeof(k->name)) ||
	    kv(out, "LINE", k->line, sizeof(k->line)) ||
	    kv(out, "RELEASE", k->release, sizeof(k->release)) ||
	    kv(out, "IMAGE", k->image, sizeof(k->image)) ||
	    kv(out, "KDIR", k->kdir, sizeof(k->kdir))) {
		fprintf(stderr, "error: --kernel '%s': %s resolve %s failed (exit %d)\n",
			k->label, script, k->label, rc);
		free(out);
		return -1;
	}
	free(out);
	return 0;
}

/* The module given (--module) or kmod/'s, checked against the kernel it will load into. */
static int check_module(const struct run_ctx *c, struct kernel_res *k)
{
	char vermagic[128];

	if (!k->module[0]) {
		if (c->o->module ? pathf(k->module, sizeof(k->module), "%s", c->o->module) :
		    pathf(k->module, sizeof(k->module), "%s/kmod/htab_torture.ko", c->root))
			return -1;
	}
	if (!file_exists(k->module)) {
		fprintf(stderr, "error: module %s not found (run make first)\n", k->module);
		return -1;
	}
	if (k->module[0] != '/') {
		fprintf(stderr, "error: --module '%s': must be an absolute path (the guest sees the host root)\n",
			k->module);
		return -1;
	}
	if (!module_vermagic(k->module, vermagic, sizeof(vermagic)) &&
	    strcmp(vermagic, k->release)) {
		fprintf(stderr, "error: %s was built for %s, the kernel is %s (rebuild: make -C kmod KDIR=%s%s)\n",
			k->module, vermagic, k->release, k->kdir[0] ? k->kdir : "/usr/src/linux-headers-",
			k->kdir[0] ? "" : k->release);
		return -1;
	}
	return 0;
}

/* The flags of check-config.sh for this run: its largest --cpus, faults, bpftrace, BTF. */
static int config_check_argv(const struct run_ctx *c, struct strv *av)
{
	const struct run_opts *o = c->o;
	int cpus = 1;
	bool btf = false;

	for (int i = 0; i < o->ncpus; i++)
		cpus = o->cpus[i] > cpus ? o->cpus[i] : cpus;
	strv_push(av, "--cpus");
	strv_pushf(av, "%d", cpus);
	for (size_t i = 0; i < o->faults.n; i++)
		if (strcmp(o->faults.v[i], "none")) {
			strv_push(av, "--faults");
			break;
		}
	if (o->bpftrace.n)
		strv_push(av, "--bpftrace");
	/* kfunc:/fentry: probes need the kernel's BTF; the scripts say which they use */
	for (size_t i = 0; i < o->bpftrace.n && !btf; i++) {
		char path[PATH_MAX], *bt;

		if (pathf(path, sizeof(path), "%s/bpftrace/%s.bt", c->root, o->bpftrace.v[i]))
			return -1;
		bt = read_file(path, NULL);
		btf = bt && (strstr(bt, "kfunc:") || strstr(bt, "fentry:"));
		free(bt);
	}
	if (btf)
		strv_push(av, "--btf");
	return 0;
}

/*
 * --kernel-tree DIR: a tree the user built. Before any boot: the files the
 * kit uses, then its .config against vm-images/tree-config.req for this
 * run (check-config.sh names every gap, exit 2). The module is built
 * against the tree, keyed by its Module.symvers, .config and release (a
 * rebuild with other exports or config gets a new module); git describe
 * --dirty is recorded.
 */
static int resolve_tree(const struct run_ctx *c, struct kernel_res *k, const char *dir)
{
	static const char *const need[][2] = {
		{ "arch/x86/boot/bzImage", "the image QEMU boots" },
		{ ".config", "checked for what the kit needs" },
		{ "Module.symvers", "the module is built against the tree" },
		{ "vmlinux", "symbols for the kernel's reports" },
		{ "include/config/kernel.release", "the release the module is built for" },
	};
	char path[PATH_MAX], script[PATH_MAX], *rel, *desc = NULL;
	struct strv av = { 0 };
	bool missing = false;
	uint64_t h;
	int rc;

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, need[i][0]);
		if (file_exists(path))
			continue;
		if (!missing)
			fprintf(stderr, "error: --kernel-tree %s: not a built kernel tree:\n", dir);
		fprintf(stderr, "  no %s (%s)\n", need[i][0], need[i][1]);
		missing = true;
	}
	if (missing) {
		fprintf(stderr, "  (build it first: make -C %s bzImage modules)\n", dir);
		return -1;
	}
	if (script_path(c, "HTAB_CHECK_CONFIG", "check-config.sh", script, sizeof(script)))
		return -1;
	snprintf(path, sizeof(path), "%s/.config", dir);
	strv_push(&av, script);
	strv_push(&av, path);
	if (config_check_argv(c, &av)) {
		strv_free(&av);
		return -1;
	}
	rc = spawn_run(av.v, NULL, NULL);
	strv_free(&av);
	if (rc) {
		fprintf(stderr, "error: --kernel-tree %s: its .config cannot run this matrix (above; exit %d)\n",
			dir, rc);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/include/config/kernel.release", dir);
	rel = read_file(path, NULL);
	snprintf(k->release, sizeof(k->release), "%.*s", rel ? (int)strcspn(rel, "\n") : 0,
		 rel ? rel : "");
	free(rel);
	snprintf(k->image, sizeof(k->image), "%s/arch/x86/boot/bzImage", dir);
	snprintf(k->kdir, sizeof(k->kdir), "%s", dir);
	snprintf(k->tree, sizeof(k->tree), "%s", dir);
	/* what a module must match: exports (CRCs are 0 without MODVERSIONS), config, release */
	h = FNV1A64_INIT;
	for (const char *const *f = (const char *const[]){ "Module.symvers", ".config",
			"include/config/kernel.release", NULL }; *f; f++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		if (fnv1a64_file(path, &h)) {
			fprintf(stderr, "error: --kernel-tree %s: cannot read %s: %s\n", dir, path,
				strerror(errno));
			return -1;
		}
	}
	snprintf(k->hash, sizeof(k->hash), "%012llx", (unsigned long long)(h & 0xffffffffffffULL));
	snprintf(path, sizeof(path), "%s/.git", dir);
	if (file_exists(path) &&
	    !spawn_run((char *[]){ "git", "-C", (char *)dir, "describe", "--always", "--dirty", NULL },
		       NULL, &desc) && desc)
		snprintf(k->tree_describe, sizeof(k->tree_describe), "%.*s",
			 (int)strcspn(desc, "\n"), desc);
	free(desc);
	return 0;
}

/* kmod/'s module, when it was built for this release (make builds it for the default). */
static bool kmod_module_fits(const struct run_ctx *c, const struct kernel_res *k)
{
	char ko[PATH_MAX], vermagic[128];

	/* a path too long (pathf said so) is not kmod/'s */
	return !pathf(ko, sizeof(ko), "%s/kmod/htab_torture.ko", c->root) &&
	       !module_vermagic(ko, vermagic, sizeof(vermagic)) && !strcmp(vermagic, k->release);
}

/* "6.12" of "6.12.117+deb12-rt-amd64": the kernel line a release belongs to. */
static void line_of_release(const char *release, char *out, size_t n)
{
	size_t len = strspn(release, "0123456789");

	if (release[len] == '.')
		len += 1 + strspn(release + len + 1, "0123456789");
	snprintf(out, n, "%.*s", (int)len, release);
}

/*
 * Does the kernel built in kdir have KASAN (its .config)? Its boot takes
 * ~4x as long under TCG (a KASAN guest of fixed --sanitizers on: 65 s to
 * init at 2 vCPUs, against ~15 s), so its budgets grow (cell_plan.c).
 */
static bool config_has_kasan(const char *kdir)
{
	char path[PATH_MAX + 16], line[256];
	bool yes = false;
	FILE *f;

	if (!kdir[0] || pathf(path, sizeof(path), "%s/.config", kdir) || !(f = fopen(path, "r")))
		return false;
	while (!yes && fgets(line, sizeof(line), f))
		yes = !strcmp(line, "CONFIG_KASAN=y\n");
	fclose(f);
	return yes;
}

static int resolve_one(struct run_ctx *c, struct kernel_res *k)
{
	const struct run_opts *o = c->o;

	snprintf(k->name, sizeof(k->name), "%s", k->label);
	if (c->target_host) {
		struct utsname u;

		uname(&u);
		snprintf(k->label, sizeof(k->label), "host");
		snprintf(k->name, sizeof(k->name), "host");
		snprintf(k->release, sizeof(k->release), "%s", u.release);
		line_of_release(k->release, k->line, sizeof(k->line));
		/* Whether it loads here is host_target_check's question (it says why not). */
		if (o->module)
			return pathf(k->module, sizeof(k->module), "%s", o->module);
		return pathf(k->module, sizeof(k->module), "%s/kmod/htab_torture.ko", c->root);
	}
	if (run_opts_kernel_tree(o, k->label)) {
		if (resolve_tree(c, k, run_opts_kernel_tree(o, k->label)))
			return -1;
		if (!o->module && build_variant_module(c, k) && !o->dry_run)
			return -1;
	} else if (o->kernel_image) {
		if (resolve_given_image(c, k))
			return -1;
	} else if (is_distro_label(k->label)) {
		if (resolve_distro(c, k))
			return -1;
		if (!o->module && !kmod_module_fits(c, k) && build_variant_module(c, k) &&
		    !o->dry_run)
			return -1;
	} else {
		if (check_variant(c, k->label) || build_variant(c, k))
			return -1;
		if (!k->line[0])
			line_of_release(k->release, k->line, sizeof(k->line));
		/* "6.12/fixed" as given; "fixed" is on the default line */
		if (!strchr(k->label, '/') &&
		    snprintf(k->name, sizeof(k->name), "%s/%s", k->line, k->label) >=
		    (int)sizeof(k->name)) {
			fprintf(stderr, "error: --kernel '%s': its name %s/%s is over %zu bytes\n",
				k->label, k->line, k->label, sizeof(k->name) - 1);
			return -1;
		}
		if (!o->module && build_variant_module(c, k) && !o->dry_run)
			return -1;
	}
	if (!k->line[0])
		line_of_release(k->release, k->line, sizeof(k->line));
	k->kasan = config_has_kasan(k->kdir);
	/* a tree's has no modules: not the same file as a distro kernel's of its release */
	if (pathf(k->initrd, sizeof(k->initrd), "%s/vm-images/out/initramfs-%s%s.cpio.gz",
		  c->root, k->tree[0] ? "nomod-" : "", k->release))
		return -1;
	if (check_module(c, k)) {
		if (!o->dry_run)
			return -1;
		fprintf(stderr, "(dry run: continuing without the module)\n");
	}
	return 0;
}

int kernels_resolve(struct run_ctx *c)
{
	const struct strv *labels = &c->o->kernels;

	if (labels->n > MAX_KERNELS) {
		fprintf(stderr, "error: --kernel: at most %d kernels\n", MAX_KERNELS);
		return -1;
	}
	if (c->target_host && (labels->n != 1 || strcmp(labels->v[0], "host"))) {
		fprintf(stderr, "error: --kernel cannot be used with --target host (the job runs on this machine's kernel)\n");
		return -1;
	}
	c->nkernels = 0;
	for (size_t i = 0; i < labels->n; i++) {
		struct kernel_res *k = &c->kernels[c->nkernels++];

		memset(k, 0, sizeof(*k));
		snprintf(k->label, sizeof(k->label), "%s", labels->v[i]);
		if (resolve_one(c, k))
			return -1;
	}
	return 0;
}
