/* getopt_long tables and --help from one option table (see opts.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/opts.h"

#define HELP_COL 26

void opts_long(struct option *out, const struct opt_spec *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (struct option){ s[i].name, s[i].arg ? required_argument : no_argument,
					  NULL, s[i].code };
	out[n] = (struct option){ 0 };
}

void opts_names(char *buf, size_t size, const struct opt_spec *s, size_t n)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += snprintf(buf + len, size - len, "%s--%s", i ? ", " : "", s[i].name);
}

void opts_help(FILE *f, const struct opt_spec *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int w;

		if (!i || strcmp(s[i].group, s[i - 1].group))
			fprintf(f, "%s%s:\n", i ? "\n" : "", s[i].group);
		w = fprintf(f, "  --%s%s%s", s[i].name, s[i].arg ? " " : "", s[i].arg ? s[i].arg : "");
		fprintf(f, "%*s", w < HELP_COL ? HELP_COL - w : 1, "");
		for (const char *h = s[i].help; *h; h++) {
			fputc(*h, f);
			if (*h == '\n')
				fprintf(f, "%*s", HELP_COL + 2, "");
		}
		fputc('\n', f);
	}
}

int opts_fraction(const char *name, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0 && v < 1)) {
		fprintf(stderr, "error: --%s '%s': must be a number between 0 and 1\n", name, s);
		return -1;
	}
	*out = v;
	return 0;
}
