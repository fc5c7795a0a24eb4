/*
 * Coverage section of the report (report_coverage.h). Cells merge by
 * union: a line or branch is hit for a workload when any of its cells hit
 * it. Names printed in HTML are identifiers (workloads, kernel labels,
 * function names); messages are escaped.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/spawn.h"
#include "lib/util.h"
#include "report/report_coverage.h"
#include "report/report_out.h"

struct wl_build {
	struct strv infos;	/* the cells' tracefiles */
};

static struct rep_cov_workload *workload_of(struct rep_coverage *c, const struct rep_run *r,
					    const char *w)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].workload, w))
			return &c->v[i];
	for (size_t k = 0; k < r->nworkloads; k++)
		if (!strcmp(r->workloads[k], w)) {
			struct rep_cov_workload *n = realloc(c->v, (c->n + 1) * sizeof(*n));

			if (!n)
				return NULL;
			c->v = n;
			n[c->n] = (struct rep_cov_workload){ .workload = r->workloads[k] };
			return &n[c->n++];
		}
	return NULL;
}

static void push_unique(struct strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return;
	strv_push(sv, s);
}

/* A cell's workload snapshot, redone from gcov/ when coverage.json is missing. */
static int load_cell(const struct rep_cell *cell, struct cov_set *s, struct strv *errors)
{
	char p[PATH_MAX], err[768];
	const char *tree = json_string_value(json_object_get(
		json_object_get(cell->cell_json, "coverage"), "tree"));

	snprintf(p, sizeof(p), "%s/%s", cell->dir, COV_JSON);
	if (!file_exists(p)) {
		snprintf(p, sizeof(p), "%s/%s", cell->dir, COV_DIR);
		if (!file_exists(p))
			return 1;	/* no coverage: not a coverage cell */
		if (cov_cell_write(cell->dir, tree, cell->kernel, NULL, err, sizeof(err))) {
			strv_pushf(errors, "%s: %s", cell->id, err);
			return -1;
		}
	}
	if (cov_cell_load(cell->dir, COV_MAIN_SNAPSHOT, s)) {
		strv_pushf(errors, "%s: no %s snapshot in %s", cell->id, COV_MAIN_SNAPSHOT, COV_JSON);
		return -1;
	}
	return 0;
}

/*
 * Into life, a cell's setup and rmmod snapshots (the module's whole life);
 * 0 when it has both, 1 when not (a cell from before they were taken).
 */
static int merge_life(const struct rep_cell *cell, struct cov_set *life)
{
	const char *names[] = COV_LIFE_SNAPSHOTS;
	struct cov_set s[2] = { { 0 } };
	int rc = 0;

	for (size_t i = 0; i < 2 && !rc; i++)
		rc = cov_cell_load(cell->dir, names[i], &s[i]) ? 1 : 0;
	for (size_t i = 0; i < 2 && !rc; i++)
		rc = cov_set_merge(life, &s[i]);
	cov_set_free(&s[0]);
	cov_set_free(&s[1]);
	return rc;
}

