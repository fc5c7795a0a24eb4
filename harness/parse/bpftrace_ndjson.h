/*
 * Reader for bpftrace 0.17 `-f json` output: one JSON object per line,
 * {"type": ..., "data": ...}. Keeps what the harness reports: attached
 * probes, lost events, scalar maps (@x = count()) and histograms.
 */
#ifndef HT_BPFTRACE_NDJSON_H
#define HT_BPFTRACE_NDJSON_H
#include <stddef.h>
#include <stdint.h>
#include "lib/histogram.h"

struct bt_value {
	char name[64];	/* "@nulls" */
	char key[128];	/* "" for an unkeyed map */
	int64_t value;
};

struct bt_hist {
	char name[64];
	char key[128];
	struct hist h;
	uint64_t negative;	/* count in the "max": -1 bucket (values < 0) */
};

struct bt_output {
	int attached_probes;	/* -1 until seen */
	uint64_t lost_events;
	struct bt_value *values;
	size_t nvalues;
	struct bt_hist *hists;
	size_t nhists;
	int lines, malformed;
};

void bt_output_init(struct bt_output *o);
void bt_output_free(struct bt_output *o);
/* One line (no newline needed). 0 ok or blank, -1 malformed with err filled. */
int bt_parse_line(struct bt_output *o, const char *line, char *err, size_t errlen);
/*
 * A whole file; malformed lines are reported on stderr (path:line: why) and
 * counted, the rest is kept. -1 only if the file cannot be read.
 */
int bt_parse_file(struct bt_output *o, const char *path);
/* Later output of the same map replaces earlier (bpftrace prints maps at exit). */
const struct bt_hist *bt_find_hist(const struct bt_output *o, const char *name);
#endif
