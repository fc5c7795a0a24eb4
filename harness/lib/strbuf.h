/*
 * A string that grows as it is appended to, for text of no fixed bound
 * (reports, command lines). An allocation failure sticks: later appends do
 * nothing and sb_take says so, so a caller checks once, at the end.
 */
#ifndef HT_STRBUF_H
#define HT_STRBUF_H
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *s;	/* NUL-terminated; NULL before the first append */
	size_t len, cap;
	bool failed;	/* an allocation failed: s holds what was appended before */
};

#define STRBUF_INIT { 0 }

/* 0, or -1 (errno ENOMEM, or vsnprintf's) with b->failed set. */
int sb_append(struct strbuf *b, const char *s);
int sb_appendf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int sb_vappendf(struct strbuf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* The text so far ("" when nothing was appended); b keeps it. */
const char *sb_str(const struct strbuf *b);
/* The text, the caller's to free, and b empty again; NULL (errno ENOMEM) if b->failed. */
char *sb_take(struct strbuf *b);
void sb_free(struct strbuf *b);
#endif
