/*
 * Latency histograms as buckets [lo, hi) with counts (log2 from the module
 * and bpftrace's hist(), but any ascending buckets work), and their summary.
 */
#ifndef HT_HISTOGRAM_H
#define HT_HISTOGRAM_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct hist_bucket {
	uint64_t lo, hi;	/* hi exclusive */
	uint64_t count;
};

struct hist {
	struct hist_bucket *b;
	size_t n, cap;
	uint64_t count;
	uint64_t min, max;	/* exact, when has_minmax */
	bool has_minmax;
};

struct hist_stats {
	uint64_t count;
	double p50, p90, p99, max;
};

void hist_init(struct hist *h);
void hist_free(struct hist *h);
int hist_add_bucket(struct hist *h, uint64_t lo, uint64_t hi, uint64_t count);
/*
 * Percentile p in [0,100]: linear interpolation inside the bucket that holds
 * rank p/100*count (value lo + (hi-lo) * fraction of that bucket's count below
 * the rank). Clamped to the exact min/max when the source gave them. NAN if empty.
 */
double hist_percentile(const struct hist *h, double p);
/* The label every output gives its percentiles (harness/FORMAT.md, "Percentiles"). */
#define PERCENTILE_METHOD "interpolated within log2 sub-buckets, clamped to min/max (FORMAT.md)"
/* max: exact max if known, else the top non-empty bucket's upper bound (hi - 1). */
void hist_summarize(const struct hist *h, struct hist_stats *s);
/* libbpf-tools layout: "  low -> high : count |****|". */
void hist_print(FILE *f, const struct hist *h, const char *unit);
#endif
