/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-thread counters of htab_torture: op counts, errors by errno and
 * log2 latency histograms with sub-buckets. Each worker owns one
 * struct ht_stats (it is bound to one CPU), so no atomics are needed;
 * the controller merges them after every worker has finished.
 */
#ifndef _HT_STATS_H
#define _HT_STATS_H

#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/errno.h>

enum ht_op { HT_OP_UPDATE, HT_OP_LOOKUP, HT_OP_DELETE, HT_NR_OPS };

/*
 * Buckets: values below HT_HIST_SUB are exact; above, each power of two
 * is split into HT_HIST_SUB equal sub-buckets (25% resolution).
 */
#define HT_HIST_SUB_BITS	2
#define HT_HIST_SUB		(1U << HT_HIST_SUB_BITS)
#define HT_HIST_BUCKETS		(HT_HIST_SUB + (64 - HT_HIST_SUB_BITS) * HT_HIST_SUB)

struct ht_hist {
	u64 count;
	u64 min;
	u64 max;
	u64 sum;
	u64 b[HT_HIST_BUCKETS];
};

/* Errnos a hash map op may return; anything else lands in "other". */
enum ht_err {
	HT_E2BIG, HT_ENOENT, HT_EEXIST, HT_ENOMEM, HT_EBUSY, HT_EINVAL,
	HT_NR_KNOWN_ERR,
	HT_EOTHER = 31,
};

#define HT_ERRBIT(e)	BIT(e)

struct ht_stats {
	u64 ops;
	u64 ns;
	u64 err[HT_NR_KNOWN_ERR];
	u64 other_err;
	int other_errno;
	u64 unexpected;
	/* the verdict's counters, kept per worker like the rest */
	u64 corrupt;		/* stamps naming another key, writer or seq */
	u64 double_alloc;	/* inserts that succeeded on a full map */
	u64 stamp_races;	/* mismatches a second look explained (LRU, racy keys) */
	s64 live_delta;		/* successful inserts of new keys minus deletes */
	struct ht_hist hist[HT_NR_OPS];
};

extern const char * const ht_err_names[HT_NR_KNOWN_ERR];
extern const char * const ht_op_names[HT_NR_OPS];

static inline unsigned int ht_hist_index(u64 v)
{
	unsigned int e;

	if (v < HT_HIST_SUB)
		return v;
	e = fls64(v) - 1;
	return HT_HIST_SUB + (e - HT_HIST_SUB_BITS) * HT_HIST_SUB +
	       ((v >> (e - HT_HIST_SUB_BITS)) & (HT_HIST_SUB - 1));
}

static inline void ht_hist_add(struct ht_hist *h, u64 v)
{
	h->b[ht_hist_index(v)]++;
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
}

static inline enum ht_err ht_err_index(int err)
{
	switch (err) {
	case -E2BIG:	return HT_E2BIG;
	case -ENOENT:	return HT_ENOENT;
	case -EEXIST:	return HT_EEXIST;
	case -ENOMEM:	return HT_ENOMEM;
	case -EBUSY:	return HT_EBUSY;
	case -EINVAL:	return HT_EINVAL;
	default:	return HT_EOTHER;
	}
}

/* Count one failed op; @expected is a HT_ERRBIT() mask. */
static inline void ht_stats_error(struct ht_stats *s, int err, u32 expected)
{
	enum ht_err e = ht_err_index(err);

	if (e == HT_EOTHER) {
		s->other_err++;
		s->other_errno = -err;
	} else {
		s->err[e]++;
	}
	if (!(expected & HT_ERRBIT(e)))
		s->unexpected++;
}

void ht_hist_bucket_range(unsigned int idx, u64 *lo, u64 *hi);
u64 ht_hist_percentile(const struct ht_hist *h, unsigned int pct);
void ht_hist_merge(struct ht_hist *dst, const struct ht_hist *src);
void ht_stats_merge(struct ht_stats *dst, const struct ht_stats *src);
u64 ht_stats_errors(const struct ht_stats *s);
const char *ht_errno_name(int err, char *buf, size_t len);

#endif /* _HT_STATS_H */