/* lcov -a of the cells' tracefiles, then genhtml into RUN/coverage/<workload>/. */
static void annotate(const struct rep_run *r, struct rep_cov_workload *w, const struct strv *infos)
{
	char dir[PATH_MAX], info[PATH_MAX], log[PATH_MAX + 16], msg[300] = "", *t;
	struct strv argv = { 0 };
	struct spawn_opts so = { .log = log, .null_stdin = true };
	int rc;

	snprintf(dir, sizeof(dir), "%s/coverage/%s", r->dir, w->workload);
	snprintf(info, sizeof(info), "%s/coverage/%s.info", r->dir, w->workload);
	snprintf(log, sizeof(log), "%s/coverage/%s.log", r->dir, w->workload);
	if (mkdir_p(dir)) {
		(void)!asprintf(&w->why, "cannot create %s", dir);
		return;
	}
	strv_push(&argv, "lcov");
	strv_push(&argv, "--quiet");
	for (size_t i = 0; i < infos->n; i++) {
		strv_push(&argv, "--add-tracefile");
		strv_push(&argv, infos->v[i]);
	}
	strv_push(&argv, "--rc");
	strv_push(&argv, "lcov_branch_coverage=1");
	strv_push(&argv, "--output-file");
	strv_push(&argv, info);
	rc = spawn_run(argv.v, &so, NULL);
	strv_free(&argv);
	if (!rc) {
		char *g[] = { "genhtml", "--quiet", "--branch-coverage", "--legend", "--title",
			      (char *)w->workload, "--output-directory", dir, info, NULL };

		rc = spawn_run(g, &so, NULL);
	}
	if (!rc) {
		(void)!asprintf(&w->html, "coverage/%s/index.html", w->workload);
		unlink(log);	/* kept only to say why */
		return;
	}
	t = read_file(log, NULL);
	if (t) {	/* the tool's last line says why */
		char *e = t + strlen(t);

		while (e > t && e[-1] == '\n')
			*--e = 0;
		snprintf(msg, sizeof(msg), "%s", strrchr(t, '\n') ? strrchr(t, '\n') + 1 : t);
		free(t);
	}
	(void)!asprintf(&w->why, "lcov/genhtml failed (exit %d, log %s): %s", rc, log, msg);
}

int rep_coverage_build(const struct rep_run *r, struct rep_coverage *c)
{
	struct wl_build *b = calloc(r->nworkloads + 1, sizeof(*b));

	memset(c, 0, sizeof(*c));
	if (!b)
		return -1;
	for (size_t i = 0; i < r->n; i++) {
		const struct rep_cell *cell = &r->cells[i];
		struct cov_set s = { 0 };
		struct rep_cov_workload *w;
		char info[PATH_MAX];

		if (!cell->dir || load_cell(cell, &s, &c->errors)) {
			cov_set_free(&s);
			continue;
		}
		w = workload_of(c, r, cell->workload);
		if (!w || cov_set_merge(&w->set, &s) || cov_set_merge(&c->all, &s)) {
			cov_set_free(&s);
			free(b);
			return -1;
		}
		cov_set_free(&s);
		w->ncells++;
		if (merge_life(cell, &c->life) == 0)
			c->nlife++;
		push_unique(&c->kernels, cell->kernel);
		c->tcg |= cell->accel && !strcmp(cell->accel, "tcg");
		snprintf(info, sizeof(info), "%s/coverage-%s.info", cell->dir, COV_MAIN_SNAPSHOT);
		if (file_exists(info))
			strv_push(&b[w - c->v].infos, info);
	}
	for (size_t i = 0; i < c->n; i++) {
		if (b[i].infos.n)
			annotate(r, &c->v[i], &b[i].infos);
		else
			c->v[i].why = strdup("no tracefile");
		strv_free(&b[i].infos);
	}
	free(b);
	return 0;
}

void rep_coverage_free(struct rep_coverage *c)
{
	for (size_t i = 0; i < c->n; i++) {
		cov_set_free(&c->v[i].set);
		free(c->v[i].html);
		free(c->v[i].why);
	}
	free(c->v);
	cov_set_free(&c->all);
	cov_set_free(&c->life);
	strv_free(&c->errors);
	strv_free(&c->kernels);
	memset(c, 0, sizeof(*c));
}

/* One row of the table: a function of a file, or the file's totals (fn NULL). */
struct cov_row {
	const char *file, *fn;
};

static const struct cov_func *find_func(const struct cov_file *f, const char *name)
{
	for (size_t i = 0; f && i < f->nfuncs; i++)
		if (!strcmp(f->funcs[i].name, name))
			return &f->funcs[i];
	return NULL;
}

static const struct cov_file *file_in(const struct cov_set *s, const char *path)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->files[i].path, path))
			return &s->files[i];
	return NULL;
}

