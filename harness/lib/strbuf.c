/* A string that grows as it is appended to (see strbuf.h). */
#include "lib/strbuf.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for more bytes and a NUL after len; the failure sticks. */
static int grow(struct strbuf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 64;
	char *s;

	if (b->failed)
		return -1;
	while (cap - b->len <= more) {
		if (cap > SIZE_MAX / 2)
			goto fail;
		cap *= 2;
	}
	if (cap == b->cap)
		return 0;
	s = realloc(b->s, cap);
	if (!s)
		goto fail;
	if (!b->s)
		s[0] = '\0';
	b->s = s;
	b->cap = cap;
	return 0;
fail:
	b->failed = true;
	errno = ENOMEM;
	return -1;
}

int sb_vappendf(struct strbuf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int r;

	if (grow(b, 0))
		return -1;
	va_copy(aq, ap);
	r = vsnprintf(b->s + b->len, b->cap - b->len, fmt, aq);
	va_end(aq);
	if (r >= 0 && (size_t)r >= b->cap - b->len) {
		if (grow(b, r)) {
			b->s[b->len] = '\0';	/* what vsnprintf cut */
			return -1;
		}
		r = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	}
	if (r < 0) {
		b->s[b->len] = '\0';
		b->failed = true;
		return -1;
	}
	b->len += r;
	return 0;
}

int sb_appendf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = sb_vappendf(b, fmt, ap);
	va_end(ap);
	return r;
}

int sb_append(struct strbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (grow(b, n))
		return -1;
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
	return 0;
}

const char *sb_str(const struct strbuf *b)
{
	return b->s ? b->s : "";
}

char *sb_take(struct strbuf *b)
{
	char *s;

	if (!b->failed && grow(b, 0) == 0) {
		s = b->s;
		*b = (struct strbuf)STRBUF_INIT;
		return s;
	}
	sb_free(b);
	errno = ENOMEM;
	return NULL;
}

void sb_free(struct strbuf *b)
{
	free(b->s);
	*b = (struct strbuf)STRBUF_INIT;
}
