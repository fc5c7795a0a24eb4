/* Where a saved guest for --restore on is kept, and its key (see snapshot_key.h). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/fnv.h"
#include "run/plan/paths.h"
#include "run/plan/snapshot_key.h"

/* 2: saved stopped (snapshot.c migrate_to_file); a live-saved file may be torn. */
#define KEY_VERSION "htab-torture snapshot 2"

void snapshot_cache_dir(const char *root, char *out, size_t n)
{
	cache_dir(root, "HTAB_SNAPSHOT_CACHE", "snapshots", out, n);
}

/* A bare name is looked up in PATH, as execvp does. */
static int find_in_path(const char *name, char *out, size_t n)
{
	const char *path = getenv("PATH");
	char *dirs, *save = NULL;
	int rc = -1;

	if (strchr(name, '/')) {
		snprintf(out, n, "%s", name);
		return 0;
	}
	dirs = strdup(path ? path : "/usr/bin:/bin");
	for (char *d = dirs ? strtok_r(dirs, ":", &save) : NULL; d; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, n, "%s/%s", d, name);
		if (!access(out, X_OK)) {
			rc = 0;
			break;
		}
	}
	free(dirs);
	return rc;
}

int snapshot_files_id(const char *qemu, const char *image, const char *initrd, char *out, size_t n)
{
	uint64_t h = FNV1A64_INIT;
	char bin[PATH_MAX];

	if (find_in_path(qemu, bin, sizeof(bin)))
		return -1;
	for (const char *const *f = (const char *const[]){ image, initrd, bin, NULL }; *f; f++)
		if (fnv1a64_file(*f, &h))
			return -1;
	snprintf(out, n, "%016llx", (unsigned long long)h);
	return 0;
}

char *snapshot_key(const struct qemu_cfg *q0, const char *files_id)
{
	struct qemu_cfg q = *q0;
	struct strv a = { 0 };
	size_t len = strlen(KEY_VERSION) + strlen(files_id) + 3;
	char *key = NULL;

	/* What differs between boots of one guest: not part of what it is. */
	q.restore = QR_RESTORE;
	q.cell_dir = q.log_dir = "-";
	q.group = NULL;
	if (qemu_argv_build(&q, &a))
		goto out;
	for (size_t i = 0; i < a.n; i++)
		len += strlen(a.v[i]) + 1;
	key = malloc(len);
	if (!key)
		goto out;
	len = (size_t)sprintf(key, "%s\n%s\n", KEY_VERSION, files_id);
	for (size_t i = 0; i < a.n; i++)
		len += (size_t)sprintf(key + len, "%s\n", a.v[i]);
out:
	strv_free(&a);
	return key;
}

void snapshot_dir_of(const char *cache, const char *key, char *out, size_t n)
{
	uint64_t h = fnv1a64(FNV1A64_INIT, key, strlen(key));

	snprintf(out, n, "%s/%016llx", cache, (unsigned long long)h);
}

bool snapshot_valid(const char *dir, const char *key)
{
	char p[PATH_MAX + 16], *text;
	bool ok;

	snprintf(p, sizeof(p), "%s/key", dir);
	text = read_file(p, NULL);
	ok = text && !strcmp(text, key);
	free(text);
	snprintf(p, sizeof(p), "%s/state", dir);
	return ok && file_exists(p);
}