static bool is_key(const char *name)
{
	for (size_t k = 0; k < cov_nkey_functions; k++)
		if (!strcmp(cov_key_functions[k], name))
			return true;
	return false;
}

/* The rows: key functions in list order, then per file its totals and its other functions. */
static size_t rows_of(const struct cov_set *all, struct cov_row **out)
{
	size_t n = 0, cap = cov_nkey_functions + 1;
	struct cov_row *v;

	for (size_t i = 0; i < all->n; i++)
		cap += all->files[i].nfuncs + 1;
	v = calloc(cap, sizeof(*v));
	for (size_t k = 0; v && k < cov_nkey_functions; k++)
		for (size_t i = 0; i < all->n; i++)
			if (find_func(&all->files[i], cov_key_functions[k]))
				v[n++] = (struct cov_row){ all->files[i].path, cov_key_functions[k] };
	for (size_t i = 0; v && i < all->n; i++) {
		v[n++] = (struct cov_row){ all->files[i].path, NULL };
		for (size_t j = 0; j < all->files[i].nfuncs; j++)
			if (!is_key(all->files[i].funcs[j].name))
				v[n++] = (struct cov_row){ all->files[i].path, all->files[i].funcs[j].name };
	}
	*out = v;
	return v ? n : 0;
}

/* "lines hit/total branches hit/total" of a row in s; false when s lacks it. */
static bool counts(const struct cov_set *s, const struct cov_row *row, struct cov_count *l,
		   struct cov_count *b)
{
	const struct cov_file *f = file_in(s, row->file);
	const struct cov_func *fn = row->fn ? find_func(f, row->fn) : NULL;

	if (!f || (row->fn && !fn))
		return false;
	*l = fn ? fn->lines : f->lines_c;
	*b = fn ? fn->branches : f->branches_c;
	return true;
}

static void cell_text(char *buf, size_t n, const struct cov_set *s, const struct cov_row *row)
{
	struct cov_count l, b;

	if (!counts(s, row, &l, &b))
		snprintf(buf, n, "-");
	else if (row->fn)
		snprintf(buf, n, "%lld/%lld %lld/%lld", l.hit, l.total, b.hit, b.total);
	else
		snprintf(buf, n, "%.1f%% %.1f%%", cov_pct(&l), cov_pct(&b));
}

/* The table's value columns: each workload's union, "all workloads", then insmod to rmmod. */
static size_t ncolumns(const struct rep_coverage *c)
{
	return c->n + 1 + (c->nlife ? 1 : 0);
}

