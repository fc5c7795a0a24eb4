/* The report's output files, each from the loaded run (and its environment). */
#ifndef HT_REPORT_OUT_H
#define HT_REPORT_OUT_H
#include <jansson.h>
#include <stdio.h>

#include "rundir/run_load.h"
#include "report/report_plots.h"
#include "report/report_problems.h"
#include "report/report_coverage.h"

/* Each returns 0 or -1 (message on stderr); files are replaced atomically. */
int rep_write_csv(const struct rep_run *r, const char *path);
/* cov: its per-workload merged percentages go under "coverage" (none: absent). */
int rep_write_json(const struct rep_run *r, json_t *env, const struct rep_coverage *cov,
		   const char *path);
/* report.txt and report.html open with the problems (rep_problems_build). */
int rep_write_txt(const struct rep_run *r, json_t *env, const struct rep_problems *p,
		  const struct rep_coverage *cov, const char *path);
int rep_write_html(const struct rep_run *r, json_t *env, const struct rep_plots *p,
		   const struct rep_problems *pb, const struct rep_coverage *cov, const char *path);
/* report.junit.xml: one testsuite, one testcase per cell (report_junit.c). */
int rep_write_junit(const struct rep_run *r, json_t *env, const char *path);
/* report.ktap: KTAP version 1, a test per cell, its verdict checks as subtests (report_ktap.c). */
int rep_write_ktap(const struct rep_run *r, const char *path);

/* Shared by the writers (report_out.c). */
FILE *rep_mem_open(char **buf, size_t *len);
int rep_mem_commit(FILE *f, char **buf, size_t *len, const char *path);
/* The percent change of b against a; NAN when a is 0 or either is missing. */
double rep_pct_change(double a, double b);
/*
 * s with what XML 1.0 cannot hold as '?' (malloc'd): bytes that are not
 * UTF-8 and control characters but tab, newline and CR; consoles carry
 * both, and report.junit.xml and report.ktap must stay parseable text.
 */
char *rep_text_safe(const char *s);
/* s with < > & " as HTML entities. */
void rep_html_esc(FILE *f, const char *s);
/* Distinct module latency op names over the run's cells. */
size_t rep_ops(const struct rep_run *r, const char **out, size_t max);
/*
 * A cell as a test result for CI files: PASS passed, FAIL failed, SKIP
 * skipped; CRASH, TIMEOUT, a cell never finished (INCOMPLETE) and any
 * other verdict did not run to a result: an error.
 */
enum rep_outcome { REP_PASSED, REP_FAILED, REP_ERROR, REP_SKIPPED };
enum rep_outcome rep_cell_outcome(const struct rep_cell *c);
/* "why not" text of a cell, or NULL: signature, reason, notes joined. */
char *rep_cell_notes(const struct rep_cell *c);
#endif
