/* Histograms drawn the way bpftrace prints hist(): "[1K, 2K)   5 |@@@@   |". */
#ifndef HT_REPORT_HIST_TEXT_H
#define HT_REPORT_HIST_TEXT_H
#include <stddef.h>
#include <stdio.h>

#include "lib/histogram.h"

/* "[1K, 2K)", "[0]", "[4, 8)": 1024-based suffixes as bpftrace uses. */
void rep_bucket_label(char *buf, size_t n, uint64_t lo, uint64_t hi);
/* Empty log2 buckets between the first and last non-empty are drawn as 0. */
void rep_hist_draw(FILE *f, const char *title, const struct hist *h);
#endif
