// SPDX-License-Identifier: GPL-2.0
/*
 * The task caller kind (callers=...+task): tasks_per_cpu user-space tasks
 * per worker CPU, unbound and preemptible, call the map through the bpf()
 * syscall as user programs do (vm-images/guest/tasks.c, which the guest
 * runner starts when debugfs has htab_torture/tasks). Bound kthreads that
 * keep migration off for a step keep windows shut that tasks preempted in
 * the middle of an update, more of them than CPUs, open (issue 28).
 *
 * This side of kmod/tasks_proto.h: the contract the tasks read (the map's
 * id, their keys and writer ids in the module's stamp format), the window
 * they block on (opened with the workers'), and their reports, taken in
 * before the verdict so that every check covers them: each task's last
 * sequence joins the end walk's stamp check, its live elements the
 * conservation, its errnos (E2BIG legal on a hash map, ENOMEM without
 * prealloc, what a fault forces), its corrupt / double_alloc counts and
 * first failure the verdict.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "htab_torture.h"
#include "inject.h"
#include "tasks_proto.h"

/*
 * How long the controller waits for the tasks: to hold the map's fd
 * before the window opens (fork and exec of a few hundred static
 * processes under TCG), and to report after it closed (a task descheduled
 * at the deadline ends its call first).
 */
#define HT_TASK_ATTACH_MS	60000
#define HT_TASK_REPORT_MS	30000

static struct {
	struct ht_caller *c;
	unsigned int n;
	struct mutex lock;	/* writes to tasks; closed */
	wait_queue_head_t wq;	/* the controller's waits */
	unsigned int attached, reported;	/* written under lock */
	bool closed;		/* reports refused: the verdict reads them */
	u64 attach_ms;		/* how long the attach wait took */
	unsigned int late;	/* not attached when the window opened */
	bool active;
} htt;

/* The report's errno counts, in HT_TASK_ERRNOS order. */
#define HT_TR_ERRVAL(name)	(-name),
static const int ht_task_errnos[HT_TR_NR_ERRNOS] = { HT_TASK_ERRNOS(HT_TR_ERRVAL) };
#undef HT_TR_ERRVAL

/* E2BIG: a full map; ENOMEM: bpf_mem_alloc (no prealloc); a fault's own. */
static u32 ht_tasks_expected(void)
{
	return HT_ERRBIT(HT_E2BIG) | ht_faults_expected_errors() |
	       (ht.prealloc ? 0 : HT_ERRBIT(HT_ENOMEM));
}

static ssize_t ht_tasks_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	char line[HT_TASK_LINE_MAX];
	int len;

	len = scnprintf(line, sizeof(line),
			"map_id=%u value_size=%u percpu=%d possible_cpus=%u tasks=%u key0=%u key_stride=%u keys=%u writer0=%u keeps_full=%d verify=%d\n",
			ht.map->id, ht.value_size, ht.percpu, num_possible_cpus(),
			htt.n, HT_CALLER_KEY0(HT_CALLER_task, 0), HT_CALLER_KEYS,
			HT_CALLER_KEYS, HT_WRITER_CALLER(HT_CALLER_task, 0),
			ht.keeps_full, ht.verify);
	return simple_read_from_buffer(buf, count, ppos, line, len);
}

static void ht_task_errno(struct ht_stats *st, u64 n, int err)
{
	enum ht_err e = ht_err_index(err);

	if (!n)
		return;
	st->err[e] += n;
	if (!(ht_tasks_expected() & HT_ERRBIT(e)))
		st->unexpected += n;
}

