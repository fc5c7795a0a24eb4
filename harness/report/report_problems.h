/* The problems a report opens with. */
#ifndef HT_REPORT_PROBLEMS_H
#define HT_REPORT_PROBLEMS_H
#include <stddef.h>

#include "rundir/run_load.h"

/*
 * The run's problems, as syzkaller lists crashes (report_problems.c): the
 * CRASH, FAIL and TIMEOUT cells grouped by verdict and signature title;
 * CRASH first, then FAIL, then TIMEOUT, each by count (most first), then
 * by first appearance.
 */
struct rep_problem {
	const char *verdict;		/* CRASH FAIL TIMEOUT */
	const char *title;		/* the signature ("(no signature)" if none) */
	const struct rep_cell **cells;	/* in the run's cell order */
	size_t ncells;
	const char **kernels;		/* distinct, in order of the cells */
	size_t nkernels;
	char *excerpt;			/* of the first cell: the crash report, the module's
					   failures, or the runner's last line */
	char *console;			/* the first cell's console.log, relative to the run
					   directory; NULL when it has none */
	char *where;			/* the first cell's first frame in the allocator's
					   files, "func (file:line)"; NULL: not decoded */
	char *known;			/* a known kernel bug explains cells of the group
					   (cell.json known_bug): "ID in N of M cells: TITLE
					   (see SEE)", of the first such cell; NULL: none */
};

struct rep_problems {
	struct rep_problem *v;
	size_t n;
};

/*
 * What a problem cell shows (malloc'd): a CRASH's report (cell.json's
 * excerpt, or cut from an older cell's console), a FAIL's module failures
 * one a line, else the runner's last line, else the title.
 */
char *rep_problem_excerpt(const struct rep_cell *c);
int rep_problems_build(const struct rep_run *r, struct rep_problems *p);
void rep_problems_free(struct rep_problems *p);
#endif
