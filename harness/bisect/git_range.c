/*
 * bisect's git range of a kernel tree (--kernel-tree DIR --range
 * GOOD..BAD): step 0 is GOOD, steps 1..N `git rev-list --reverse
 * --first-parent GOOD..BAD`. The user's checkout is never touched: the
 * steps are built in OUT/tree, a `git clone --shared --no-checkout` of DIR
 * made once (a clone, not a worktree: a worktree writes into DIR/.git and
 * its checkout is locked there until pruned) with DIR/.config copied in,
 * then per step `git checkout --detach`, make olddefconfig, make bzImage
 * modules (incremental: a checkout rewrites only the files that differ)
 * and the module by vm-images/build-kmod.sh (all in vm-images/build-git-step.sh), as `run --kernel-tree`
 * builds it. The step's artefacts are kept in OUT/steps/K/, so its
 * rounds boot them (--kernel-image) whatever the tree holds by then.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect/bisect.h"
#include "lib/fnv.h"
#include "lib/spawn.h"
#include "lib/util.h"

#define MAX_COMMITS 999

/* git -C DIR ARGS...: its stdout, trailing newlines cut, in *out (stderr dropped); its exit status. */
static int git(const char *dir, char **out, const char *const *args)
{
	struct strv av = { 0 };
	struct spawn_opts so = { .null_stdin = true };
	int rc;

	/* its messages would be a second line under bisect's own */
	strv_push(&av, "/bin/sh");
	strv_push(&av, "-c");
	strv_push(&av, "exec git -C \"$0\" \"$@\" 2> /dev/null");
	strv_push(&av, dir);
	for (; *args; args++)
		strv_push(&av, *args);
	*out = NULL;
	rc = av.v ? spawn_run(av.v, &so, out) : -1;
	strv_free(&av);
	while (*out && **out && (*out)[strlen(*out) - 1] == '\n')
		(*out)[strlen(*out) - 1] = '\0';
	return rc;
}

/* The commit REV names in DIR (40 hex) into sha; -1 with a message if none. */
static int commit_of(struct bs_ctx *c, const char *rev, char *sha, size_t n)
{
	char spec[512], *out = NULL;
	int rc;

	snprintf(spec, sizeof(spec), "%s^{commit}", rev);
	rc = git(c->tree, &out, (const char *[]){ "rev-parse", "--verify", "--quiet", spec, NULL });
	if (rc || !out || !*out) {
		fprintf(stderr, "error: --range '%s': '%s' is not a commit of %s\n", c->o->range, rev,
			c->tree);
		free(out);
		return -1;
	}
	snprintf(sha, n, "%s", out);
	free(out);
	return 0;
}

static int check_tree(struct bs_ctx *c)
{
	char *abs = realpath(c->o->kernel_tree, NULL), *top = NULL, path[4200];
	int rc;

	if (!abs) {
		fprintf(stderr, "error: --kernel-tree '%s': %s\n", c->o->kernel_tree, strerror(errno));
		return -1;
	}
	snprintf(c->tree, sizeof(c->tree), "%s", abs);
	free(abs);
	rc = git(c->tree, &top, (const char *[]){ "rev-parse", "--show-toplevel", NULL });
	if (rc || !top || !*top) {
		fprintf(stderr, "error: --kernel-tree '%s': not a git work tree (git rev-parse --show-toplevel failed)\n",
			c->o->kernel_tree);
		free(top);
		return -1;
	}
	if (strcmp(top, c->tree)) {
		fprintf(stderr, "error: --kernel-tree '%s': not the top of its git work tree (that is %s)\n",
			c->o->kernel_tree, top);
		free(top);
		return -1;
	}
	free(top);
	snprintf(path, sizeof(path), "%s/.config", c->tree);
	if (!file_exists(path)) {
		fprintf(stderr, "error: --kernel-tree '%s': no .config (each step is built with a copy of it and make olddefconfig)\n",
			c->o->kernel_tree);
		return -1;
	}
	return 0;
}

/* One step: COMMIT SUBJECT (one log line) into c->steps[k]. */
static int add_step(struct bs_ctx *c, int k, const char *line)
{
	struct bs_step *s = &c->steps[k];
	const char *subject = strchr(line, '\t');

	if (!subject || subject - line != 40)
		return -1;
	subject++;
	s->k = k;
	if (strv_pushf(&c->names, "%.12s %.60s", line, subject))
		return -1;
	s->id = json_pack("{s:s%, s:s}", "commit", line, (size_t)40, "subject", subject);
	snprintf(s->label, sizeof(s->label), "git-%.12s", line);
	json_array_append_new(json_object_get(c->params, "commits"), json_stringn(line, 40));
	return s->id ? 0 : -1;
}

