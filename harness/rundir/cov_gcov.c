/*
 * .gcda files → per-line counts, through Debian's gcov (the gcc that built
 * the kernel's: gcc 12 on Debian 12, whose gcov writes format_version 1
 * JSON). Each .gcda is staged beside its .gcno from the tree, so gcov sees
 * the pair it expects and the tree is never written to.
 */
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/spawn.h"
#include "lib/util.h"
#include "rundir/coverage.h"

char *cov_map_to_tree(const char *rel, const char *kdir)
{
	size_t len = strlen(rel);
	char path[PATH_MAX];

	if (len < 5 || strcmp(rel + len - 5, ".gcda"))
		return NULL;
	/* Longest first: rel itself, then without its leading components. */
	for (const char *s = rel; s; s = strchr(s, '/')) {
		while (*s == '/')
			s++;
		if (!*s)
			break;
		snprintf(path, sizeof(path), "%s/%.*s.gcno", kdir, (int)(rel + len - 5 - s), s);
		if (file_exists(path))
			return strndup(s, (size_t)(rel + len - 5 - s));
	}
	return NULL;
}

static struct strv found;	/* nftw has no user pointer */

static int collect(const char *p, const struct stat *st, int type, struct FTW *ftw)
{
	size_t n = strlen(p);

	(void)st;
	(void)ftw;
	if (type == FTW_F && n > 5 && !strcmp(p + n - 5, ".gcda"))
		return strv_push(&found, p);
	return 0;
}

static int copy(const char *from, const char *to)
{
	size_t n;
	char *d = read_file(from, &n);
	int err = d ? write_file_atomic(to, d, n) : -1;

	free(d);
	return err;
}

/* The line counts of one file entry of gcov's JSON. */
static int take_lines(json_t *lines, struct cov_file *f)
{
	size_t i, k;
	json_t *l, *b;

	f->lines = calloc(json_array_size(lines) + 1, sizeof(*f->lines));
	if (!f->lines)
		return -1;
	json_array_foreach(lines, i, l) {
		struct cov_line *cl = &f->lines[f->nlines++];
		json_t *br = json_object_get(l, "branches");

		cl->line = (int)json_integer_value(json_object_get(l, "line_number"));
		cl->count = json_integer_value(json_object_get(l, "count"));
		cl->br = calloc(json_array_size(br) + 1, sizeof(*cl->br));
		if (!cl->br)
			return -1;
		json_array_foreach(br, k, b)
			cl->br[cl->nbr++] = json_integer_value(json_object_get(b, "count"));
	}
	return 0;
}

/* Out-of-line copies' entry counts; gcov lists no function that was only inlined. */
static void take_calls(json_t *funcs, struct cov_file *f)
{
	size_t i;
	json_t *fn;

	json_array_foreach(funcs, i, fn) {
		const char *name = json_string_value(json_object_get(fn, "name"));

		for (size_t j = 0; name && j < f->nfuncs; j++)
			if (!strcmp(f->funcs[j].name, name))
				f->funcs[j].calls = json_integer_value(json_object_get(fn, "execution_count"));
	}
}

/* gcov's JSON of one source: the entry of that source (not the headers it inlined). */
static int parse_gcov(const char *out, const char *base, struct cov_file *f,
		      char *err, size_t errn)
{
	json_error_t je;
	json_t *root = json_loads(out, 0, &je), *file, *want = NULL;
	size_t i;
	int rc = -1;

	if (!root) {
		snprintf(err, errn, "gcov's JSON for %s: %s (line %d)", f->path, je.text, je.line);
		return -1;
	}
	json_array_foreach(json_object_get(root, "files"), i, file) {
		const char *p = json_string_value(json_object_get(file, "file"));
		const char *slash = p ? strrchr(p, '/') : NULL;

		if (p && !strcmp(slash ? slash + 1 : p, base))
			want = file;
	}
	if (!want)
		snprintf(err, errn, "gcov's JSON for %s has no entry for %s", f->path, base);
	else if (take_lines(json_object_get(want, "lines"), f))
		snprintf(err, errn, "out of memory");
	else
		rc = 0;
	if (!rc)
		take_calls(json_object_get(want, "functions"), f);
	json_decref(root);
	return rc;
}

