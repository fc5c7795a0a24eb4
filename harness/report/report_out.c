/* Small things every report writer needs: in-memory files, %change, notes. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlstring.h>

#include "report/report_out.h"
#include "lib/util.h"

FILE *rep_mem_open(char **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	return open_memstream(buf, len);
}

int rep_mem_commit(FILE *f, char **buf, size_t *len, const char *path)
{
	int err = ferror(f);

	if (fclose(f) || err || write_file_atomic(path, *buf, *len)) {
		fprintf(stderr, "error: cannot write %s\n", path);
		free(*buf);
		return -1;
	}
	free(*buf);
	return 0;
}

double rep_pct_change(double a, double b)
{
	if (!isfinite(a) || !isfinite(b) || a == 0)
		return NAN;
	return (b - a) / a * 100.0;
}

size_t rep_ops(const struct rep_run *r, const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		for (size_t j = 0; j < r->cells[i].nlat; j++) {
			const char *op = r->cells[i].lat[j].name;
			size_t k;

			for (k = 0; k < n && strcmp(out[k], op); k++)
				;
			if (k == n && n < max)
				out[n++] = op;
		}
	return n;
}

enum rep_outcome rep_cell_outcome(const struct rep_cell *c)
{
	if (!strcmp(c->verdict, "PASS"))
		return REP_PASSED;
	if (!strcmp(c->verdict, "FAIL"))
		return REP_FAILED;
	if (!strcmp(c->verdict, "SKIP"))
		return REP_SKIPPED;
	return REP_ERROR;
}

static void append(char **acc, const char *label, const char *s)
{
	char *n;

	if (!s || !*s)
		return;
	if (asprintf(&n, "%s%s%s%s", *acc ? *acc : "", *acc ? "; " : "", label, s) < 0)
		return;
	free(*acc);
	*acc = n;
}

char *rep_cell_notes(const struct rep_cell *c)
{
	char *acc = NULL;

	append(&acc, "", c->signature);
	append(&acc, "", c->reason);
	if (!c->has_cell_json && c->dir)
		append(&acc, "", "no cell.json (the harness never finished this cell)");
	if (!c->dir)
		append(&acc, "", "cell directory missing");
	append(&acc, "module.json: ", c->module_note);
	if (c->dir && !c->has_module && !c->module_note && !rep_verdict_bad(c->verdict) &&
	    strcmp(c->verdict, "SKIP"))
		append(&acc, "", "no module.json");
	if (c->module_result && strcmp(c->module_result, "SUCCESS"))
		append(&acc, "module result: ", c->module_result);
	append(&acc, "bpftrace: ", c->bt_note);
	if (c->e2big_not_full > 0) {
		char n[32];

		snprintf(n, sizeof(n), "%lld", (long long)c->e2big_not_full);
		append(&acc, "e2big_not_full ", n);
	}
	return acc;
}

/* XML 1.0's Char production: what a document may hold at all. */
static bool xml_char(int c)
{
	return c == 0x9 || c == 0xa || c == 0xd || (c >= 0x20 && c <= 0xd7ff) ||
	       (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

char *rep_text_safe(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *out = malloc(n + 1);

	if (!out)
		return NULL;
	while (*s) {
		int len = (int)strnlen(s, 4);
		int c = xmlGetUTF8Char((const xmlChar *)s, &len);

		if (c < 0 || !xml_char(c)) {
			out[o++] = '?';
			s++;
			continue;
		}
		memcpy(out + o, s, len);
		o += len;
		s += len;
	}
	out[o] = '\0';
	return out;
}

void rep_html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}
