/*
 * `htab-torture scan FILE...`: the console classifier `run` gives a cell's
 * verdict (parse/console_scan.h) applied to any console or dmesg file, so
 * tests and users ask it instead of grepping for WARNING, BUG or Oops.
 */
#ifndef HT_SCAN_H
#define HT_SCAN_H
/* 0 every file clean, 1 a kernel report in one at least, 2 usage error or unreadable file. */
int cmd_scan(int argc, char **argv);
#endif