/*
 * What gcov says when its figures would be wrong though it may exit 0 (a
 * missing data file reads as "not executed"); other stderr lines (e.g. arcs
 * warnings) leave the counts good.
 */
static const char *const gcov_failures[] = {
	"mismatch", "cannot open", "not a gcov", "corrupt", "version", NULL,
};

/* The first line of gcov's stderr into out; true when it says a failure. */
static bool gcov_failed(const char *log, char *out, size_t n)
{
	char *t = read_file(log, NULL), *nl;
	bool failed = false;

	snprintf(out, n, "%s", t && *t ? t : "no message");
	if ((nl = strchr(out, '\n')))
		*nl = 0;
	for (const char *const *w = gcov_failures; t && *w && !failed; w++)
		failed = strstr(t, *w) != NULL;
	free(t);
	return failed;
}

/* One .gcda (gcda: its path; obj: its tree-relative object without suffix). */
static int one_gcda(const char *gcda, const char *obj, const char *kdir, const char *stage,
		    struct cov_set *s, char *err, size_t errn)
{
	char dir[PATH_MAX], from[PATH_MAX], to[PATH_MAX], src[PATH_MAX], log[PATH_MAX + 16];
	char base[NAME_MAX + 1], msg[256], *out = NULL, tmp[PATH_MAX];
	struct spawn_opts so = { .dir = dir, .log = log, .null_stdin = true };
	struct cov_file *f;
	int rc;

	snprintf(tmp, sizeof(tmp), "%s", obj);
	snprintf(base, sizeof(base), "%s.c", basename(tmp));
	snprintf(tmp, sizeof(tmp), "%s", obj);
	snprintf(dir, sizeof(dir), "%s/%s", stage, dirname(tmp));
	snprintf(src, sizeof(src), "%s/%s.c", kdir, obj);
	snprintf(log, sizeof(log), "%s/gcov.err", dir);
	snprintf(from, sizeof(from), "%s/%s.gcno", kdir, obj);
	snprintf(to, sizeof(to), "%s/%s.gcno", stage, obj);
	if (mkdir_p(dir) || copy(from, to) || (snprintf(to, sizeof(to), "%s/%s.gcda", stage, obj),
					       copy(gcda, to))) {
		snprintf(err, errn, "cannot stage %s in %s: %s", gcda, dir, strerror(errno));
		return -1;
	}
	f = cov_set_add(s, src + strlen(kdir) + 1);
	if (!f) {
		snprintf(err, errn, "out of memory");
		return -1;
	}
	if (cov_func_ranges(src, f, err, errn))
		return -1;
	{
		char *argv[] = { "gcov", "--json-format", "--stdout", "--branch-probabilities",
				 "-o", ".", base, NULL };

		rc = spawn_run(argv, &so, &out);
	}
	if (gcov_failed(log, msg, sizeof(msg)) || rc || !out)
		snprintf(err, errn, "gcov failed on %s (exit %d): %s", gcda, rc, msg);
	else
		rc = parse_gcov(out, base, f, err, errn) ? -1 : 0;
	free(out);
	if (rc)
		return -1;
	cov_tally(f);
	return 0;
}

int cov_from_gcda(const char *snap_dir, const char *kdir, const char *stage,
		  struct cov_set *s, char *err, size_t errn)
{
	size_t root = strlen(snap_dir);
	int rc = 0;

	strv_free(&found);
	if (nftw(snap_dir, collect, 16, FTW_PHYS)) {
		snprintf(err, errn, "cannot read %s: %s", snap_dir, strerror(errno));
		return -1;
	}
	if (!found.n) {
		snprintf(err, errn, "no .gcda file under %s", snap_dir);
		rc = -1;
	}
	for (size_t i = 0; i < found.n && !rc; i++) {
		char *obj = cov_map_to_tree(found.v[i] + root, kdir);

		if (!obj) {
			snprintf(err, errn, "%s: no .gcno for it in %s (no suffix of its path matches)",
				 found.v[i], kdir);
			rc = -1;
		} else {
			rc = one_gcda(found.v[i], obj, kdir, stage, s, err, errn);
		}
		free(obj);
	}
	strv_free(&found);
	return rc;
}
