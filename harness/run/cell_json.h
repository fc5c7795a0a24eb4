/* After a boot: read what the cell left, decide the verdict, write cell.json. */
#ifndef HT_CELL_JSON_H
#define HT_CELL_JSON_H
#include <jansson.h>
#include "run/cell.h"
#include "lib/histogram.h"

/*
 * A boot the scheduler retries (cell.json "boot_retry", verdict_boot_retry()):
 * its cell.json and console are kept in the cell directory under these names.
 */
#define BOOT_STALL_JSON "boot-stall-1.json"
#define BOOT_STALL_CONSOLE "console-boot-stall-1.log"

/* Returns the cell.json object written (caller owns it), NULL on error. */
json_t *cell_finish(const struct run_ctx *c, const struct cell *cell, const struct boot_result *br);
/* A finished cell's cell.json, or NULL if it has none (it must be run). */
json_t *cell_load_done(const struct cell *cell);
/* Reads a phases.env ("T_X=12.34" lines); NAN when absent. */
double phases_get(const char *text, const char *key);
/* Last "runner: …" line of guest.log other than "runner: exit N", without the prefix. */
void runner_reason(const char *guest_log, char *out, size_t n);
json_t *hist_stats_json(const struct hist *h);
#endif
