/*
 * The problems table that opens report.txt and report.html: what broke,
 * grouped the way syzkaller groups crashes (by title), with the first
 * excerpt of each group, so a reader sees the bugs before the figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/console_scan.h"
#include "report/report_problems.h"
#include "lib/util.h"

static const char *const problem_verdicts[] = { "CRASH", "FAIL", "TIMEOUT", NULL };

static int verdict_rank(const char *v)
{
	for (int i = 0; problem_verdicts[i]; i++)
		if (v && !strcmp(v, problem_verdicts[i]))
			return i;
	return -1;
}

/* A cell.json written before excerpts existed: cut it from the console now. */
static char *crash_excerpt_from_console(const struct rep_cell *c)
{
	const char *src = json_string_value(json_object_get(json_object_get(c->cell_json, "crash"),
							    "source"));
	struct console_report cr;
	char path[4200], *text, *ex = NULL;

	if (!c->dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", c->dir, src ? src : "console.log");
	text = read_file(path, NULL);
	if (text && console_scan(text, &cr))
		ex = console_excerpt(text, cr.lineno);
	free(text);
	return ex;
}

/* The module's failures, one a line (strings as they are, objects as compact JSON). */
static char *failures_text(json_t *failures)
{
	char *out = NULL;
	size_t len = 0, i;
	FILE *f;
	json_t *v;

	if (!json_array_size(failures) || !(f = open_memstream(&out, &len)))
		return NULL;
	json_array_foreach(failures, i, v) {
		char *s = json_is_string(v) ? NULL : json_dumps(v, JSON_COMPACT);

		fprintf(f, "%s\n", s ? s : json_string_value(v));
		free(s);
	}
	fclose(f);
	return out;
}

char *rep_problem_excerpt(const struct rep_cell *c)
{
	json_t *cj = c->cell_json, *crash = json_object_get(cj, "crash");
	const char *s = json_string_value(json_object_get(crash, "decoded"));
	char *ex = NULL;

	/* decoded to file:line when the kernel had line tables (lib/decode.h) */
	if (!s)
		s = json_string_value(json_object_get(crash, "excerpt"));

	if (!strcmp(c->verdict, "CRASH"))
		ex = s ? strdup(s) : crash_excerpt_from_console(c);
	else if (!strcmp(c->verdict, "FAIL"))
		ex = failures_text(json_object_get(c->module_json, "failures"));
	if (!ex && !strcmp(c->verdict, "FAIL"))
		ex = failures_text(json_object_get(cj, "failures"));
	/* The guest runner's last line says where a silent guest stopped. */
	if (!ex && (s = json_string_value(json_object_get(cj, "runner_last"))) &&
	    asprintf(&ex, "runner: %s", s) < 0)
		ex = NULL;
	return ex ? ex : strdup(rep_cell_title(c));
}

/*
 * "func (file:line)" of cell.json crash.where, else of a located hang's
 * hang.where ("?" before it when only a stack scan had it); NULL when
 * neither has one.
 */
static char *problem_where(const struct rep_cell *c)
{
	json_t *w = json_object_get(json_object_get(c->cell_json, "crash"), "where");
	const char *fn, *file;
	char *out;

	if (!json_is_object(w))
		w = json_object_get(json_object_get(c->cell_json, "hang"), "where");
	fn = json_string_value(json_object_get(w, "function"));
	file = json_string_value(json_object_get(w, "file"));
	if (!fn || !file || asprintf(&out, "%s%s (%s:%lld)",
				     json_is_false(json_object_get(w, "reliable")) ? "? " : "", fn,
				     file, (long long)json_integer_value(json_object_get(w, "line"))) < 0)
		return NULL;
	return out;
}

static struct rep_problem *find_group(struct rep_problems *p, const struct rep_cell *c)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].verdict, c->verdict) && !strcmp(p->v[i].title, rep_cell_title(c)))
			return &p->v[i];
	return NULL;
}

static int add_cell(struct rep_problems *p, const struct rep_cell *c)
{
	struct rep_problem *g = find_group(p, c);
	const struct rep_cell **cells;
	const char **kernels, *k = c->kernel ? c->kernel : "?";
	char path[4200];

	if (!g) {
		struct rep_problem *v = realloc(p->v, (p->n + 1) * sizeof(*v));

		if (!v)
			return -1;
		p->v = v;
		g = &v[p->n++];
		memset(g, 0, sizeof(*g));
		g->verdict = problem_verdicts[verdict_rank(c->verdict)];
		g->title = rep_cell_title(c);
		g->excerpt = rep_problem_excerpt(c);
		g->where = problem_where(c);
		snprintf(path, sizeof(path), "%s/console.log", c->dir ? c->dir : "");
		if (c->dir && file_exists(path) && asprintf(&g->console, "%s/console.log", c->id) < 0)
			return -1;
	}
	cells = realloc(g->cells, (g->ncells + 1) * sizeof(*cells));
	if (!cells)
		return -1;
	g->cells = cells;
	g->cells[g->ncells++] = c;
	for (size_t i = 0; i < g->nkernels; i++)
		if (!strcmp(g->kernels[i], k))
			return 0;
	kernels = realloc(g->kernels, (g->nkernels + 1) * sizeof(*kernels));
	if (!kernels)
		return -1;
	g->kernels = kernels;
	g->kernels[g->nkernels++] = k;
	return 0;
}

/* The group's known kernel bug, as rep_problem.known says; NULL: none. */
static char *problem_known(const struct rep_problem *g)
{
	json_t *k = NULL;
	size_t n = 0;
	char *out;

	for (size_t i = 0; i < g->ncells; i++) {
		json_t *ki = json_object_get(g->cells[i]->cell_json, "known_bug");

		if (!json_is_object(ki))
			continue;
		k = k ? k : ki;
		n++;
	}
	if (!k || asprintf(&out, "%s in %zu of %zu cells: %s (see %s)",
			   json_string_value(json_object_get(k, "id")), n, g->ncells,
			   json_string_value(json_object_get(k, "title")),
			   json_string_value(json_object_get(k, "see"))) < 0)
		return NULL;
	return out;
}

/* CRASH before FAIL before TIMEOUT; then the most cells; then first seen (stable). */
static int problem_cmp(const void *pa, const void *pb)
{
	const struct rep_problem *a = pa, *b = pb;
	int d = verdict_rank(a->verdict) - verdict_rank(b->verdict);

	if (d)
		return d;
	if (a->ncells != b->ncells)
		return a->ncells > b->ncells ? -1 : 1;
	return a->cells[0] < b->cells[0] ? -1 : a->cells[0] > b->cells[0];
}

int rep_problems_build(const struct rep_run *r, struct rep_problems *p)
{
	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < r->n; i++)
		if (verdict_rank(r->cells[i].verdict) >= 0 && add_cell(p, &r->cells[i])) {
			rep_problems_free(p);
			return -1;
		}
	for (size_t i = 0; i < p->n; i++)
		p->v[i].known = problem_known(&p->v[i]);
	if (p->n)
		qsort(p->v, p->n, sizeof(*p->v), problem_cmp);
	return 0;
}

void rep_problems_free(struct rep_problems *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].cells);
		free(p->v[i].kernels);
		free(p->v[i].excerpt);
		free(p->v[i].console);
		free(p->v[i].where);
		free(p->v[i].known);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}
