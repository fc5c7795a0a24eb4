/* Small helpers shared by the harness: growable string lists, files, quoting. */
#ifndef HT_UTIL_H
#define HT_UTIL_H
#include <stdbool.h>
#include <stddef.h>

struct strv {
	char **v;	/* NULL-terminated */
	size_t n, cap;
};

int strv_push(struct strv *sv, const char *s);
int strv_pushf(struct strv *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strv_free(struct strv *sv);
/* Split "a,b,c" into sv; empty items are an error (returns -1). */
int strv_split(struct strv *sv, const char *s, char sep);

/* Whole file into a NUL-terminated malloc'd buffer; NULL + errno on error. */
char *read_file(const char *path, size_t *len);
/* Write via PATH.tmp.PID + rename: readers never see half a file, and two
 * writers of one path each rename a whole file of their own. */
int write_file_atomic(const char *path, const char *data, size_t len);
int mkdir_p(const char *path);
/*
 * snprintf for a path that must not be cut: 0, or -1 with errno ENAMETOOLONG
 * when it needs n bytes or more. Then out is "" and the error, naming the
 * path's start and the limit, goes to err[en] (pathf_err) or to stderr
 * as "error: ..." (pathf).
 */
int pathf(char *out, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int pathf_err(char *err, size_t en, char *out, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/*
 * snprintf for a bounded one-line text (a reason, a signature) that is cut
 * on purpose when it does not fit: the cut shows as "..." at the end, on a
 * UTF-8 character boundary. 1 when cut, 0 when whole.
 */
int fmt_cut(char *out, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool file_exists(const char *path);
/* This program's path (/proc/self/exe); 0 ok. */
int self_exe(char *out, size_t n);
/* The kit's checkout from /proc/self/exe (harness/htab-torture -> ..); HTAB_ROOT overrides. */
int repo_root(char *out, size_t n);
/* rm -rf without a shell (nftw, depth first, symlinks not followed); 0 when gone. */
int remove_tree(const char *path);
/* 1 empty, 0 not, -1 unreadable (errno set). */
int dir_is_empty(const char *path);
/* Shell-quote one word for display ('…' with '\'' for quotes). */
char *shell_quote(const char *s);
/* QEMU option values double a comma to escape it. */
char *qemu_escape(const char *s);
double now_mono(void);
#endif
