/*
 * A cell's coverage files: CELL/coverage.json (every snapshot the guest
 * copied under CELL/gcov/) and CELL/coverage-<snapshot>.info, lcov's
 * tracefile of the same .gcda files (branch coverage on) for genhtml.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/spawn.h"
#include "lib/util.h"
#include "rundir/coverage.h"

/* The line of a tool's log that says what went wrong: its ERROR line, else the last one. */
static void tool_message(const char *log, char *out, size_t n)
{
	char *t = read_file(log, NULL), *line, *save = NULL, *pick = NULL;

	for (line = t ? strtok_r(t, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
		if (!pick || !strstr(pick, "ERROR"))
			pick = line;
	snprintf(out, n, "%s", pick ? pick : "no message");
	free(t);
}

/*
 * lcov's tracefile of the staged files, only the sources s covers (not the
 * headers they inline, which genhtml would annotate too).
 */
static int lcov_capture(const char *stage, const char *kdir, const struct cov_set *s,
			const char *info, const char *log, char *err, size_t errn)
{
	struct strv argv = { 0 };
	struct spawn_opts so = { .log = log, .null_stdin = true };
	char msg[300];
	int rc;

	strv_push(&argv, "lcov");
	strv_push(&argv, "--capture");
	strv_push(&argv, "--quiet");
	strv_push(&argv, "--directory");
	strv_push(&argv, stage);
	strv_push(&argv, "--base-directory");
	strv_push(&argv, kdir);
	strv_push(&argv, "--rc");
	strv_push(&argv, "lcov_branch_coverage=1");
	for (size_t i = 0; i < s->n; i++) {
		strv_push(&argv, "--include");
		strv_pushf(&argv, "*/%s", s->files[i].path);
	}
	strv_push(&argv, "--output-file");
	strv_push(&argv, info);
	rc = spawn_run(argv.v, &so, NULL);
	strv_free(&argv);
	if (!rc)
		return 0;
	tool_message(log, msg, sizeof(msg));
	snprintf(err, errn, "lcov --capture failed on %s (exit %d): %s", stage, rc, msg);
	return -1;
}

/* Snapshot directories under CELL/gcov, sorted. */
static int snapshots(const char *gcov, struct strv *names)
{
	DIR *d = opendir(gcov);
	struct dirent *e;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && e->d_type == DT_DIR)
			strv_push(names, e->d_name);
	closedir(d);
	for (size_t i = 1; i < names->n; i++)
		for (size_t j = i; j > 0 && strcmp(names->v[j - 1], names->v[j]) > 0; j--) {
			char *t = names->v[j];

			names->v[j] = names->v[j - 1];
			names->v[j - 1] = t;
		}
	return 0;
}

static int one_snapshot(const char *cell_dir, const char *kdir, const char *name,
			const char *tmp, json_t *snaps, json_t **figures, char *err, size_t errn)
{
	char dir[PATH_MAX], stage[PATH_MAX], info[PATH_MAX], log[PATH_MAX], base[NAME_MAX + 16];
	struct cov_set s = { 0 };
	int rc;

	if (pathf_err(err, errn, dir, sizeof(dir), "%s/%s/%s", cell_dir, COV_DIR, name) ||
	    pathf_err(err, errn, stage, sizeof(stage), "%s/%s", tmp, name) ||
	    pathf_err(err, errn, base, sizeof(base), "coverage-%s.info", name) ||
	    pathf_err(err, errn, info, sizeof(info), "%s/%s", cell_dir, base) ||
	    pathf_err(err, errn, log, sizeof(log), "%s/lcov-%s.log", tmp, name))
		return -1;
	rc = cov_from_gcda(dir, kdir, stage, &s, err, errn);
	if (!rc)
		rc = lcov_capture(stage, kdir, &s, info, log, err, errn);
	if (!rc) {
		json_object_set_new(snaps, name, json_pack("{s:s, s:o}", "lcov", base,
							    "files", cov_set_json(&s)));
		if (figures && !strcmp(name, COV_MAIN_SNAPSHOT))
			*figures = cov_figures(&s, kdir);
	}
	cov_set_free(&s);
	return rc;
}

int cov_cell_write(const char *cell_dir, const char *kdir, const char *kernel,
		   json_t **figures, char *err, size_t errn)
{
	char gcov[PATH_MAX], tmp[PATH_MAX], path[PATH_MAX], *dump = NULL;
	const char *td = getenv("TMPDIR");
	struct strv names = { 0 };
	json_t *snaps = json_object(), *root;
	int rc = 0;

	if (figures)
		*figures = NULL;
	snprintf(gcov, sizeof(gcov), "%s/%s", cell_dir, COV_DIR);
	snprintf(tmp, sizeof(tmp), "%s/htab-cov-XXXXXX", td && *td ? td : "/tmp");
	if (!kdir || !*kdir) {
		snprintf(err, errn, "%s: no kernel tree to read .gcno files from", gcov);
		rc = -1;
	} else if (snapshots(gcov, &names) || !names.n) {
		snprintf(err, errn, "%s: no snapshot directory", gcov);
		rc = -1;
	} else if (!mkdtemp(tmp)) {
		snprintf(err, errn, "cannot create %s: %s", tmp, strerror(errno));
		rc = -1;
	}
	for (size_t i = 0; i < names.n && !rc; i++)
		rc = one_snapshot(cell_dir, kdir, names.v[i], tmp, snaps, figures, err, errn);
	if (!rc && figures && !*figures)
		*figures = cov_figures(NULL, kdir);	/* no workload snapshot: nulls, said so */
	root = json_pack("{s:s, s:s, s:s, s:O}", "kernel", kernel ? kernel : "?", "tree",
			 kdir ? kdir : "", "main_snapshot", COV_MAIN_SNAPSHOT, "snapshots", snaps);
	if (!rc) {
		snprintf(path, sizeof(path), "%s/%s", cell_dir, COV_JSON);
		dump = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
		if (!dump || write_file_atomic(path, dump, strlen(dump))) {
			snprintf(err, errn, "cannot write %s", path);
			rc = -1;
		}
	}
	if (strcmp(tmp + strlen(tmp) - 6, "XXXXXX"))
		remove_tree(tmp);
	free(dump);
	json_decref(root);
	json_decref(snaps);
	strv_free(&names);
	if (rc && figures) {
		json_decref(*figures);
		*figures = NULL;
	}
	return rc;
}

int cov_cell_load(const char *cell_dir, const char *snapshot, struct cov_set *s)
{
	char path[PATH_MAX];
	json_t *root, *files;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", cell_dir, COV_JSON);
	root = json_load_file(path, 0, NULL);
	files = json_object_get(json_object_get(json_object_get(root, "snapshots"), snapshot),
				"files");
	rc = files ? cov_set_from_json(files, s) : -1;
	json_decref(root);
	return rc;
}
