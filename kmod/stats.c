// SPDX-License-Identifier: GPL-2.0
/*
 * Merging and reading back the per-thread counters and histograms
 * (the hot-path accounting is inline in stats.h).
 */
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include "stats.h"

const char * const ht_err_names[HT_NR_KNOWN_ERR] = {
	[HT_E2BIG] = "E2BIG", [HT_ENOENT] = "ENOENT", [HT_EEXIST] = "EEXIST",
	[HT_ENOMEM] = "ENOMEM", [HT_EBUSY] = "EBUSY", [HT_EINVAL] = "EINVAL",
};

const char * const ht_op_names[HT_NR_OPS] = {
	[HT_OP_UPDATE] = "update", [HT_OP_LOOKUP] = "lookup",
	[HT_OP_DELETE] = "delete",
};

void ht_hist_merge(struct ht_hist *dst, const struct ht_hist *src)
{
	unsigned int i;

	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	for (i = 0; i < HT_HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
}

void ht_stats_merge(struct ht_stats *dst, const struct ht_stats *src)
{
	unsigned int i;

	for (i = 0; i < HT_NR_OPS; i++)
		dst->ops_by[i] += src->ops_by[i];
	dst->ops = ht_stats_ops(dst);
	dst->ns = max(dst->ns, src->ns);
	dst->yield_ns += src->yield_ns;
	for (i = 0; i < HT_NR_KNOWN_ERR; i++)
		dst->err[i] += src->err[i];
	if (src->other_err) {
		dst->other_err += src->other_err;
		dst->other_errno = src->other_errno;
	}
	dst->unexpected += src->unexpected;
	dst->corrupt += src->corrupt;
	dst->double_alloc += src->double_alloc;
	dst->stamp_races += src->stamp_races;
	dst->live_delta += src->live_delta;
	for (i = 0; i < HT_NR_OPS; i++)
		ht_hist_merge(&dst->hist[i], &src->hist[i]);
	for (i = 0; i < HT_STEP_SLOTS; i++)
		dst->timed_slot[i] += src->timed_slot[i];
}

u64 ht_stats_errors(const struct ht_stats *s)
{
	u64 n = s->other_err;
	unsigned int i;

	for (i = 0; i < HT_NR_KNOWN_ERR; i++)
		n += s->err[i];
	return n;
}

/* "E2BIG" etc. for known errnos, "E<number>" otherwise; @err < 0. */
const char *ht_errno_name(int err, char *buf, size_t len)
{
	enum ht_err e = ht_err_index(err);

	if (e != HT_EOTHER)
		return ht_err_names[e];
	snprintf(buf, len, "E%d", -err);
	return buf;
}