/* A task's report into its struct ht_caller; under htt.lock. */
static int ht_task_take_report(const unsigned long long *v)
{
	struct ht_caller *c = &htt.c[v[HT_TR_task]];
	struct ht_stats *st = c->stats;
	struct ht_stamp seen;
	int i;

	if (c->reported)
		return -EEXIST;
	if (v[HT_TR_bad] >= HT_TASK_NR_BADS || v[HT_TR_live] > v[HT_TR_update])
		return -EINVAL;
	c->pid = v[HT_TR_pid];
	c->calls = c->in_ctx = v[HT_TR_calls];
	c->seq = v[HT_TR_seq];
	c->cpu = v[HT_TR_cpu];
	c->migrations = v[HT_TR_migrations];
	c->nvcsw = v[HT_TR_nvcsw];
	c->nivcsw = v[HT_TR_nivcsw];
	st->ops_by[HT_OP_UPDATE] = v[HT_TR_update];
	st->ops_by[HT_OP_LOOKUP] = v[HT_TR_lookup];
	st->ops_by[HT_OP_DELETE] = v[HT_TR_delete];
	st->live_delta = v[HT_TR_live];
	for (i = 0; i < HT_TR_NR_ERRNOS; i++)
		ht_task_errno(st, v[HT_TR_ERR0 + i], ht_task_errnos[i]);
	if (v[HT_TR_other]) {
		st->other_err = v[HT_TR_other];
		st->other_errno = v[HT_TR_other_errno];
		st->unexpected += v[HT_TR_other];
	}
	st->corrupt = v[HT_TR_corrupt];
	st->double_alloc = v[HT_TR_double_alloc];
	c->double_key = v[HT_TR_double_key];
	if (v[HT_TR_bad]) {
		seen = (struct ht_stamp){ v[HT_TR_seen_key], v[HT_TR_seen_writer],
					  v[HT_TR_seen_seq] };
		ht_bad_note(&c->bad, v[HT_TR_bad_cpu], ht_task_bad_names[v[HT_TR_bad]],
			    v[HT_TR_bad_key], c->writer, v[HT_TR_bad_seq], &seen);
	}
	c->reported = true;
	WRITE_ONCE(htt.reported, htt.reported + 1);
	return 0;
}

/* "ready task=I" or "report task=I ..." (kmod/tasks_proto.h). */
static int ht_tasks_command(char *line)
{
	unsigned long long v[HT_TR_NR] = { 0 }, seen;
	bool report = !strncmp(line, "report ", 7);
	int ret;

	if (!report && strncmp(line, "ready ", 6))
		return -EINVAL;
	ret = ht_tp_parse(line + (report ? 7 : 6), ht_task_report_names,
			  report ? HT_TR_NR : 1, v, &seen);
	if (ret || !ht_tp_all(seen, report ? HT_TR_NR : 1) || v[HT_TR_task] >= htt.n)
		return -EINVAL;
	mutex_lock(&htt.lock);
	if (!report) {
		ret = htt.c[v[HT_TR_task]].attached ? -EEXIST : 0;
		if (!ret) {
			htt.c[v[HT_TR_task]].attached = true;
			WRITE_ONCE(htt.attached, htt.attached + 1);
		}
	} else {
		ret = htt.closed ? -ESTALE : ht_task_take_report(v);
	}
	mutex_unlock(&htt.lock);
	wake_up_all(&htt.wq);
	return ret;
}

static ssize_t ht_tasks_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	char *line;
	int ret;

	if (count >= HT_TASK_LINE_MAX)
		return -EINVAL;
	line = memdup_user_nul(buf, count);
	if (IS_ERR(line))
		return PTR_ERR(line);
	ret = ht_tasks_command(line);
	kfree(line);
	return ret ? ret : count;
}

/* Blocks until the workers' window opens, or the module goes away. */
static ssize_t ht_tasks_window_read(struct file *file, char __user *buf,
				    size_t count, loff_t *ppos)
{
	char line[128];
	int len;

	if (!*ppos && wait_event_interruptible(ht.start_wq,
					       /* acquire: end_ns comes before started */
					       smp_load_acquire(&ht.started) ||
					       READ_ONCE(ht.abort)))
		return -EINTR;
	len = scnprintf(line, sizeof(line), "start_ns=%llu end_ns=%llu abort=%d\n",
			ht.start_ns, ht.end_ns, READ_ONCE(ht.abort));
	return simple_read_from_buffer(buf, count, ppos, line, len);
}

static const struct file_operations ht_tasks_fops = {
	.owner = THIS_MODULE,
	.read = ht_tasks_read,
	.write = ht_tasks_write,
	.llseek = default_llseek,
};

static const struct file_operations ht_tasks_window_fops = {
	.owner = THIS_MODULE,
	.read = ht_tasks_window_read,
	.llseek = default_llseek,
};

