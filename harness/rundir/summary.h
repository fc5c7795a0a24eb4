/* OUT/summary.json (one object per cell, FORMAT.md) and the table printed at the end. */
#ifndef HT_SUMMARY_H
#define HT_SUMMARY_H
#include <jansson.h>
#include <stdio.h>

/* The cell.json of every cell of the manifest's plan that has one, in plan order. */
json_t *summary_collect(const char *out_dir, json_t *manifest);
/* cells: array of cell.json objects. */
int summary_write(const char *out_dir, json_t *cells);
void summary_print(FILE *f, json_t *cells);
/* 0 when every cell is PASS or SKIP, else 1. */
int summary_exit_code(json_t *cells);
#endif
