/*
 * A set of covered files: lookup, union of two cells' counts, and the
 * coverage.json form of it (per file and per function the counts, plus
 * every counted line with its branch counts, so cells merge later).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rundir/coverage.h"

static void file_free(struct cov_file *f)
{
	for (size_t i = 0; i < f->nlines; i++)
		free(f->lines[i].br);
	for (size_t i = 0; i < f->nfuncs; i++)
		free(f->funcs[i].name);
	free(f->lines);
	free(f->funcs);
	free(f->path);
}

void cov_set_free(struct cov_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		file_free(&s->files[i]);
	free(s->files);
	*s = (struct cov_set){ 0 };
}

struct cov_file *cov_set_add(struct cov_set *s, const char *path)
{
	struct cov_file *n = realloc(s->files, (s->n + 1) * sizeof(*n));
	size_t at = 0;

	if (!n)
		return NULL;
	s->files = n;
	while (at < s->n && strcmp(n[at].path, path) < 0)
		at++;
	memmove(&n[at + 1], &n[at], (s->n - at) * sizeof(*n));
	s->n++;
	n[at] = (struct cov_file){ .path = strdup(path) };
	return n[at].path ? &n[at] : NULL;
}

const struct cov_file *cov_set_find(const struct cov_set *s, const char *basename)
{
	for (size_t i = 0; i < s->n; i++) {
		const char *p = s->files[i].path, *slash = strrchr(p, '/');

		if (!strcmp(slash ? slash + 1 : p, basename))
			return &s->files[i];
	}
	return NULL;
}

double cov_pct(const struct cov_count *c)
{
	return c->total ? 100.0 * (double)c->hit / (double)c->total : NAN;
}

static int line_add(struct cov_line *d, const struct cov_line *s)
{
	if (s->nbr > d->nbr) {
		long long *b = realloc(d->br, s->nbr * sizeof(*b));

		if (!b)
			return -1;
		memset(b + d->nbr, 0, (s->nbr - d->nbr) * sizeof(*b));
		d->br = b;
		d->nbr = s->nbr;
	}
	d->count += s->count;
	for (size_t i = 0; i < s->nbr; i++)
		d->br[i] += s->br[i];
	return 0;
}

/* src's lines into d (both ascending), as one ascending list. */
static int file_merge(struct cov_file *d, const struct cov_file *s)
{
	struct cov_line *m = calloc(d->nlines + s->nlines + 1, sizeof(*m));
	size_t i = 0, j = 0, n = 0;

	if (!m)
		return -1;
	while (i < d->nlines || j < s->nlines) {
		if (j == s->nlines || (i < d->nlines && d->lines[i].line < s->lines[j].line)) {
			m[n++] = d->lines[i++];
			continue;
		}
		if (i < d->nlines && d->lines[i].line == s->lines[j].line)
			m[n] = d->lines[i++];
		else
			m[n] = (struct cov_line){ .line = s->lines[j].line };
		if (line_add(&m[n++], &s->lines[j++]))
			return -1;
	}
	free(d->lines);
	d->lines = m;
	d->nlines = n;
	if (!d->nfuncs && s->nfuncs) {
		d->funcs = calloc(s->nfuncs, sizeof(*d->funcs));
		if (!d->funcs)
			return -1;
		for (size_t k = 0; k < s->nfuncs; k++) {
			d->funcs[k] = s->funcs[k];
			d->funcs[k].name = strdup(s->funcs[k].name);
		}
		d->nfuncs = s->nfuncs;
	} else {
		for (size_t k = 0; k < d->nfuncs && k < s->nfuncs; k++)
			if (s->funcs[k].calls >= 0)
				d->funcs[k].calls = (d->funcs[k].calls > 0 ? d->funcs[k].calls : 0) +
						    s->funcs[k].calls;
	}
	cov_tally(d);
	return 0;
}

