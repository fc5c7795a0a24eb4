/*
 * `htab-torture report RUN_DIR`: turns a run directory into summary.csv,
 * an extended summary.json, report.txt and report.html with plots/.
 */
#ifndef HT_REPORT_H
#define HT_REPORT_H
#include <stdbool.h>

/* 0 written; 1 usage error; 2 the run could not be read or written. */
int cmd_report(int argc, char **argv);
/* The same for a directory, quiet (for tests). */
int report_run_dir(const char *dir, bool quiet);
#endif
