// SPDX-License-Identifier: GPL-2.0
/*
 * The results file (harness/FORMAT.md, "Module results"): built once,
 * at the end of the run, into a buffer sized from the thread count.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include "htab_torture.h"
#include "inject.h"

/* Worst case: every bucket of every op non-empty, ~60 bytes each. */
#define HT_JSON_FIXED	(4096 + HT_MAX_FAULTS * 512 + (HT_NR_OPS + 1) * HT_HIST_BUCKETS * 64 + \
			 HT_STEP_SLOTS * 24 + HT_NR_CALLERS * 640)
/* per_cpu[], and a callers[].per_cpu[] entry of each interrupt kind */
#define HT_JSON_THREAD	(720 + (HT_NR_CALLERS - 1) * 360)
/* a callers[].per_task[] entry */
#define HT_JSON_TASK	480

/* seq_buf_puts() is not exported in 6.1 */
#define ht_puts(s, str)	seq_buf_printf(s, "%s", str)

/* "X.Y" with one decimal, without floating point. */
void ht_json_rate(struct seq_buf *s, u64 n, u64 ns)
{
	u64 tenths = ns ? mul_u64_u64_div_u64(n, 10 * NSEC_PER_SEC, ns) : 0;

	seq_buf_printf(s, "%llu.%llu", div_u64(tenths, 10),
		       tenths - div_u64(tenths, 10) * 10);
}

void ht_json_errors(struct seq_buf *s, const struct ht_stats *st)
{
	const char *sep = "";
	unsigned int i;

	ht_puts(s, "{");
	for (i = 0; i < HT_NR_KNOWN_ERR; i++) {
		if (!st->err[i])
			continue;
		seq_buf_printf(s, "%s\"%s\": %llu", sep, ht_err_names[i],
			       st->err[i]);
		sep = ", ";
	}
	if (st->other_err)
		seq_buf_printf(s, "%s\"E%d\": %llu", sep, st->other_errno,
			       st->other_err);
	ht_puts(s, "}");
}

static void ht_json_params(struct seq_buf *s)
{
	seq_buf_printf(s, "  \"params\": {\"workload\": \"%s\", \"map_type\": \"%s\", \"prealloc\": %d,\n",
		       ht.wl->name, ht.map_type_name, ht.prealloc);
	seq_buf_printf(s, "             \"max_entries\": %u, \"value_size\": %u, \"duration_ms\": %u,\n",
		       ht.max_entries, ht.value_size, ht.duration_ms);
	seq_buf_printf(s, "             \"cpus\": \"%*pbl\", \"nr_threads\": %u, \"time_ops\": %d, \"time_sample\": %u,\n",
		       cpumask_pr_args(ht.cpus), ht.nr_threads, ht.time_ops,
		       ht.time_sample);
	seq_buf_printf(s, "             \"fill_pct\": %u, \"verify\": %d, \"hold\": %d, \"per_op_rcu\": %d, \"map_id\": %u, \"fault\": \"%s\",\n",
		       ht.fill_pct, ht.verify, ht.hold, ht.per_op_rcu, ht.map_id,
		       ht_faults_str());
	seq_buf_printf(s, "             \"callers\": \"%s\", \"tasks_per_cpu\": %u},\n",
		       ht_callers_str(), ht_callers_tasks_per_cpu());
}

static void ht_json_per_cpu(struct seq_buf *s)
{
	unsigned int i;

	ht_puts(s, "  \"per_cpu\": [");
	for (i = 0; i < ht.nr_threads; i++) {
		struct ht_thread *t = &ht.threads[i];

		seq_buf_printf(s, "%s\n    {\"cpu\": %d, \"ops\": %llu, \"steps\": %llu, \"ns\": %llu, \"ops_per_sec\": ",
			       i ? "," : "", t->cpu, ht_stats_ops(t->stats), t->steps,
			       t->stats->ns);
		ht_json_rate(s, ht_stats_ops(t->stats), t->stats->ns);
		/* the seed's measure: ops per second spent in the steps */
		seq_buf_printf(s, ", \"yield_ns\": %llu, \"ops_per_busy_sec\": ",
			       t->stats->yield_ns);
		ht_json_rate(s, ht_stats_ops(t->stats),
			     t->stats->ns - min(t->stats->yield_ns, t->stats->ns));
		ht_puts(s, ", \"errors\": ");
		ht_json_errors(s, t->stats);
		seq_buf_printf(s, ", \"unexpected_errors\": %llu}",
			       t->stats->unexpected);
	}
	ht_puts(s, "],\n");
}

