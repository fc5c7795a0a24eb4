/* After a boot: read what the cell left, decide the verdict, write cell.json. */
#ifndef HT_CELL_JSON_H
#define HT_CELL_JSON_H
#include <jansson.h>
#include <stdbool.h>
#include "run/guest/cell.h"
#include "lib/histogram.h"

/*
 * A boot the scheduler retries (cell.json "boot_retry", verdict_boot_retry()):
 * its cell.json and console are kept in the cell directory under these names.
 */
#define BOOT_STALL_JSON "boot-stall-1.json"
#define BOOT_STALL_CONSOLE "console-boot-stall-1.log"

/*
 * What the scheduler decides from once a cell has ended: the verdict and
 * whether to boot it again. The whole result is in cell.json; the
 * scheduler never reads back what it wrote.
 */
struct cell_record {
	char verdict[16];	/* PASS FAIL CRASH TIMEOUT SKIP */
	char signature[256];	/* "" for PASS */
	bool boot_retry;	/* verdict_boot_retry(): boot it again (BOOT_STALL_JSON kept) */
	bool decode_pending;	/* a report waits for cell_json_decode */
};

/* Decides the verdict, writes cell.json and fills *rec; 0, or -1 (said on stderr). */
int cell_finish(const struct run_ctx *c, const struct cell *cell, const struct boot_result *br,
		struct cell_record *rec);
/*
 * The reports cell_finish left "decode_pending" (crash, hang) decoded to
 * file:line and written into dir/cell.json: the seconds of
 * decode_stacktrace.sh a kernel with line tables takes, run apart from the
 * scheduler (run/decode_queue.h). 0, or -1 with err.
 */
struct decode_kernel;
int cell_json_decode(const char *root, const struct decode_kernel *k, const char *dir,
		     char *err, size_t n);
/* Whether a cell.json has a report waiting for cell_json_decode. */
bool cell_json_decode_pending(const json_t *cell_json);
/* Reads a phases.env ("T_X=12.34" lines); NAN when absent. */
double phases_get(const char *text, const char *key);
/* Last "runner: …" line of guest.log other than "runner: exit N", without the prefix. */
void runner_reason(const char *guest_log, char *out, size_t n);
json_t *hist_stats_json(const struct hist *h);
#endif