int cov_set_merge(struct cov_set *dst, const struct cov_set *src)
{
	for (size_t i = 0; i < src->n; i++) {
		struct cov_file *d = NULL;

		for (size_t k = 0; k < dst->n && !d; k++)
			if (!strcmp(dst->files[k].path, src->files[i].path))
				d = &dst->files[k];
		if (!d && !(d = cov_set_add(dst, src->files[i].path)))
			return -1;
		if (file_merge(d, &src->files[i]))
			return -1;
	}
	return 0;
}

static json_t *count_json(const struct cov_count *c)
{
	double p = cov_pct(c);

	return json_pack("{s:I, s:I, s:o}", "hit", (json_int_t)c->hit, "total",
			 (json_int_t)c->total, "pct", isnan(p) ? json_null() : json_real(p));
}

static json_t *file_json(const struct cov_file *f)
{
	json_t *funcs = json_array(), *lines = json_array();

	for (size_t i = 0; i < f->nfuncs; i++) {
		const struct cov_func *fn = &f->funcs[i];

		json_array_append_new(funcs, json_pack("{s:s, s:i, s:i, s:o, s:o, s:o}",
			"name", fn->name, "start", fn->start, "end", fn->end,
			"calls", fn->calls >= 0 ? json_integer(fn->calls) : json_null(),
			"lines", count_json(&fn->lines), "branches", count_json(&fn->branches)));
	}
	for (size_t i = 0; i < f->nlines; i++) {
		const struct cov_line *l = &f->lines[i];
		json_t *br = json_array();

		for (size_t b = 0; b < l->nbr; b++)
			json_array_append_new(br, json_integer(l->br[b]));
		json_array_append_new(lines, json_pack("[i, I, o]", l->line,
						       (json_int_t)l->count, br));
	}
	return json_pack("{s:s, s:o, s:o, s:o, s:o}", "path", f->path,
			 "lines", count_json(&f->lines_c), "branches", count_json(&f->branches_c),
			 "functions", funcs, "line_data", lines);
}

json_t *cov_set_json(const struct cov_set *s)
{
	json_t *a = json_array();

	for (size_t i = 0; i < s->n; i++)
		json_array_append_new(a, file_json(&s->files[i]));
	return a;
}

static int file_from_json(json_t *j, struct cov_file *f)
{
	json_t *fn, *l, *b, *funcs = json_object_get(j, "functions");
	json_t *lines = json_object_get(j, "line_data");
	size_t i, k;

	f->funcs = calloc(json_array_size(funcs) + 1, sizeof(*f->funcs));
	f->lines = calloc(json_array_size(lines) + 1, sizeof(*f->lines));
	if (!f->funcs || !f->lines)
		return -1;
	json_array_foreach(funcs, i, fn) {
		json_t *calls = json_object_get(fn, "calls");
		const char *name = json_string_value(json_object_get(fn, "name"));

		f->funcs[f->nfuncs++] = (struct cov_func){
			.name = strdup(name ? name : "?"),
			.start = (int)json_integer_value(json_object_get(fn, "start")),
			.end = (int)json_integer_value(json_object_get(fn, "end")),
			.calls = json_is_integer(calls) ? json_integer_value(calls) : -1,
		};
	}
	json_array_foreach(lines, i, l) {
		struct cov_line *cl = &f->lines[f->nlines++];
		json_t *br = json_array_get(l, 2);

		cl->line = (int)json_integer_value(json_array_get(l, 0));
		cl->count = json_integer_value(json_array_get(l, 1));
		cl->br = calloc(json_array_size(br) + 1, sizeof(*cl->br));
		if (!cl->br)
			return -1;
		json_array_foreach(br, k, b)
			cl->br[cl->nbr++] = json_integer_value(b);
	}
	cov_tally(f);
	return 0;
}

int cov_set_from_json(json_t *files, struct cov_set *s)
{
	size_t i;
	json_t *j;

	json_array_foreach(files, i, j) {
		const char *p = json_string_value(json_object_get(j, "path"));
		struct cov_file *f = p ? cov_set_add(s, p) : NULL;

		if (!f || file_from_json(j, f))
			return -1;
	}
	return 0;
}
