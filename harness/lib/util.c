/* Small helpers shared by the harness: growable string lists, files, quoting. */
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int strv_push(struct strv *sv, const char *s)
{
	char *d;

	if (sv->n + 2 > sv->cap) {
		size_t cap = sv->cap ? sv->cap * 2 : 16;
		char **v = realloc(sv->v, cap * sizeof(*v));

		if (!v)
			return -1;
		sv->v = v;
		sv->cap = cap;
	}
	d = strdup(s);
	if (!d)
		return -1;
	sv->v[sv->n++] = d;
	sv->v[sv->n] = NULL;
	return 0;
}

int strv_pushf(struct strv *sv, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -1;
	r = strv_push(sv, s);
	free(s);
	return r;
}

void strv_free(struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->cap = 0;
}

int strv_split(struct strv *sv, const char *s, char sep)
{
	const char *p = s;

	for (;;) {
		const char *e = strchr(p, sep);
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *item;
		int r;

		if (len == 0)
			return -1;
		item = strndup(p, len);
		if (!item)
			return -1;
		r = strv_push(sv, item);
		free(item);
		if (r)
			return -1;
		if (!e)
			return 0;
		p = e + 1;
	}
}

char *read_file(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			char *nb;

			cap = cap ? cap * 2 : 8192;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
	char tmp[4096];
	int fd, err = -1;

	/* A name of this process's own: two runs may write one cache entry at once. */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return -1;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto cleanup;
		}
		data += n;
		len -= n;
	}
	if (fsync(fd))
		goto cleanup;
	if (close(fd)) {
		fd = -1;
		goto cleanup;
	}
	fd = -1;
	if (rename(tmp, path))
		goto cleanup;
	err = 0;
cleanup:
	if (fd >= 0)
		close(fd);
	if (err)
		unlink(tmp);
	return err;
}

int mkdir_p(const char *path)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

/* The start of the cut path in out names it; out is then emptied. */
static int vpathf(char *err, size_t en, char *out, size_t n, const char *fmt, va_list ap)
{
	int r = vsnprintf(out, n, fmt, ap);

	if (r >= 0 && (size_t)r < n)
		return 0;
	if (r >= 0) {
		if (err)
			snprintf(err, en, "path too long (over %zu bytes): %.64s...", n - 1, out);
		else
			fprintf(stderr, "error: path too long (over %zu bytes): %.64s...\n", n - 1, out);
		errno = ENAMETOOLONG;
	} else if (err) {
		snprintf(err, en, "cannot format a path: %s", strerror(errno));
	} else {
		fprintf(stderr, "error: cannot format a path: %s\n", strerror(errno));
	}
	if (n)
		out[0] = '\0';
	return -1;
}

int pathf(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vpathf(NULL, 0, out, n, fmt, ap);
	va_end(ap);
	return r;
}

int pathf_err(char *err, size_t en, char *out, size_t n, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vpathf(err, en, out, n, fmt, ap);
	va_end(ap);
	return r;
}

int fmt_cut(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;
	size_t end;
	int r;

	if (n == 0)
		return 1;
	va_start(ap, fmt);
	r = vsnprintf(out, n, fmt, ap);
	va_end(ap);
	if (r < 0) {
		out[0] = '\0';
		return 1;
	}
	if ((size_t)r < n)
		return 0;
	if (n < 4) {
		out[0] = '\0';
		return 1;
	}
	end = n - 4;
	while (end > 0 && ((unsigned char)out[end] & 0xc0) == 0x80)
		end--;
	memcpy(out + end, "...", 4);
	return 1;
}

bool file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

char *shell_quote(const char *s)
{
	size_t n = 3;
	char *out, *o;
	bool plain = *s != '\0';

	for (const char *p = s; *p; p++) {
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-+=/.,:@%", *p))
			plain = false;
		n += *p == '\'' ? 4 : 1;
	}
	if (plain)
		return strdup(s);
	out = o = malloc(n);
	if (!out)
		return NULL;
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

char *qemu_escape(const char *s)
{
	size_t n = strlen(s) + 1;
	char *out, *o;

	for (const char *p = s; *p; p++)
		n += *p == ',';
	out = o = malloc(n);
	if (!out)
		return NULL;
	for (const char *p = s; *p; p++) {
		*o++ = *p;
		if (*p == ',')
			*o++ = ',';
	}
	*o = '\0';
	return out;
}

double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return -1;
	while (empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

int self_exe(char *out, size_t n)
{
	ssize_t len = n ? readlink("/proc/self/exe", out, n - 1) : -1;

	if (len < 0)
		return -1;
	out[len] = '\0';
	return 0;
}

int repo_root(char *out, size_t n)
{
	char exe[PATH_MAX], *env = getenv("HTAB_ROOT");

	if (env && *env) {
		snprintf(out, n, "%s", env);
		return 0;
	}
	if (self_exe(exe, sizeof(exe)))
		return -1;
	/* <root>/harness/htab-torture: two dirname()s. */
	snprintf(out, n, "%s", dirname(dirname(exe)));
	return 0;
}
