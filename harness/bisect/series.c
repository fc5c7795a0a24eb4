/*
 * bisect's series: the patches of DIR/series (quilt's file: one patch a
 * line, # comments), one variant directory per step under OUT/variants/
 * (the base's fragments, its patches then the series' first K, seeded
 * from the base's tree), built by vm-images/build-kernel.sh, which finds
 * them through HTAB_VARIANT_DIRS.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bisect/bisect.h"
#include "lib/fnv.h"
#include "lib/spawn.h"
#include "lib/util.h"

#define MAX_PATCHES 999

static bool patch_name_ok(const char *s)
{
	return s[0] && strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", s[0]) &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") ==
	       strlen(s);
}

static bool name_ok(const char *s)
{
	return s[0] && strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", s[0]) &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
	       strlen(s);
}

/* The base: [LINE/]VARIANT with its variant.conf in the kit. */
static int resolve_base(struct bs_ctx *c)
{
	const char *b = c->o->base, *slash = strchr(b, '/');
	static const char *const roots[] = { "variants", "mutants" };
	char p[4096];

	if (slash) {
		snprintf(c->line, sizeof(c->line), "%.*s", (int)(slash - b), b);
		if (pathf(p, sizeof(p), "%s/vm-images/lines/%s/line.conf", c->root, c->line))
			return -1;
		if ((size_t)(slash - b) >= sizeof(c->line) ||
		    strspn(c->line, "0123456789.") != strlen(c->line) || !file_exists(p)) {
			fprintf(stderr, "error: --base-variant '%s': no kernel line '%.*s' (vm-images/lines/: 6.1, 6.12, …)\n",
				b, (int)(slash - b), b);
			return -1;
		}
		b = slash + 1;
	}
	snprintf(c->base_variant, sizeof(c->base_variant), "%s", b);
	for (size_t i = 0; name_ok(b) && i < 2; i++) {
		if (pathf(c->base_conf, sizeof(c->base_conf), "%s/vm-images/kernels/%s/%s/variant.conf",
			  c->root, roots[i], b))
			return -1;
		if (file_exists(c->base_conf))
			return 0;
	}
	fprintf(stderr, "error: --base-variant '%s': no variant '%s' in vm-images/kernels/variants/ or mutants/ (see vm-images/build-kernel.sh --list)\n",
		c->o->base, b);
	return -1;
}

static void step_label(const struct bs_ctx *c, struct bs_step *s)
{
	if (s->k)
		snprintf(s->variant, sizeof(s->variant), "bisect-%s-s%d", c->tag, s->k);
	else
		snprintf(s->variant, sizeof(s->variant), "%s", c->base_variant);
	snprintf(s->label, sizeof(s->label), "%s%s%s", c->line, c->line[0] ? "/" : "", s->variant);
}

/* The series' names and contents: its tag (FNV), c->patches. */
static int read_series(struct bs_ctx *c)
{
	char path[4096], *text, *save = NULL;
	uint64_t h = FNV1A64_INIT;
	int lineno = 0;

	snprintf(path, sizeof(path), "%s/series", c->o->series);
	text = read_file(path, NULL);
	if (!text) {
		fprintf(stderr, "error: --series '%s': no readable series file %s: %s\n",
			c->o->series, path, strerror(errno));
		return -1;
	}
	h = fnv1a64(h, c->o->base, strlen(c->o->base) + 1);
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *name, *opt, *wsave = NULL, ppath[4096];

		lineno++;
		if (strchr(l, '#'))
			*strchr(l, '#') = '\0';
		name = strtok_r(l, " \t", &wsave);
		if (!name)
			continue;
		opt = strtok_r(NULL, " \t", &wsave);
		if ((opt && strcmp(opt, "-p1")) || strtok_r(NULL, " \t", &wsave)) {
			fprintf(stderr, "error: %s:%d: '%s %s': only -p1 may follow a patch name\n",
				path, lineno, name, opt);
			goto fail;
		}
		if (!patch_name_ok(name)) {
			fprintf(stderr, "error: %s:%d: patch name '%s': must be letters, digits and . _ + - (not first)\n",
				path, lineno, name);
			goto fail;
		}
		for (size_t i = 0; i < c->patches.n; i++)
			if (!strcmp(c->patches.v[i], name)) {
				fprintf(stderr, "error: %s:%d: patch '%s' is listed twice\n",
					path, lineno, name);
				goto fail;
			}
		snprintf(ppath, sizeof(ppath), "%s/%s", c->o->series, name);
		if (!file_exists(ppath)) {
			fprintf(stderr, "error: %s:%d: no patch file %s\n", path, lineno, ppath);
			goto fail;
		}
		if (fnv1a64_file(ppath, &h) || strv_push(&c->patches, name))
			goto fail;
		h = fnv1a64(h, name, strlen(name) + 1);
	}
	if (!c->patches.n || c->patches.n > MAX_PATCHES) {
		fprintf(stderr, "error: --series '%s': %s lists %zu patches; a series has 1..%d\n",
			c->o->series, path, c->patches.n, MAX_PATCHES);
		goto fail;
	}
	snprintf(c->tag, sizeof(c->tag), "%08x", (unsigned)(h ^ (h >> 32)));
	free(text);
	return 0;
