/*
 * report.ktap: the run in KTAP version 1 (Documentation/dev-tools/ktap.rst),
 * what kselftest and KUnit tooling read. One test per cell, ok when it
 * PASSed; each cell's verdict checks (module.json's verdict, cell.json's
 * checks) are its subtests, so a FAIL says which check failed.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_out.h"

/*
 * s on one line (rep_text_safe, newlines as spaces); in a description '#'
 * as '_' too (it would start a directive).
 */
static void put_line(FILE *f, const char *s, bool description)
{
	char *t = rep_text_safe(s ? s : "");

	for (char *p = t; p && *p; p++) {
		if (*p == '\n' || *p == '\r')
			*p = ' ';
		else if (description && *p == '#')
			*p = '_';
	}
	fputs(t ? t : "?", f);
	free(t);
}

/* Each line of text as a diagnostic line "# PREFIXline". */
static void diag_lines(FILE *f, const char *prefix, const char *text)
{
	char *t = rep_text_safe(text), *s = t, *nl;

	while (s && *s) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		fputs("# ", f);
		fputs(prefix, f);
		put_line(f, s, false);
		fputc('\n', f);
		s = nl ? nl + 1 : NULL;
	}
	free(t);
}

/* A verdict counter: cell.json's checks (the harness's copy), else module.json's verdict. */
static json_t *check_value(const struct rep_cell *c, const char *key)
{
	json_t *v = json_object_get(json_object_get(c->cell_json, "checks"), key);

	return v ? v : json_object_get(json_object_get(c->module_json, "verdict"), key);
}

struct subtests {
	FILE *f;	/* the cell's block, written once its plan is known */
	int n;
};

static void __attribute__((format(printf, 4, 5)))
subtest(struct subtests *st, bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	fprintf(st->f, "  %s %d %s # ", ok ? "ok" : "not ok", ++st->n, name);
	va_start(ap, fmt);
	vfprintf(st->f, fmt, ap);
	va_end(ap);
	fputc('\n', st->f);
}

/*
 * The checks kmod/README.md's verdict makes, as far as the cell records
 * them: the module's result; the counters that fail when not 0; the live
 * count against what the run's inserts and deletes left; the counters
 * that are legal (stamp_races: a second look explained the mismatch;
 * e2big_not_full: suspicious, never a failure), always ok.
 */
static void cell_checks(struct subtests *st, const struct rep_cell *c)
{
	static const char *const zero[] = {
		"corrupt", "double_alloc", "walk_bad", "unexpected_errors", "setup_errors", "warns",
	};
	static const char *const legal[] = { "stamp_races", "e2big_not_full" };
	const char *res = json_string_value(json_object_get(c->module_json, "result"));
	json_t *v, *exp;

	if (!res)
		res = json_string_value(json_object_get(c->cell_json, "module_result"));
	if (res)
		subtest(st, !strcmp(res, "SUCCESS"), "module_result", "result=%s", res);
	for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
		if (json_is_integer(v = check_value(c, zero[i])))
			subtest(st, !json_integer_value(v), zero[i], "%s=%lld", zero[i],
				(long long)json_integer_value(v));
	if (json_is_integer(v = check_value(c, "residual"))) {
		exp = check_value(c, "residual_expected");
		if (json_is_integer(exp))
			subtest(st, json_integer_value(v) == json_integer_value(exp), "residual",
				"residual=%lld residual_expected=%lld", (long long)json_integer_value(v),
				(long long)json_integer_value(exp));
		else
			subtest(st, true, "residual", "SKIP no residual_expected (an LRU map evicts)");
	}
	for (size_t i = 0; i < sizeof(legal) / sizeof(legal[0]); i++)
		if (json_is_integer(v = check_value(c, legal[i])))
			subtest(st, true, legal[i], "%s=%lld%s", legal[i],
				(long long)json_integer_value(v),
				json_integer_value(v) ? " (legal, not a failure)" : "");
}

/* The directive and diagnostic data of a cell's result line, without the "# ". */
static void result_data(FILE *f, const struct rep_cell *c, enum rep_outcome o)
{
	if (o == REP_SKIPPED) {
		fputs(" # SKIP ", f);
		put_line(f, rep_cell_title(c), false);
	} else if (!strcmp(c->verdict, "TIMEOUT")) {
		fputs(" # TIMEOUT ", f);
		put_line(f, rep_cell_title(c), false);
	} else if (!strcmp(c->verdict, "INCOMPLETE")) {
		fputs(" # ERROR the harness never finished this cell", f);
	}
}

static int cell(FILE *f, const struct rep_cell *c, int num)
{
	enum rep_outcome o = rep_cell_outcome(c);
	struct subtests st = { 0 };
	char *block = NULL, *ex = NULL;
	size_t len = 0;

	st.f = open_memstream(&block, &len);
	if (!st.f)
		return -1;
	cell_checks(&st, c);
	if (fclose(st.f)) {
		free(block);
		return -1;
	}
	if (st.n) {
		fputs("  KTAP version 1\n  # Subtest: ", f);
		put_line(f, c->id, true);
		fprintf(f, "\n  1..%d\n%s", st.n, block);
	}
	free(block);
	if (!strcmp(c->verdict, "INCOMPLETE")) {
		ex = rep_cell_notes(c);
		fputs("# INCOMPLETE: ", f);
		put_line(f, ex ? ex : "no cell.json", false);
		fputc('\n', f);
	} else if (o == REP_FAILED || o == REP_ERROR) {
		fprintf(f, "# %s: ", c->verdict);
		put_line(f, rep_cell_title(c), false);
		fputc('\n', f);
		ex = rep_problem_excerpt(c);
		if (ex && strcmp(ex, rep_cell_title(c)))
			diag_lines(f, "  ", ex);
		if (c->dir)
			fprintf(f, "# console: %s/console.log\n", c->id);
	}
	fprintf(f, "%s %d ", o == REP_PASSED || o == REP_SKIPPED ? "ok" : "not ok", num);
	put_line(f, c->id, true);
	result_data(f, c, o);
	fputc('\n', f);
	free(ex);
	return 0;
}

int rep_write_ktap(const struct rep_run *r, const char *path)
{
	char *buf;
	size_t len;
	FILE *f = rep_mem_open(&buf, &len);

	if (!f) {
		fprintf(stderr, "error: cannot write %s\n", path);
		return -1;
	}
	fputs("KTAP version 1\n", f);
	fprintf(f, "# htab-torture: %zu cells%s\n", r->n,
		r->any_tcg ? ", some under TCG (emulated)" : "");
	fprintf(f, "1..%zu\n", r->n);
	for (size_t i = 0; i < r->n; i++) {
		if (cell(f, &r->cells[i], (int)i + 1)) {
			fclose(f);
			free(buf);
			fprintf(stderr, "error: cannot write %s\n", path);
			return -1;
		}
	}
	return rep_mem_commit(f, &buf, &len, path);
}
