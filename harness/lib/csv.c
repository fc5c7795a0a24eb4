/* CSV fields and rows with RFC 4180 quoting. */
#include "lib/csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool csv_needs_quotes(const char *s)
{
	size_t len;

	if (!s || !*s)
		return false;
	len = strlen(s);
	if (s[0] == ' ' || s[len - 1] == ' ')
		return true;
	return strpbrk(s, ",\"\r\n") != NULL;
}

char *csv_escape(const char *s)
{
	size_t n = 3;
	char *out, *o;

	if (!s)
		s = "";
	if (!csv_needs_quotes(s))
		return strdup(s);
	for (const char *p = s; *p; p++)
		n += *p == '"' ? 2 : 1;
	out = malloc(n);
	if (!out)
		return NULL;
	o = out;
	*o++ = '"';
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			*o++ = '"';
		*o++ = *p;
	}
	*o++ = '"';
	*o = '\0';
	return out;
}

void csv_init(struct csv *c, FILE *f)
{
	c->f = f;
	c->col = 0;
}

static void sep(struct csv *c)
{
	if (c->col++)
		fputc(',', c->f);
}

void csv_str(struct csv *c, const char *s)
{
	char *e = csv_escape(s);

	sep(c);
	if (e)
		fputs(e, c->f);
	free(e);
}

void csv_num(struct csv *c, double v, const char *fmt)
{
	sep(c);
	if (isfinite(v))
		fprintf(c->f, fmt, v);
}

void csv_int(struct csv *c, long long v)
{
	sep(c);
	fprintf(c->f, "%lld", v);
}

void csv_end_row(struct csv *c)
{
	fputc('\n', c->f);
	c->col = 0;
}
