/*
 * The report's coverage section: per workload the union of its cells'
 * workload snapshots (rundir/coverage.h), a row per function (the
 * allocator's key functions first, then every other function of the
 * files), and genhtml's annotated source of the merged tracefile in
 * RUN/coverage/<workload>/.
 */
#ifndef HT_REPORT_COVERAGE_H
#define HT_REPORT_COVERAGE_H
#include <stdbool.h>
#include <stdio.h>

#include "rundir/coverage.h"
#include "rundir/run_load.h"
#include "lib/util.h"

struct rep_cov_workload {
	const char *workload;
	size_t ncells;		/* cells whose coverage is in set */
	struct cov_set set;
	char *html;		/* "coverage/<workload>/index.html", NULL without one */
	char *why;		/* why there is no html, or NULL */
};

struct rep_coverage {
	struct rep_cov_workload *v;	/* in the run's workload order; only with coverage */
	size_t n;
	struct cov_set all;		/* every workload's union */
	struct cov_set life;		/* every cell's setup and rmmod snapshots: insmod to rmmod */
	size_t nlife;			/* cells with both */
	struct strv errors;		/* cells whose coverage could not be read or redone */
	struct strv kernels;		/* kernels of the cells with coverage */
	bool tcg;
};

/* Redoes a cell's missing coverage.json from gcov/, merges, runs lcov and genhtml. */
int rep_coverage_build(const struct rep_run *r, struct rep_coverage *c);
void rep_coverage_free(struct rep_coverage *c);
/* Nothing when no cell has coverage. */
void rep_coverage_text(FILE *f, const struct rep_coverage *c);
void rep_coverage_html(FILE *f, const struct rep_coverage *c);
#endif
