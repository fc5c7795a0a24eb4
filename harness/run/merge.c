/*
 * `htab-torture merge OUT DIR...`: shards of one plan (`run --shard i/n`, on
 * any number of hosts) become one run directory that `report` and `compare`
 * read like any other: the cell directories copied side by side, one
 * manifest.json (the whole plan, no shard), one summary.json. Refused, with
 * the reason, when the plans or their parameters differ or a cell finished
 * in more than one input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundir/manifest.h"
#include "run/merge.h"
#include "rundir/summary.h"
#include "lib/spawn.h"
#include "run/guest/boot.h"
#include "lib/util.h"

static void merge_usage(FILE *f)
{
	fputs("usage: htab-torture merge OUT DIR...\n"
	      "  Joins run directories of the same plan (the shards of `run --shard I/N`) into OUT\n"
	      "  (new or empty): cell directories, manifest.json, summary.json.\n"
	      "exit status: 0 merged, 2 usage error or the inputs do not belong together\n", f);
}

static bool cell_done(const char *dir, const char *id)
{
	char p[8192];

	snprintf(p, sizeof(p), "%s/%s/cell.json", dir, id);
	return file_exists(p);
}

/* Same params and the same list of cells (shard aside): one plan. */
static int same_plan(json_t *a, const char *da, json_t *b, const char *db)
{
	json_t *ca = json_object_get(a, "cells"), *cb = json_object_get(b, "cells");
	size_t i;
	json_t *c;

	if (!json_equal(json_object_get(a, "params"), json_object_get(b, "params"))) {
		fprintf(stderr, "error: %s and %s ran with different parameters (duration, accel, kernels, bpftrace or module parameters); not one plan\n",
			da, db);
		return -1;
	}
	if (json_array_size(ca) != json_array_size(cb)) {
		fprintf(stderr, "error: %s plans %zu cells, %s plans %zu; not one plan\n", da,
			json_array_size(ca), db, json_array_size(cb));
		return -1;
	}
	json_array_foreach(ca, i, c) {
		json_t *o = json_array_get(cb, i);

		if (!json_equal(json_object_get(c, "id"), json_object_get(o, "id"))) {
			fprintf(stderr, "error: cell %zu of the plan is %s in %s but %s in %s; not one plan\n",
				i, json_string_value(json_object_get(c, "id")), da,
				json_string_value(json_object_get(o, "id")), db);
			return -1;
		}
	}
	return 0;
}

static int copy_dir(const char *src, const char *dst)
{
	return spawn_run((char *[]){ "cp", "-a", "--", (char *)src, (char *)dst, NULL }, NULL,
			 NULL) ? -1 : 0;
}

static int check_out(const char *out)
{
	struct stat st;

	if (stat(out, &st) == 0) {
		int e = dir_is_empty(out);

		if (e < 0) {
			fprintf(stderr, "error: OUT %s: cannot list it\n", out);
			return -1;
		}
		if (!e) {
			fprintf(stderr, "error: OUT %s exists and is not empty\n", out);
			return -1;
		}
	}
	if (mkdir_p(out)) {
		fprintf(stderr, "error: OUT %s: %s\n", out, strerror(errno));
		return -1;
	}
	return 0;
}

/* Which input holds each finished cell; -1 when two do. */
static int owners(json_t *plan, char **dirs, int ndirs, int *owner)
{
	size_t i;
	json_t *c;

	json_array_foreach(json_object_get(plan, "cells"), i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));

		owner[i] = -1;
		for (int d = 0; d < ndirs; d++) {
			if (!cell_done(dirs[d], id))
				continue;
			if (owner[i] >= 0) {
				fprintf(stderr, "error: cell %s finished in both %s and %s; remove one before merging\n",
					id, dirs[owner[i]], dirs[d]);
				return -1;
			}
			owner[i] = d;
		}
	}
	return 0;
}

static int do_merge(const char *out, char **dirs, int ndirs)
{
	json_t **m = calloc(ndirs, sizeof(*m)), *cells = NULL, *c, *from = json_array(),
	       *missing = json_array(), *merged = NULL;
	int *owner = NULL, rc = 2;
	size_t i, ncopied = 0;
	char err[4096];

	for (int d = 0; d < ndirs; d++) {
		if (!(m[d] = manifest_load(dirs[d], err, sizeof(err)))) {
			fprintf(stderr, "error: %s\n", err);
			goto cleanup;
		}
		if (d && same_plan(m[0], dirs[0], m[d], dirs[d]))
			goto cleanup;
		json_array_append_new(from, json_pack("{s:s, s:O}", "dir", dirs[d], "shard",
						      json_object_get(m[d], "shard")));
	}
	owner = calloc(json_array_size(json_object_get(m[0], "cells")) + 1, sizeof(*owner));
	if (!owner || owners(m[0], dirs, ndirs, owner) || check_out(out))
		goto cleanup;
	json_array_foreach(json_object_get(m[0], "cells"), i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));
		char src[8192];

		if (owner[i] < 0) {
			json_array_append_new(missing, json_string(id));
			continue;
		}
		snprintf(src, sizeof(src), "%s/%s", dirs[owner[i]], id);
		if (copy_dir(src, out)) {
			fprintf(stderr, "error: cannot copy %s into %s\n", src, out);
			goto cleanup;
		}
		ncopied++;
	}
	/* The shards' shared boots (consoles, commands) go along: their names are their cells'. */
	for (int d = 0; d < ndirs; d++) {
		char src[8192], dst[8192];

		snprintf(src, sizeof(src), "%s/" BOOTS_DIR "/.", dirs[d]);
		snprintf(dst, sizeof(dst), "%s/" BOOTS_DIR, out);
		if (file_exists(src) && (mkdir_p(dst) || copy_dir(src, dst))) {
			fprintf(stderr, "error: cannot copy %s into %s\n", src, dst);
			goto cleanup;
		}
	}
	merged = json_deep_copy(m[0]);
	json_object_set_new(merged, "shard", json_null());
	json_object_set(merged, "merged_from", from);
	json_object_set(merged, "missing_cells", missing);
	if (manifest_write(out, merged)) {
		fprintf(stderr, "error: cannot write %s/manifest.json\n", out);
		goto cleanup;
	}
	cells = summary_collect(out, merged);
	if (summary_write(out, cells))
		goto cleanup;
	printf("merged %zu cells from %d directories into %s", ncopied, ndirs, out);
	if (json_array_size(missing))
		printf("; %zu cells of the plan never finished (manifest.json: missing_cells)",
		       json_array_size(missing));
	printf("\n");
	rc = 0;
cleanup:
	for (int d = 0; d < ndirs; d++)
		json_decref(m[d]);
	free(m);
	free(owner);
	json_decref(cells);
	json_decref(from);
	json_decref(missing);
	json_decref(merged);
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		merge_usage(stdout);
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "error: merge needs OUT and at least one run directory (see --help)\n");
		return 2;
	}
	for (int i = 2; i < argc; i++)
		for (int k = 2; k < i; k++)
			if (!strcmp(argv[i], argv[k])) {
				fprintf(stderr, "error: %s given twice\n", argv[i]);
				return 2;
			}
	return do_merge(argv[1], argv + 2, argc - 2);
}