static const struct cov_set *column_set(const struct rep_coverage *c, size_t k)
{
	return k < c->n ? &c->v[k].set : k == c->n ? &c->all : &c->life;
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void head_text(FILE *f, const struct rep_coverage *c, bool html)
{
	const char *p = html ? "<p>" : "", *e = html ? "</p>\n" : "\n";

	fprintf(f, "%skernel: %s", p, c->kernels.n ? "" : "-");
	for (size_t i = 0; i < c->kernels.n; i++)
		fprintf(f, "%s%s", i ? ", " : "", c->kernels.v[i]);
	fprintf(f, " (the coverage variant: gcov counters in the allocator's files). Figures are "
		"the workload snapshot (after the workers, before the verdict), merged over each "
		"workload's cells: a line or branch is hit when any cell hit it.%s", e);
	if (c->nlife)
		fprintf(f, "%sLast column, \"%s\": every workload's cells from insmod to rmmod "
			"(the map's creation, population and destruction, and the verdict, too; "
			"%zu cells).%s", p, COV_LIFE_NAME, c->nlife, e);
	fprintf(f, "%sPer function: lines hit/total, branches hit/total; per file: lines %%, "
		"branches %%. Functions are their source line ranges, so inlined ones "
		"(___pcpu_freelist_pop, ...) have their own rows.%s", p, e);
	if (c->tcg)
		fprintf(f, "%s(tcg: emulated, not hardware figures; coverage is not timing)%s", p, e);
	for (size_t i = 0; i < c->errors.n; i++) {
		fputs(html ? "<p class=missing>error: " : "error: ", f);
		if (html)
			rep_html_esc(f, c->errors.v[i]);
		else
			fputs(c->errors.v[i], f);
		fputs(e, f);
	}
}

void rep_coverage_text(FILE *f, const struct rep_coverage *c)
{
	struct cov_row *rows;
	size_t nr;
	int w = 17, fw = 8;
	char buf[64];

	if (!c->n && !c->errors.n)
		return;
	fputs("Coverage\n", f);
	head_text(f, c, false);
	if (!c->n) {
		fputc('\n', f);
		return;
	}
	nr = rows_of(&c->all, &rows);
	for (size_t i = 0; i < nr; i++) {
		int l = (int)strlen(rows[i].fn ? rows[i].fn : base_of(rows[i].file)) + 2;

		fw = l > fw ? l : fw;
	}
	for (size_t i = 0; i < c->n; i++)
		w = (int)strlen(c->v[i].workload) > w ? (int)strlen(c->v[i].workload) : w;
	fprintf(f, "%-*s", fw, "function");
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, " %*s", w, c->v[i].workload);
	fprintf(f, " %*s", w, "all workloads");
	if (c->nlife)
		fprintf(f, " %*s", w, COV_LIFE_NAME);
	fputc('\n', f);
	if (nr && rows[0].fn)
		fputs("allocator paths\n", f);
	for (size_t i = 0; i < nr; i++) {
		if (!rows[i].fn)
			fprintf(f, "%-*s", fw, base_of(rows[i].file));
		else
			fprintf(f, "  %-*s", fw - 2, rows[i].fn);
		for (size_t k = 0; k < ncolumns(c); k++) {
			cell_text(buf, sizeof(buf), column_set(c, k), &rows[i]);
			fprintf(f, " %*s", w, buf);
		}
		fputc('\n', f);
	}
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, "annotated source of %s (%zu cells): %s\n", c->v[i].workload, c->v[i].ncells,
			c->v[i].html ? c->v[i].html : c->v[i].why);
	fputc('\n', f);
	free(rows);
}

void rep_coverage_html(FILE *f, const struct rep_coverage *c)
{
	struct cov_row *rows;
	size_t nr;
	char buf[64];

	if (!c->n && !c->errors.n)
		return;
	fputs("<h2 id=coverage>Coverage</h2>\n", f);
	head_text(f, c, true);
	if (!c->n)
		return;
	nr = rows_of(&c->all, &rows);
	fputs("<table class=coverage><tr><th>function</th>", f);
	for (size_t i = 0; i < c->n; i++) {
		fprintf(f, "<th>%s (%zu cells)", c->v[i].workload, c->v[i].ncells);
		if (c->v[i].html) {
			fprintf(f, "<br><a href=\"%s\">annotated source</a></th>", c->v[i].html);
			continue;
		}
		fputs("<br><span class=missing>no annotated source: ", f);
		rep_html_esc(f, c->v[i].why);
		fputs("</span></th>", f);
	}
	fputs("<th>all workloads</th>", f);
	if (c->nlife)
		fprintf(f, "<th>%s (%zu cells)</th>", COV_LIFE_NAME, c->nlife);
	fputs("</tr>\n", f);
	if (nr && rows[0].fn)
		fprintf(f, "<tr><th colspan=%zu>allocator paths</th></tr>\n", ncolumns(c) + 1);
	for (size_t i = 0; i < nr; i++) {
		fprintf(f, rows[i].fn ? "<tr><td><code>%s</code></td>" : "<tr><th>%s</th>",
			rows[i].fn ? rows[i].fn : base_of(rows[i].file));
		for (size_t k = 0; k < ncolumns(c); k++) {
			cell_text(buf, sizeof(buf), column_set(c, k), &rows[i]);
			fprintf(f, "<td class=n>%s</td>", buf);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	free(rows);
}