fail:
	free(text);
	return -1;
}

/* FRAGMENTS, PATCHES and LINES of the base's variant.conf, as its shell sees them. */
static int base_conf(const struct bs_ctx *c, char **out)
{
	char *argv[] = { "/bin/sh", "-c",
			 "FRAGMENTS= PATCHES= LINES=; . \"$1\" && printf '%s\\n%s\\n%s\\n' "
			 "\"$FRAGMENTS\" \"$PATCHES\" \"$LINES\"", "sh", (char *)c->base_conf, NULL };
	struct spawn_opts so = { .null_stdin = true };

	if (spawn_run(argv, &so, out) || !*out) {
		fprintf(stderr, "error: --base-variant '%s': cannot read %s\n", c->o->base,
			c->base_conf);
		return -1;
	}
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	size_t len;
	char *s = read_file(from, &len);
	int err;

	if (!s)
		return -1;
	err = write_file_atomic(to, s, len);
	free(s);
	return err;
}

/* OUT/variants/bisect-TAG-sK/{variant.conf,patches/}, rewritten each time (same bytes). */
static int write_variants(struct bs_ctx *c)
{
	char *conf = NULL, *frag, *bpatches, *blines, *save = NULL, dir[4096], from[4096], to[4096];
	char basedir[4096];
	struct strv bp = { 0 };
	int err = -1;

	if (base_conf(c, &conf))
		return -1;
	/* Three lines, any of them empty. */
	frag = conf;
	bpatches = strchr(frag, '\n');
	if (!bpatches)
		goto out;
	*bpatches++ = '\0';
	blines = strchr(bpatches, '\n');
	if (!blines)
		goto out;
	*blines++ = '\0';
	blines[strcspn(blines, "\n")] = '\0';
	if (!*frag) {
		fprintf(stderr, "error: --base-variant '%s': %s has no FRAGMENTS\n", c->o->base,
			c->base_conf);
		goto out;
	}
	snprintf(basedir, sizeof(basedir), "%s", c->base_conf);
	*strrchr(basedir, '/') = '\0';
	for (char *p = strtok_r(bpatches, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
		for (size_t i = 0; i < c->patches.n; i++)
			if (!strcmp(c->patches.v[i], p)) {
				fprintf(stderr, "error: --series: patch '%s' has the name of one of the base %s's own patches\n",
					p, c->o->base);
				goto out;
			}
		strv_push(&bp, p);
	}
	for (int k = 1; k < c->nsteps; k++) {
		struct bs_step *s = &c->steps[k];
		struct strv all = { 0 };
		char *text = NULL;
		size_t len = 0;
		FILE *f;

		if (pathf(dir, sizeof(dir), "%s/variants/%s/patches", c->out, s->variant) ||
		    mkdir_p(dir))
			goto write_fail;
		for (size_t i = 0; i < bp.n; i++) {
			if (pathf(from, sizeof(from), "%s/patches/%s", basedir, bp.v[i]) ||
			    pathf(to, sizeof(to), "%s/%s", dir, bp.v[i]) || copy_file(from, to))
				goto write_fail;
			strv_push(&all, bp.v[i]);
		}
		for (int i = 0; i < k; i++) {
			if (pathf(from, sizeof(from), "%s/%s", c->o->series, c->patches.v[i]) ||
			    pathf(to, sizeof(to), "%s/%s", dir, c->patches.v[i]) || copy_file(from, to))
				goto write_fail;
			strv_push(&all, c->patches.v[i]);
		}
		f = open_memstream(&text, &len);
		if (!f)
			goto write_fail;
		fprintf(f, "# Made by htab-torture bisect: step %d of the series %s on %s.\n"
			"DESCRIPTION=\"%s + %s's patches 1..%d (bisect step %d: %s)\"\n"
			"FRAGMENTS=\"%s\"\nPATCHES=\"", k, c->o->series, c->o->base, c->o->base,
			c->o->series, k, k, s->name, frag);
		for (size_t i = 0; i < all.n; i++)
			fprintf(f, "%s%s", i ? " " : "", all.v[i]);
		fprintf(f, "\"\nSEED_TREE=%s\n", c->base_variant);
		if (*blines)
			fprintf(f, "LINES=\"%s\"\n", blines);
		fclose(f);
		strv_free(&all);
		*strrchr(dir, '/') = '\0';
		if (!text || pathf(to, sizeof(to), "%s/variant.conf", dir) ||
		    write_file_atomic(to, text, len)) {
			free(text);
			goto write_fail;
		}
		free(text);
	}
	err = 0;
	goto out;
write_fail:
	fprintf(stderr, "error: cannot write the step variants under %s/variants: %s\n", c->out,
		strerror(errno));
out:
	strv_free(&bp);
	free(conf);
	return err;
}

/* The value of KEY= in build-kernel.sh's last line. */
static void build_kv(const char *line, const char *key, char *out, size_t n)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), "%s=", key);
	for (p = strstr(line, pat); p && p != line && p[-1] != ' '; p = strstr(p + 1, pat))
		;
	out[0] = '\0';
	if (p)
		snprintf(out, n, "%.*s", (int)strcspn(p + strlen(pat), " \n"), p + strlen(pat));
}

