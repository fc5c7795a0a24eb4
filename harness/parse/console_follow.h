/*
 * Follows a console file while the guest writes it: each poll reads only
 * what was appended since the last one and classifies complete lines, so a
 * report is noticed within one poll of reaching the file.
 */
#ifndef HT_CONSOLE_FOLLOW_H
#define HT_CONSOLE_FOLLOW_H
#include <stdbool.h>
#include <stddef.h>
#include "parse/console_scan.h"

#define FOLLOW_LINE_MAX 1024	/* longer lines are matched on their start */
#define FOLLOW_READ_MAX (4 << 20)	/* bytes read per poll at most; the rest next time */

struct console_follow {
	long long off;			/* bytes consumed from the file */
	long long bytes_read;		/* total read, for tests: no byte is read twice */
	char part[FOLLOW_LINE_MAX];	/* the unfinished last line */
	size_t plen;
	int lines;			/* complete lines seen */
	enum crash_kind kind;		/* of the first report, CK_NONE until one */
	int report_lineno;		/* its line, 1-based as console_scan counts */
	/* Optional, set after init: called with every complete line (run/guest/boot_marks.c). */
	void (*on_line)(void *arg, const char *line);
	void *on_line_arg;
};

void console_follow_init(struct console_follow *f);
/* Feeds n more bytes; 1 when they completed the first report header line, else 0. */
int console_follow_feed(struct console_follow *f, const char *buf, size_t n);
/*
 * Reads what path gained since the last call (a missing file is empty) and
 * feeds it; 1 when the first report header appeared in it, else 0.
 */
int console_follow_file(struct console_follow *f, const char *path);
#endif