static int read_steps(struct bs_ctx *c)
{
	const char *r = c->o->range, *dots = strstr(r, "..");
	char good[128], bad[128], gsha[48], bsha[48], range[200], *log = NULL, *first = NULL;
	char *save = NULL, *parent = NULL, spec[64];
	int rc, k = 0, n = 0;

	if (check_tree(c))
		return -1;
	if (!dots || dots == r || !dots[2] || dots[2] == '.' || strstr(dots + 2, "..") ||
	    (size_t)(dots - r) >= sizeof(good) || strlen(dots + 2) >= sizeof(bad)) {
		fprintf(stderr, "error: --range '%s': must be GOOD..BAD (two commits, two dots: v6.1..HEAD)\n",
			r);
		return -1;
	}
	snprintf(good, sizeof(good), "%.*s", (int)(dots - r), r);
	snprintf(bad, sizeof(bad), "%s", dots + 2);
	if (commit_of(c, good, gsha, sizeof(gsha)) || commit_of(c, bad, bsha, sizeof(bsha)))
		return -1;
	if (!strcmp(gsha, bsha)) {
		fprintf(stderr, "error: --range '%s': empty (%s and %s are one commit)\n", r, good, bad);
		return -1;
	}
	rc = git(c->tree, &log, (const char *[]){ "merge-base", "--is-ancestor", gsha, bsha, NULL });
	free(log);
	if (rc) {
		fprintf(stderr, "error: --range '%s': %s is not an ancestor of %s (GOOD..BAD: GOOD older, on BAD's history)\n",
			r, good, bad);
		return -1;
	}
	snprintf(range, sizeof(range), "%s..%s", gsha, bsha);
	rc = git(c->tree, &log, (const char *[]){ "log", "--reverse", "--first-parent",
						  "--format=%H%x09%s", range, NULL });
	for (char *p = log; !rc && p && *p; p++)
		n += *p == '\n';
	n += log && *log;
	if (rc || !n) {
		fprintf(stderr, "error: --range '%s': empty (no commit of %s on its first-parent line after %s)\n",
			r, bad, good);
		free(log);
		return -1;
	}
	if (n > MAX_COMMITS) {
		fprintf(stderr, "error: --range '%s': %d commits; a range has 1..%d\n", r, n, MAX_COMMITS);
		free(log);
		return -1;
	}
	/* step 1's parent must be GOOD: else GOOD is not on BAD's first-parent line */
	snprintf(spec, sizeof(spec), "%.40s^", log);
	if (git(c->tree, &parent, (const char *[]){ "rev-parse", "--verify", "--quiet", spec,
						   NULL }) || !parent || strcmp(parent, gsha)) {
		fprintf(stderr, "error: --range '%s': %s is not on %s's first-parent line (its first step %.12s has parent %.12s)\n",
			r, good, bad, log, parent && *parent ? parent : "none");
		free(parent);
		free(log);
		return -1;
	}
	free(parent);
	c->nsteps = n + 1;
	c->steps = calloc((size_t)c->nsteps, sizeof(*c->steps));
	c->head = json_pack("{s:s, s:s, s:s, s:s}", "kernel_tree", c->tree, "range", r, "good",
			    gsha, "bad", bsha);
	c->params = json_pack("{s:s, s:[]}", "kernel_tree", c->tree, "commits");
	if (!c->steps || !c->head || !c->params ||
	    git(c->tree, &first, (const char *[]){ "log", "-1", "--format=%H%x09%s", gsha, NULL }) ||
	    !first || add_step(c, k++, first))
		goto fail;
	for (char *l = strtok_r(log, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (k >= c->nsteps || add_step(c, k++, l))
			goto fail;
	if (k != c->nsteps)
		goto fail;
	for (k = 0; k < c->nsteps; k++)
		c->steps[k].name = c->names.v[k];
	free(first);
	free(log);
	return 0;
fail:
	fprintf(stderr, "error: --range '%s': cannot read its commits from %s\n", r, c->tree);
	free(first);
	free(log);
	return -1;
}

static int prepare(struct bs_ctx *c)
{
	(void)c;
	return 0;	/* OUT/tree is cloned at the first build: a resumed bisect may need none */
}

/* OUT/tree: the clone, with DIR/.config; made in OUT/tree.tmp and renamed. */
static int ensure_tree(struct bs_ctx *c)
{
	char tree[4200], tmp[4200], from[4200], to[4300], log[4200], *cfg;
	struct spawn_opts so = { .log = log, .null_stdin = true };
	size_t len;
	int rc;

	if (pathf(tree, sizeof(tree), "%s/tree", c->out) ||
	    pathf(from, sizeof(from), "%s/.git", tree))
		return -1;
	if (file_exists(from))
		return 0;
	if (pathf(tmp, sizeof(tmp), "%s/tree.tmp", c->out) ||
	    pathf(log, sizeof(log), "%s/tree.log", c->out))
		return -1;
	remove_tree(tmp);
	fprintf(stderr, "bisect: cloning %s into %s (--shared --no-checkout)\n", c->tree, tree);
	rc = spawn_run((char *[]){ "git", "clone", "-q", "--shared", "--no-checkout", c->tree, tmp,
				   NULL }, &so, NULL);
	snprintf(from, sizeof(from), "%s/.config", c->tree);
	snprintf(to, sizeof(to), "%s/.config", tmp);
	cfg = rc ? NULL : read_file(from, &len);
	if (rc || !cfg || write_file_atomic(to, cfg, len) || rename(tmp, tree)) {
		fprintf(stderr, "error: cannot make the build tree %s from %s (git clone exit %d; log: %s)\n",
			tree, c->tree, rc, log);
		free(cfg);
		return -1;
	}
	free(cfg);
	return 0;
}

static int step_paths(const struct bs_ctx *c, struct bs_step *s, char *dir, size_t n)
{
	return pathf(dir, n, "%s/steps/%d", c->out, s->k) ||
	       pathf(s->image, sizeof(s->image), "%s/bzImage", dir) ||
	       pathf(s->module, sizeof(s->module), "%s/kmod/htab_torture.ko", dir) ? -1 : 0;
}

/* OUT/steps/K/step.json of this commit, with its files: the step is built. */
static bool step_done(struct bs_step *s, const char *done)
{
	json_t *d = json_load_file(done, 0, NULL);
	const char *commit = json_string_value(json_object_get(d, "commit"));
	bool ok = commit && json_equal(json_object_get(d, "commit"), json_object_get(s->id, "commit")) &&
		  file_exists(s->image) && file_exists(s->module) &&
		  json_is_string(json_object_get(d, "release")) &&
		  json_is_string(json_object_get(d, "hash"));

	if (ok) {
		snprintf(s->release, sizeof(s->release), "%s",
			 json_string_value(json_object_get(d, "release")));
		snprintf(s->hash, sizeof(s->hash), "%s", json_string_value(json_object_get(d, "hash")));
	}
	json_decref(d);
	return ok;
}

static int build_step(struct bs_ctx *c, struct bs_step *s)
{
	char dir[4096], done[4200], tree[4200], step_sh[4200], jobs[16], *rel, txt[4200];
	const char *sha = json_string_value(json_object_get(s->id, "commit"));
	struct spawn_opts so = { .log = s->build_log, .null_stdin = true };
	double t0 = now_mono();
	long np = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t h = FNV1A64_INIT;
	int rc;

	if (s->built)
		return 0;
	if (step_paths(c, s, dir, sizeof(dir)) ||
	    pathf(done, sizeof(done), "%s/step.json", dir))
		return -1;
	if (step_done(s, done)) {
		s->built = true;
		return 0;
	}
	if (mkdir_p(dir)) {
		fprintf(stderr, "error: cannot make %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (ensure_tree(c))
		return -1;
	if (pathf(tree, sizeof(tree), "%s/tree", c->out) ||
	    pathf(step_sh, sizeof(step_sh), "%s/vm-images/build-git-step.sh", c->root) ||
	    pathf(s->build_log, sizeof(s->build_log), "%s/build.log", dir))
		return -1;
	snprintf(jobs, sizeof(jobs), "%d", np > 0 && np < 100000 ? (int)np : 1);
	fprintf(stderr, "bisect: step %d: building %s in %s (make -j%s; log %s)\n", s->k, s->name,
		tree, jobs, s->build_log);
	/* checkout, config, make, the module, the artefacts, under OUT/tree.lock */
	rc = spawn_run((char *[]){ step_sh, tree, (char *)sha, jobs, dir, NULL }, &so, NULL);
	rel = rc || pathf(txt, sizeof(txt), "%s/kernel.release", dir) ? NULL : read_file(txt, NULL);
	if (rc || !rel || !*rel || fnv1a64_file(s->image, &h)) {
		free(rel);
		if (!s->k) {
			fprintf(stderr, "error: step 0 (GOOD, %s) does not build: nothing to compare the steps with (exit %d; log: %s)\n",
				s->name, rc, s->build_log);
			return -1;
		}
		fprintf(stderr, "bisect: step %d (%s) does not build (exit %d; log: %s): UNDECIDED\n",
			s->k, s->name, rc, s->build_log);
		return 1;
	}
	snprintf(s->release, sizeof(s->release), "%.*s", (int)strcspn(rel, "\n"), rel);
	free(rel);
	snprintf(s->hash, sizeof(s->hash), "%012llx", (unsigned long long)(h & 0xffffffffffffULL));
	snprintf(txt, sizeof(txt), "{\"commit\": \"%s\", \"release\": \"%s\", \"hash\": \"%s\"}\n",
		 sha, s->release, s->hash);
	if (write_file_atomic(done, txt, strlen(txt))) {
		fprintf(stderr, "error: cannot write %s: %s\n", done, strerror(errno));
		return -1;
	}
	s->build_log[0] = '\0';
	fprintf(stderr, "bisect: step %d: kernel %s built (%s, %.1f s)\n", s->k, s->label,
		s->release, now_mono() - t0);
	s->built = true;
	return 0;
}

const struct bs_way bs_way_git_range = {
	.noun = "range",
	.read_steps = read_steps,
	.prepare = prepare,
	.build_step = build_step,
};