/* With the task kind: its files, where the runner looks for them. */
void ht_tasks_debugfs(struct dentry *dir)
{
	htt.c = ht_callers_of(HT_CALLER_task, &htt.n);
	if (!htt.c)
		return;
	mutex_init(&htt.lock);
	init_waitqueue_head(&htt.wq);
	htt.attached = htt.reported = htt.late = 0;
	htt.closed = false;
	htt.active = true;
	debugfs_create_file("tasks", 0600, dir, NULL, &ht_tasks_fops);
	debugfs_create_file("window", 0400, dir, NULL, &ht_tasks_window_fops);
}

/*
 * Bounded: wait for *count (only grows) to reach htt.n; false on timeout
 * or unload. The caller takes htt.lock after, which orders what the
 * writers stored before their count.
 */
static bool ht_tasks_wait(const unsigned int *count, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (READ_ONCE(*count) < htt.n) {
		if (time_after(jiffies, end) || kthread_should_stop() ||
		    READ_ONCE(ht.abort))
			return false;
		wait_event_interruptible_timeout(htt.wq,
						 READ_ONCE(*count) >= htt.n ||
						 kthread_should_stop() ||
						 READ_ONCE(ht.abort), HZ / 10);
	}
	return true;
}

/*
 * The controller, after the setup: the window opens once every task
 * holds the map's fd, or after HT_TASK_ATTACH_MS without the rest (their
 * reports are still awaited: a late task runs what is left of it).
 */
void ht_tasks_wait_attached(void)
{
	u64 t0 = ktime_get_ns();

	if (!htt.active)
		return;
	if (!ht_tasks_wait(&htt.attached, HT_TASK_ATTACH_MS)) {
		mutex_lock(&htt.lock);
		htt.late = htt.n - htt.attached;
		mutex_unlock(&htt.lock);
		pr_warn("callers: %u of %u tasks not ready after %u ms (is htab-tasks running?)\n",
			htt.late, htt.n, HT_TASK_ATTACH_MS);
	}
	htt.attach_ms = div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC);
}

/*
 * The controller, once the workers are done: every task's counts in
 * (the tasks stop at end_ns by themselves), then no more taken, so the
 * verdict reads final ones and no task op runs beside it.
 */
void ht_tasks_wait_reports(void)
{
	if (!htt.active)
		return;
	ht_tasks_wait(&htt.reported, HT_TASK_REPORT_MS);
	mutex_lock(&htt.lock);
	htt.closed = true;
	mutex_unlock(&htt.lock);
}

/* rmmod: let a task blocked on window go (ht.abort is set). */
void ht_tasks_abort(void)
{
	wake_up_all(&ht.start_wq);
	if (htt.active)
		wake_up_all(&htt.wq);
}

/* First in the verdict: without every report nothing else adds up. */
void ht_tasks_verify(void)
{
	if (htt.active && htt.reported < htt.n)
		ht_verdict_fail("task callers: %u of %u tasks sent no report (htab-tasks not running, or killed)",
				htt.n - htt.reported, htt.n);
}

/* The task kind's row, after its totals: how the tasks ran, per task. */
void ht_tasks_json(struct seq_buf *s, const struct ht_caller *c, unsigned int n)
{
	u64 mig = 0, nv = 0, niv = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		mig += c[i].migrations;
		nv += c[i].nvcsw;
		niv += c[i].nivcsw;
	}
	seq_buf_printf(s, ", \"worker_cpus\": %u, \"attached\": %u, \"late\": %u, \"attach_ms\": %llu, \"reported\": %u, \"migrations\": %llu, \"nvcsw\": %llu, \"nivcsw\": %llu,\n     \"per_task\": [",
		       ht.nr_threads, htt.attached, htt.late, htt.attach_ms,
		       htt.reported, mig, nv, niv);
	for (i = 0; i < n; i++) {
		seq_buf_printf(s, "%s{\"task\": %u, \"pid\": %u, \"cpu\": %d, \"calls\": %llu, \"ops\": %llu, \"migrations\": %llu, \"nvcsw\": %llu, \"nivcsw\": %llu, \"errors\": ",
			       i ? ", " : "", i, c[i].pid, c[i].cpu, c[i].calls,
			       c[i].stats->ops, c[i].migrations, c[i].nvcsw,
			       c[i].nivcsw);
		ht_json_errors(s, c[i].stats);
		seq_buf_printf(s, "}");
	}
	seq_buf_printf(s, "]}");
}