/* A percentile in thousandths printed as "X.YYY" (hist_pct.h's method). */
static void ht_json_pct(struct seq_buf *s, const char *name,
			const struct ht_hist *h, unsigned int pct)
{
	u64 m = ht_hist_pct_milli_of(h, pct);

	seq_buf_printf(s, ", \"%s\": %llu.%03llu", name, div_u64(m, 1000),
		       m - div_u64(m, 1000) * 1000);
}

static void ht_json_hist(struct seq_buf *s, const struct ht_hist *h)
{
	const char *sep = "";
	unsigned int i;
	u64 lo, hi;

	seq_buf_printf(s, "{\"count\": %llu, \"min\": %llu, \"max\": %llu, \"sum\": %llu",
		       h->count, h->min, h->max, h->sum);
	ht_json_pct(s, "p50", h, 50);
	ht_json_pct(s, "p90", h, 90);
	ht_json_pct(s, "p99", h, 99);
	ht_puts(s, ",\n               \"buckets\": [");
	for (i = 0; i < HT_HIST_BUCKETS; i++) {
		if (!h->b[i])
			continue;
		ht_hist_bucket_range(i, &lo, &hi);
		seq_buf_printf(s, "%s[%llu, %llu, %llu]", sep, lo, hi, h->b[i]);
		sep = ", ";
	}
	ht_puts(s, "]}");
}

/* Sampled timing: how it sampled and where in their steps timed ops sat. */
static void ht_json_timing(struct seq_buf *s)
{
	unsigned int i;

	seq_buf_printf(s, "  \"timing\": {\"time_ops\": %d, \"time_sample\": %u, \"sampling\": \"%s\", \"step_slots\": %u,\n              \"timed_step_slots\": [",
		       ht.time_ops, ht.time_sample,
		       ht.time_sample == 1 ? "every op" :
		       "uniform gap 1..2N-1 ops of each kind",
		       HT_STEP_SLOTS);
	for (i = 0; i < HT_STEP_SLOTS; i++)
		seq_buf_printf(s, "%s%llu", i ? ", " : "",
			       ht.total->timed_slot[i]);
	ht_puts(s, "],\n              \"clock_read_ns\": ");
	ht_json_hist(s, ht.clock_hist);
	ht_puts(s, "},\n");
}

static void ht_json_latency(struct seq_buf *s)
{
	const char *sep = "";
	unsigned int op;

	ht_puts(s, "  \"latency_ns\": {");
	for (op = 0; op < HT_NR_OPS; op++) {
		if (!ht.total->hist[op].count)
			continue;
		seq_buf_printf(s, "%s\n    \"%s\": ", sep, ht_op_names[op]);
		ht_json_hist(s, &ht.total->hist[op]);
		sep = ",";
	}
	ht_puts(s, "},\n");
}

/* The end walk's live elements by who stamped them (ht_walk_count()). */
static void ht_json_live_stamps(struct seq_buf *s)
{
	const u64 *n = ht.verdict.live_stamps;
	int k;

	seq_buf_printf(s, ",\n              \"live_stamps\": {\"ctl\": %llu", n[HT_NR_CALLERS]);
	for (k = 0; k < HT_NR_CALLERS; k++)
		seq_buf_printf(s, ", \"%s\": %llu", ht_caller_name(k), n[k]);
	ht_puts(s, "}");
}

