/*
 * Which function a counted line belongs to. gcov 12 lists only functions
 * with an out-of-line copy (its "functions"), and the lines of a static
 * function that was inlined (___pcpu_freelist_pop, ___pcpu_freelist_push,
 * the _nmi variants) carry no function name: their counts are in the lines
 * but nothing ties them to a function. So a function is the range of its
 * definition in the source, found the way kernel style writes one: the
 * name line at column 0 (identifier before the first '('), a '{' alone at
 * column 0, the body, a '}' at column 0. Every function then has its own
 * row whether or not the compiler kept it, and the counts of all its copies
 * (gcov adds them per line) are its counts.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "rundir/coverage.h"

/*
 * The identifier before the first '(' of a column-0 line that is not an
 * __attribute__((…)) (`__attribute__((noinline)) int f(`), or NULL.
 */
static char *def_name(const char *l, size_t len)
{
	const char *end = l + len, *p = l, *e, *b;

	if (!(isalpha((unsigned char)l[0]) || l[0] == '_'))
		return NULL;
	while (len && isspace((unsigned char)l[len - 1]))
		len--;
	if (len && l[len - 1] == ';')
		return NULL;	/* a declaration or a macro use, not a definition */
	while ((p = memchr(p, '(', (size_t)(end - p)))) {
		int depth = 0;

		for (e = p; e > l && isspace((unsigned char)e[-1]); e--)
			;
		for (b = e; b > l && (isalnum((unsigned char)b[-1]) || b[-1] == '_'); b--)
			;
		if (b == e)
			return NULL;
		if (strncmp(b, "__attribute", 11))
			return strndup(b, (size_t)(e - b));
		do	/* past the attribute's parentheses */
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		while (++p < end && depth);
	}
	return NULL;
}

static int push(struct cov_file *f, char *name, int start, int end)
{
	struct cov_func *n = realloc(f->funcs, (f->nfuncs + 1) * sizeof(*n));

	if (!n)
		return -1;
	f->funcs = n;
	n[f->nfuncs++] = (struct cov_func){ .name = name, .start = start, .end = end, .calls = -1 };
	return 0;
}

int cov_func_ranges(const char *src, struct cov_file *f, char *err, size_t errn)
{
	char *text = read_file(src, NULL), *l, *next, *cand = NULL;
	int lineno = 0, cand_line = 0, start = 0;
	bool body = false;

	if (!text) {
		snprintf(err, errn, "cannot read %s: %s", src, strerror(errno));
		return -1;
	}
	for (l = text; l && *l; l = next) {
		size_t len;

		next = strchr(l, '\n');
		len = next ? (size_t)(next - l) : strlen(l);
		next = next ? next + 1 : NULL;
		lineno++;
		if (body) {
			if (l[0] == '}') {
				if (push(f, cand, start, lineno))
					break;
				cand = NULL;
				body = false;
			}
		} else if (l[0] == '{' && cand && strspn(l + 1, " \t\r") + 1 >= len) {
			body = true;
			start = cand_line;
		} else if (l[0] == '}' || l[0] == '#') {
			/* A blank line keeps it: bpf_lru_list.c has one before a '{'. */
			free(cand);
			cand = NULL;
		} else if (!isspace((unsigned char)l[0])) {
			char *n = def_name(l, len);

			if (n) {
				free(cand);
				cand = n;
				cand_line = lineno;
			}
		}
	}
	free(cand);
	free(text);
	return 0;
}

static void count(struct cov_count *lines, struct cov_count *branches, const struct cov_line *l)
{
	lines->total++;
	lines->hit += l->count > 0;
	for (size_t b = 0; b < l->nbr; b++) {
		branches->total++;
		branches->hit += l->br[b] > 0;
	}
}

void cov_tally(struct cov_file *f)
{
	f->lines_c = f->branches_c = (struct cov_count){ 0 };
	for (size_t i = 0; i < f->nfuncs; i++)
		f->funcs[i].lines = f->funcs[i].branches = (struct cov_count){ 0 };
	for (size_t i = 0; i < f->nlines; i++) {
		const struct cov_line *l = &f->lines[i];

		count(&f->lines_c, &f->branches_c, l);
		for (size_t j = 0; j < f->nfuncs; j++)
			if (l->line >= f->funcs[j].start && l->line <= f->funcs[j].end)
				count(&f->funcs[j].lines, &f->funcs[j].branches, l);
	}
}
