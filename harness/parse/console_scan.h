/*
 * Classifies guest console (or dmesg) text: finds the first kernel report
 * (panic, Oops, BUG:, WARNING:, soft lockup, RCU stall, hung task, lockdep,
 * GPF, KASAN, KFENCE, UBSAN, list corruption) and titles it the way syzkaller does ("WARNING in func"). The
 * harness's hang report (hang.txt: where a silent guest's vCPUs were) is
 * classified by the same table ("hang: CPUs spinning in func").
 */
#ifndef HT_CONSOLE_SCAN_H
#define HT_CONSOLE_SCAN_H

enum crash_kind {
	CK_NONE, CK_PANIC, CK_OOPS, CK_BUG, CK_GPF, CK_WARNING, CK_SOFT_LOCKUP,
	CK_HARD_LOCKUP, CK_RCU_STALL, CK_HUNG_TASK, CK_LOCKDEP, CK_KASAN,
	CK_KFENCE, CK_UBSAN, CK_LIST,	/* the memory checkers (--sanitizers on) */
	CK_HANG,	/* the harness's own report of a silent guest (run/guest/hang.h, hang.txt) */
};

struct console_report {
	enum crash_kind kind;		/* of the first report */
	char signature[256];		/* one line, e.g. "BUG: soft lockup in foo" */
	char line[256];			/* the console line that started it */
	int lineno;			/* 1-based */
	int nreports;			/* report start lines seen in total */
};

/* Returns 1 when a report was found (r filled), 0 for a clean console. */
int console_scan(const char *text, struct console_report *r);
const char *crash_kind_name(enum crash_kind k);

/* The kind of report one raw console line starts (CK_NONE: not a header). */
enum crash_kind console_line_kind(const char *line);

#define EXCERPT_MAX_LINES 150
#define EXCERPT_MAX_BYTES 16384
/*
 * The report starting at line lineno (1-based, as console_scan counts) as
 * the console shows it, through the end of its trace: its "---[ end trace"
 * line, or the "</TASK>" closing its last call trace; at most
 * EXCERPT_MAX_LINES lines / EXCERPT_MAX_BYTES bytes (then it ends
 * "[excerpt cut]"). Malloc'd; NULL when text has no such line.
 */
char *console_excerpt(const char *text, int lineno);
#endif
