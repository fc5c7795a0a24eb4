/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The histogram layout and the one percentile method of htab-torture,
 * in integer arithmetic so the module and the harness's unit tests
 * compile the same code (harness/FORMAT.md, "Percentiles").
 *
 * Buckets: values below HT_HIST_SUB are exact; above, each power of two
 * [2^g+2, 2^g+3) is split into HT_HIST_SUB equal sub-buckets (25 %).
 *
 * Percentile p of n samples: rank r = p/100 * n; the first non-empty
 * bucket [lo, hi) whose cumulative count reaches r holds it, and the
 * value is lo + (hi - lo) * (r - below) / count, where below is the
 * count under that bucket (linear inside the bucket); then clamped to
 * the exact min and max. The harness's hist_percentile() does the same
 * in doubles; the module prints it rounded to thousandths of a unit.
 *
 * The includer defines u64 and HT_MULDIV(a, b, c) = a * b / c with a
 * 128-bit product (mul_u64_u64_div_u64() in the kernel).
 */
#ifndef _HT_HIST_PCT_H
#define _HT_HIST_PCT_H

#define HT_HIST_SUB_BITS	2
#define HT_HIST_SUB		(1U << HT_HIST_SUB_BITS)
#define HT_HIST_BUCKETS		(HT_HIST_SUB + (64 - HT_HIST_SUB_BITS) * HT_HIST_SUB)
#define HT_U64_MAX		(~(u64)0)

/* [lo, hi) of bucket @idx; the top bucket's hi saturates at U64 max. */
static inline void ht_hist_bucket_range(unsigned int idx, u64 *lo, u64 *hi)
{
	unsigned int g, s;

	if (idx < HT_HIST_SUB) {
		*lo = idx;
		*hi = idx + 1;
		return;
	}
	g = (idx - HT_HIST_SUB) / HT_HIST_SUB;
	s = (idx - HT_HIST_SUB) % HT_HIST_SUB;
	*lo = (u64)(HT_HIST_SUB + s) << g;
	*hi = *lo + ((u64)1 << g);
	if (*hi < *lo)
		*hi = HT_U64_MAX;
}

/*
 * Percentile @pct (0..100) of HT_HIST_BUCKETS counts @b holding @count
 * samples with exact @min/@max, in thousandths (value * 1000).
 */
static inline u64 ht_hist_pct_milli(const u64 *b, u64 count, u64 min,
				    u64 max, unsigned int pct)
{
	u64 rank100 = (u64)pct * count, below = 0, lo, hi, v;
	unsigned int i;

	if (!count)
		return 0;
	v = max;
	for (i = 0; i < HT_HIST_BUCKETS; i++) {
		if (!b[i])
			continue;
		if ((below + b[i]) * 100 >= rank100) {
			ht_hist_bucket_range(i, &lo, &hi);
			if (lo > HT_U64_MAX / 2000)
				return max * 1000;
			/* twice the thousandths, then halved: rounded to nearest */
			v = lo * 1000 + (HT_MULDIV(hi - lo,
						   (rank100 - below * 100) * 20,
						   b[i]) + 1) / 2;
			if (v > max * 1000)
				v = max * 1000;
			if (v < min * 1000)
				v = min * 1000;
			return v;
		}
		below += b[i];
	}
	return max * 1000;
}

#endif /* _HT_HIST_PCT_H */
