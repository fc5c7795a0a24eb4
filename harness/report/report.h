/*
 * `htab-torture report RUN_DIR`: turns a run directory into summary.csv,
 * an extended summary.json, report.txt and report.html with plots/,
 * report.junit.xml for CI test views and report.ktap for kernel test tooling.
 */
#ifndef HT_REPORT_H
#define HT_REPORT_H
#include <stdbool.h>

/* 0 written; 2 usage error or RUN_DIR not a directory; 1 an output could not be written. */
int cmd_report(int argc, char **argv);
/* The same for a directory, quiet (for tests). */
int report_run_dir(const char *dir, bool quiet);
#endif
