/*
 * CSV writer (RFC 4180): a field is quoted when it holds a comma, a double
 * quote, CR or LF, or starts/ends with a space; quotes inside are doubled.
 * Empty numbers (NAN) are written as empty fields so spreadsheets see "no data".
 */
#ifndef HT_CSV_H
#define HT_CSV_H
#include <stdbool.h>
#include <stdio.h>

struct csv {
	FILE *f;
	int col;	/* fields written on the current row */
};

/* The escaped form of s (malloc'd); NULL s is the empty field. */
char *csv_escape(const char *s);
bool csv_needs_quotes(const char *s);
void csv_init(struct csv *c, FILE *f);
void csv_str(struct csv *c, const char *s);
/* printf-style number; NAN or INFINITY writes an empty field. */
void csv_num(struct csv *c, double v, const char *fmt);
void csv_int(struct csv *c, long long v);
void csv_end_row(struct csv *c);
#endif