static int build_step(struct bs_ctx *c, struct bs_step *s)
{
	char script[4096], log[4096], dir[4096], *out = NULL, *last, img[4096];
	const char *env = getenv("HTAB_BUILD_KERNEL");
	char *argv[] = { script, s->label, NULL };
	struct spawn_opts so = { .log = log, .null_stdin = true };
	double t0 = now_mono();
	int rc;

	if (s->built)
		return 0;
	if (env && *env ? pathf(script, sizeof(script), "%s", env) :
	    pathf(script, sizeof(script), "%s/vm-images/build-kernel.sh", c->root))
		return -1;
	if (pathf(dir, sizeof(dir), "%s/step-%d", c->out, s->k) ||
	    pathf(log, sizeof(log), "%s/build.log", dir))
		return -1;
	if (mkdir_p(dir)) {
		fprintf(stderr, "error: cannot make %s: %s\n", dir, strerror(errno));
		return -1;
	}
	rc = spawn_run(argv, &so, &out);
	while (out && *out && out[strlen(out) - 1] == '\n')
		out[strlen(out) - 1] = '\0';
	last = out ? strrchr(out, '\n') : NULL;
	last = last ? last + 1 : out;
	if (last) {
		build_kv(last, "HASH", s->hash, sizeof(s->hash));
		build_kv(last, "KERNEL_IMAGE", img, sizeof(img));
	}
	if (rc || !last || !s->hash[0] || !img[0]) {
		fprintf(stderr, "error: step %d: building %s failed (%s %s: exit %d; log: %s)\n",
			s->k, s->label, script, s->label, rc, log);
		free(out);
		return -1;
	}
	fprintf(stderr, "bisect: step %d: kernel %s built (hash %s, %.1f s)\n", s->k, s->label,
		s->hash, now_mono() - t0);
	free(out);
	s->built = true;
	return 0;
}

static int read_steps(struct bs_ctx *c)
{
	if (resolve_base(c) || read_series(c))
		return -1;
	c->nsteps = (int)c->patches.n + 1;
	c->steps = calloc((size_t)c->nsteps, sizeof(*c->steps));
	c->head = json_pack("{s:s, s:s, s:s}", "series", c->o->series, "base", c->o->base,
			    "tag", c->tag);
	c->params = json_pack("{s:s, s:s, s:[]}", "tag", c->tag, "base", c->o->base, "patches");
	if (!c->steps || !c->head || !c->params)
		return -1;
	for (size_t i = 0; i < c->patches.n; i++)
		json_array_append_new(json_object_get(c->params, "patches"),
				      json_string(c->patches.v[i]));
	for (int k = 0; k < c->nsteps; k++) {
		struct bs_step *s = &c->steps[k];

		s->k = k;
		s->name = k ? c->patches.v[k - 1] : NULL;
		s->id = json_pack("{s:o}", "patch", k ? json_string(s->name) : json_null());
		if (!s->id)
			return -1;
		step_label(c, s);
	}
	return 0;
}

/* The step variants, and run's own build-kernel.sh calls must find them too. */
static int prepare(struct bs_ctx *c)
{
	char env[8192];
	const char *old = getenv("HTAB_VARIANT_DIRS");

	if (write_variants(c))
		return -1;
	snprintf(env, sizeof(env), "%s/variants%s%s", c->out, old && *old ? ":" : "",
		 old && *old ? old : "");
	return setenv("HTAB_VARIANT_DIRS", env, 1);
}

const struct bs_way bs_way_series = {
	.noun = "series",
	.read_steps = read_steps,
	.prepare = prepare,
	.build_step = build_step,
};
