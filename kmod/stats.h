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
#include <linux/math64.h>

#define HT_MULDIV(a, b, c)	mul_u64_u64_div_u64(a, b, c)
#include "hist_pct.h"

enum ht_op { HT_OP_UPDATE, HT_OP_LOOKUP, HT_OP_DELETE, HT_NR_OPS };

/* Bucket layout and percentiles: hist_pct.h. */
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

/*
 * Sampled timing's audit: how many timed ops sat at each position (mod
 * HT_STEP_SLOTS) of their workload step, so a test can show the samples
 * are spread over the step, not tied to one op of it.
 */
#define HT_STEP_SLOTS		64

struct ht_stats {
	u64 ops_by[HT_NR_OPS];	/* map ops of each kind (ht_op_end) */
	u64 ops;		/* their sum, filled in by ht_stats_merge() */
	u64 ns;
	u64 yield_ns;		/* of ns, given to other tasks between steps */
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
	u64 timed_slot[HT_STEP_SLOTS];
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

/* @n ops that failed with @err; @expected: HT_ERRBIT()s of the workload. */
static inline void ht_stats_errors_add(struct ht_stats *s, int err, u64 n,
				       u32 expected)
{
	enum ht_err e = ht_err_index(err);

	if (e == HT_EOTHER) {
		s->other_err += n;
		s->other_errno = -err;
	} else {
		s->err[e] += n;
	}
	if (!(expected & HT_ERRBIT(e)))
		s->unexpected += n;
}

/* Count one failed op; @expected is a HT_ERRBIT() mask. */
static inline void ht_stats_error(struct ht_stats *s, int err, u32 expected)
{
	ht_stats_errors_add(s, err, 1, expected);
}

/* Percentile @pct of @h in thousandths of its unit (hist_pct.h's method). */
static inline u64 ht_hist_pct_milli_of(const struct ht_hist *h, unsigned int pct)
{
	return ht_hist_pct_milli(h->b, h->count, h->min, h->max, pct);
}
/* Map ops of every kind so far. */
static inline u64 ht_stats_ops(const struct ht_stats *s)
{
	return s->ops_by[HT_OP_UPDATE] + s->ops_by[HT_OP_LOOKUP] +
	       s->ops_by[HT_OP_DELETE];
}

void ht_hist_merge(struct ht_hist *dst, const struct ht_hist *src);
void ht_stats_merge(struct ht_stats *dst, const struct ht_stats *src);
u64 ht_stats_errors(const struct ht_stats *s);
const char *ht_errno_name(int err, char *buf, size_t len);

#endif /* _HT_STATS_H */