static void ht_json_verdict(struct seq_buf *s)
{
	const struct ht_verdict *v = &ht.verdict;
	char buf[16];

	seq_buf_printf(s, "  \"verdict\": {\"capacity\": %u, \"reinserted\": %u, \"found\": %u, \"residual\": %llu, \"extra_insert_errno\": \"%s\",\n",
		       v->capacity, v->reinserted, v->found, v->residual,
		       v->extra_insert_err ?
		       ht_errno_name(v->extra_insert_err, buf, sizeof(buf)) :
		       "none");
	seq_buf_printf(s, "              \"unexpected_errors\": %llu, \"setup_errors\": %llu, \"fill_enomem_retries\": %llu, \"warns\": %d, \"lru_slack\": %u,\n",
		       v->unexpected_errors, ht.setup_errors,
		       ht.fill_enomem_retries, v->warns, v->lru_slack);
	seq_buf_printf(s, "              \"corrupt\": %llu, \"double_alloc\": %llu, \"walk_bad\": %llu, \"stamp_races\": %llu,\n",
		       v->corrupt, v->double_alloc, v->walk_bad,
		       ht.total->stamp_races);
	seq_buf_printf(s, "              \"e2big_not_full\": %llu, \"max_live\": %llu, \"keeps_full\": %s, \"residual_expected\": ",
		       v->e2big_not_full, ht.max_live,
		       ht.keeps_full ? "true" : "false");
	if (v->residual_checked)
		seq_buf_printf(s, "%llu", v->residual_expected);
	else
		ht_puts(s, "null");
	ht_json_live_stamps(s);
	ht_puts(s, "}\n");
}

static void ht_json_failures(struct seq_buf *s)
{
	const struct ht_verdict *v = &ht.verdict;
	int i;

	ht_puts(s, "[");
	for (i = 0; i < v->nr_failures; i++) {
		/* messages are ours: no quotes or backslashes in them */
		seq_buf_printf(s, "%s\"%s\"", i ? ", " : "", v->failures[i]);
	}
	ht_puts(s, "]");
}

int ht_results_build(void)
{
	size_t size = HT_JSON_FIXED + (size_t)ht.nr_threads *
		      (HT_JSON_THREAD + ht_callers_tasks_per_cpu() * HT_JSON_TASK);
	struct seq_buf s;
	char *buf;

	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	seq_buf_init(&s, buf, size);

	seq_buf_printf(&s, "{\n  \"module\": \"htab_torture\", \"kernel_release\": \"%s\",\n",
		       utsname()->release);
	ht_puts(&s, "  \"status\": \"done\",\n");
	ht_json_params(&s);
	seq_buf_printf(&s, "  \"result\": \"%s\", \"failures\": ",
		       ht.verdict.nr_failures ? "FAILURE" : "SUCCESS");
	ht_json_failures(&s);
	seq_buf_printf(&s, ",\n  \"duration_ns\": %llu,\n", ht.duration_ns);
	seq_buf_printf(&s, "  \"totals\": {\"ops\": %llu, \"ops_per_sec\": ",
		       ht.total->ops);
	ht_json_rate(&s, ht.total->ops, ht.duration_ns);
	seq_buf_printf(&s, ", \"ops_by_kind\": {\"%s\": %llu, \"%s\": %llu, \"%s\": %llu}",
		       ht_op_names[HT_OP_UPDATE], ht.total->ops_by[HT_OP_UPDATE],
		       ht_op_names[HT_OP_LOOKUP], ht.total->ops_by[HT_OP_LOOKUP],
		       ht_op_names[HT_OP_DELETE], ht.total->ops_by[HT_OP_DELETE]);
	ht_puts(&s, ", \"errors\": ");
	ht_json_errors(&s, ht.total);
	ht_puts(&s, "},\n");
	ht_json_per_cpu(&s);
	ht_json_latency(&s);
	ht_json_timing(&s);
	ht_faults_json(&s);
	ht_callers_json(&s);
	ht_json_verdict(&s);
	ht_puts(&s, "}\n");

	if (seq_buf_has_overflowed(&s)) {
		pr_err("results JSON overflowed %zu bytes\n", size);
		kvfree(buf);
		return -EOVERFLOW;
	}
	ht.results_len = seq_buf_used(&s);
	ht.results = buf;
	return 0;
}
