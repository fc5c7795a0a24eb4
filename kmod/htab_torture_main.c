// SPDX-License-Identifier: GPL-2.0
/*
 * htab_torture: stress the BPF hash map element allocator (the per-CPU
 * freelist of preallocated maps, bpf_mem_alloc otherwise, the LRU lists)
 * from one bound kthread per CPU, calling the map ops as a BPF program
 * does. Parameters, lifecycle, the controller thread and debugfs live
 * here; the workloads are in wl_*.c, the verdict in verify.c.
 *
 * insmod returns once the threads exist; a controller kthread fills the
 * map, releases the workers together, waits for them (they stop on a
 * ktime deadline), runs the verdict and publishes
 * /sys/kernel/debug/htab_torture/{status,results}.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/panic.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "htab_torture.h"
#include "inject.h"

MODULE_LICENSE("GPL");
HT_IMPORT_BPF_NS();
MODULE_DESCRIPTION("BPF hash map allocator torture test");

/*
 * Every parameter but fault= (inject.c), from its row in params.h:
 * static int max_entries = 4096; module_param(max_entries, int, 0444); ...
 */
#define HT_CTYPE_int	int
#define HT_CTYPE_charp	char *
#define HT_PARAM_DECLARE(type, name, dflt, min, max, help)		\
	static HT_CTYPE_##type name = dflt;				\
	module_param(name, type, 0444);					\
	MODULE_PARM_DESC(name, HT_PARAM_DESC_##type(help, dflt, min, max));
HT_PARAMS(HT_PARAM_DECLARE)
#undef HT_PARAM_DECLARE

/* " full_update overwrite …": the unknown-name error. */
#define HT_WL_NAMES HT_WORKLOADS(HT_SPACE_NAME)

struct ht_ctx ht;
DEFINE_PER_CPU(struct task_struct *, ht_cpu_worker);

#define HT_WL_ENTRY(name) &ht_wl_##name,
static const struct ht_workload *ht_workloads[] = { HT_WORKLOADS(HT_WL_ENTRY) };
#undef HT_WL_ENTRY

#define HT_MAP_TYPE_ENTRY(name, bpf, is_lru, is_percpu)		\
	{ #name, BPF_MAP_TYPE_##bpf, is_lru, is_percpu },
static const struct {
	const char *name;
	enum bpf_map_type type;
	bool lru;
	bool percpu;
} ht_map_types[] = { HT_MAP_TYPES(HT_MAP_TYPE_ENTRY) };
#undef HT_MAP_TYPE_ENTRY

/* The int parameters' bounds (params.h); a default outside them is a sentinel. */
#define HT_BOUND(type, name, dflt, min, max, help)			\
	HT_PARAM_IF_##type({ #name, &name, dflt, min, max },)
static const struct {
	const char *name;
	int *val;
	int dflt;
	int min;
	int max;
} ht_bounds[] = { HT_PARAMS(HT_BOUND) };
#undef HT_BOUND

static const char * const ht_selftests[] = {
	[HT_SELFTEST_NONE] = "none",
	[HT_SELFTEST_CORRUPT] = "corrupt",
	[HT_SELFTEST_DOUBLE_ALLOC] = "double_alloc",
	[HT_SELFTEST_OOPS] = "oops",
};

static bool ht_cpus_allocated;

static void ht_names_add(char *buf, size_t size, const char *name)
{
	size_t len = strlen(buf);

	snprintf(buf + len, size - len, " %s", name);
}

static int ht_parse_names(void)
{
	char names[128] = "";
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ht_workloads); i++)
		if (!strcmp(workload, ht_workloads[i]->name))
			ht.wl = ht_workloads[i];
	if (!ht.wl) {
		pr_err("workload=%s unknown; valid:%s\n", workload, HT_WL_NAMES);
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(ht_map_types); i++)
		if (!strcmp(map_type, ht_map_types[i].name)) {
			ht.map_type_name = ht_map_types[i].name;
			ht.map_type = ht_map_types[i].type;
			ht.lru = ht_map_types[i].lru;
			ht.percpu = ht_map_types[i].percpu;
		}
	if (!ht.map_type_name) {
		pr_err("map_type=%s unknown; valid:%s\n", map_type,
		       HT_MAP_TYPES(HT_SPACE_NAME));
		return -EINVAL;
	}
	ht.selftest = match_string(ht_selftests, ARRAY_SIZE(ht_selftests),
				   selftest);
	if (ht.selftest < 0) {
		names[0] = '\0';
		for (i = 0; i < ARRAY_SIZE(ht_selftests); i++)
			ht_names_add(names, sizeof(names), ht_selftests[i]);
		pr_err("selftest=%s unknown; valid:%s\n", selftest, names);
		return -EINVAL;
	}
	return ht_callers_parse(callers, caller_period_us, tasks_per_cpu);
}

static int ht_validate_params(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(ht_bounds); i++) {
		int v = *ht_bounds[i].val, min = ht_bounds[i].min;
		int max = ht_bounds[i].max, dflt = ht_bounds[i].dflt;

		if (v == dflt || (v >= min && v <= max))
			continue;
		if (dflt >= min && dflt <= max)
			pr_err("%s=%d out of range %d..%d\n", ht_bounds[i].name,
			       v, min, max);
		else
			pr_err("%s=%d out of range %d..%d (or %d, the default)\n",
			       ht_bounds[i].name, v, min, max, dflt);
		return -EINVAL;
	}
	ret = ht_parse_names();
	if (ret)
		return ret;
	/* hashtab.c refuses BPF_F_NO_PREALLOC on LRU maps: say so first. */
	if (!map_id && ht.lru && !prealloc) {
		pr_err("map_type=%s needs prealloc=1: LRU maps are always preallocated\n",
		       map_type);
		return -EINVAL;
	}
	ht.prealloc = prealloc;
	ht.max_entries = max_entries;
	ht.value_size = value_size;
	ht.duration_ms = duration_ms;
	ht.time_ops = time_ops;
	ht.time_sample = time_sample;
	ht.per_op_rcu = per_op_rcu;
	ht.fill_pct = fill_pct;
	ht.verify = verify;
	ht.hold = hold;
	return 0;
}

static void ht_wait_for_stop(void)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
}

/*
 * The deadline is read every HT_CLOCK_STEPS steps (HT_BATCH ops each), not
 * every step: under TCG a clock read is not free, and time_ops=0 should
 * differ from time_ops=1 by the per-op timing alone. A run overshoots its
 * duration by at most HT_CLOCK_STEPS - 1 steps.
 */
#define HT_CLOCK_STEPS	8

/*
 * selftest=: plant one fault for the tests, in worker 0 after 16 steps,
 * so the run is under way. corrupt rewrites the stamp of key 0 (if
 * present) to name another key, as an element shared by two keys would.
 */
static void ht_selftest_plant(struct ht_thread *t)
{
	struct bpf_map *map = ht.map;
	int * volatile nowhere = NULL;
	struct ht_stamp *v;
	u32 key = 0;

	switch (ht.selftest) {
	case HT_SELFTEST_CORRUPT:
		rcu_read_lock();
		migrate_disable();
		v = map->ops->map_lookup_elem(map, &key);
		if (v)
			WRITE_ONCE(v->key, 0x5eed);
		migrate_enable();
		rcu_read_unlock();
		break;
	case HT_SELFTEST_OOPS:
		*nowhere = 1;
		break;
	}
}

static void ht_worker_loop(struct ht_thread *t)
{
	unsigned int n = 0;
	u64 t0, now;

	t0 = ktime_get_ns();
	now = t0;
	this_cpu_write(ht_cpu_worker, current);
	ht_callers_start(t);
	do {
		/*
		 * One RCU read section with migration off per step, as a BPF
		 * program holds one per run (bpf_loop's 10000 updates in the
		 * seed's driver); between steps the thread may reschedule.
		 */
		t->step_ops0 = ht_stats_ops(t->stats);
		if (likely(!ht.per_op_rcu)) {
			rcu_read_lock();
			migrate_disable();
		}
		ht.wl->step(t);
		if (likely(!ht.per_op_rcu)) {
			migrate_enable();
			rcu_read_unlock();
		}
		if (unlikely(ht.selftest) && !t->idx && n == 16)
			ht_selftest_plant(t);
		/*
		 * Time given to other tasks here is not the map's: it is
		 * counted (yield_ns) so a rate can leave it out, as the
		 * seed's driver times only its bpf_loop(). Read the clock
		 * only when a reschedule is due.
		 */
		if (unlikely(need_resched())) {
			u64 y = ktime_get_ns();

			cond_resched();
			t->stats->yield_ns += ktime_get_ns() - y;
		}
		if (++n % HT_CLOCK_STEPS)
			continue;
		now = ktime_get_ns();
	} while (!READ_ONCE(ht.stop) && now < ht.end_ns);
	ht_callers_stop(t);
	this_cpu_write(ht_cpu_worker, NULL);
	t->stats->ns = ktime_get_ns() - t0;
}

static int ht_worker(void *arg)
{
	struct ht_thread *t = arg;

	/* acquire: pairs with the controller's release of end_ns */
	wait_event_interruptible(ht.start_wq, smp_load_acquire(&ht.started) ||
				 kthread_should_stop());
	if (smp_load_acquire(&ht.started) && !kthread_should_stop()) /* as above */
		ht_worker_loop(t);
	if (atomic_dec_and_test(&ht.nr_running))
		wake_up(&ht.done_wq);
	ht_wait_for_stop();
	return 0;
}

void ht_report_events(const char *test_name)
{
	unsigned int i;

	for (i = 0; i < ht.nr_threads; i++)
		pr_info("%d:%s %llu events per sec\n", ht.threads[i].cpu,
			test_name, ht_rate(ht.threads[i].steps,
					   ht.threads[i].stats->ns));
}

/* Seed 002: one "op" is 64 map ops; per-prod-op is the mean per thread. */
void ht_report_per_prod_op(void)
{
	u64 sum = 0, r;
	unsigned int i;

	for (i = 0; i < ht.nr_threads; i++) {
		struct ht_thread *t = &ht.threads[i];

		/* hundredths of k/s */
		r = t->stats->ns ? mul_u64_u64_div_u64(t->steps, 100000000ULL,
						       t->stats->ns) : 0;
		sum += r;
		pr_info("%d:%s per-prod-op %llu.%02llu k/s\n", t->cpu,
			ht.wl->name, r / 100, r % 100);
	}
	r = div_u64(sum, ht.nr_threads);
	pr_info("%-20s per-prod-op : %llu.%02llu k/s\n", ht.wl->name,
		r / 100, r % 100);
}

/* Fill keys 0..n-1 for a workload's setup; failures become setup_errors. */
int ht_fill_for_setup(u32 n)
{
	return ht_fill_for_setup_except(n, NULL);
}

/* As ht_fill_for_setup(), leaving out the keys @skip says (NULL: none). */
int ht_fill_for_setup_except(u32 n, bool (*skip)(u32 key))
{
	int ret = ht_map_fill_except(n, BPF_NOEXIST, skip);
	u32 key, tried = n;

	if (ret < 0)
		return ret;
	for (key = 0; skip && key < n; key++)
		tried -= skip(key);
	ht.setup_errors += ret;
	ht.fill_ok = tried - ret;
	return 0;
}

static void ht_print_end(void)
{
	const struct ht_verdict *v = &ht.verdict;
	bool ok = !v->nr_failures;

	pr_alert("End of test: %s: workload=%s map_type=%s prealloc=%d max_entries=%u value_size=%u duration_ms=%u cpus=%*pbl nr_threads=%u time_ops=%d time_sample=%u fill_pct=%u verify=%d map_id=%u fault=%s callers=%s%s%s\n",
		 ok ? "SUCCESS" : "FAILURE", ht.wl->name, ht.map_type_name,
		 ht.prealloc, ht.max_entries, ht.value_size, ht.duration_ms,
		 cpumask_pr_args(ht.cpus), ht.nr_threads, ht.time_ops,
		 ht.time_sample, ht.fill_pct, ht.verify, ht.map_id,
		 ht_faults_str(), ht_callers_str(), ok ? "" : " failed: ",
		 ok ? "" : v->failures[0]);
}

static void ht_finish(void)
{
	unsigned int i;

	for (i = 0; i < ht.nr_threads; i++)
		ht_stats_merge(ht.total, ht.threads[i].stats);
	ht_verify();
	if (READ_ONCE(ht.abort))
		return;
	if (ht_results_build())
		ht_verdict_fail("could not build the results JSON");
	ht.wl->report();
	ht_print_end();
	/* release: readers of status/results see the finished buffer */
	smp_store_release(&ht.done, true);
}

/*
 * hold=1: publish @phase in status and wait for the runner's write to gate
 * (or for rmmod). Lets the runner reset gcov's counters once the map is
 * filled and snapshot them before the verdict's own pops and pushes, so
 * coverage is the workload's. Gates are counted: the nth wait ends at the
 * nth write.
 */
static void ht_hold(enum ht_phase phase, int gate)
{
	if (!ht.hold)
		return;
	/* release: a runner that sees the phase finds the step before done */
	smp_store_release(&ht.phase, phase);
	wait_event_interruptible(ht.gate_wq, atomic_read(&ht.gate) >= gate ||
				 kthread_should_stop());
	smp_store_release(&ht.phase, HT_PHASE_RUNNING);
}

static int ht_controller(void *unused)
{
	int ret = 0;

	if (ht.wl->setup)
		ret = ht.wl->setup();
	if (ret || READ_ONCE(ht.abort))
		goto out;
	ht_tasks_wait_attached();
	ht_hold(HT_PHASE_READY, 1);
	if (kthread_should_stop())
		goto out;

	ht_faults_enable();
	ht.start_ns = ktime_get_ns();
	ht.end_ns = ht.start_ns + (u64)ht.duration_ms * NSEC_PER_MSEC;
	/* release: workers read end_ns only after seeing started */
	smp_store_release(&ht.started, true);
	wake_up_all(&ht.start_wq);

	while (atomic_read(&ht.nr_running) && !kthread_should_stop())
		wait_event_interruptible_timeout(ht.done_wq,
						 !atomic_read(&ht.nr_running) ||
						 kthread_should_stop(), HZ);
	ht.duration_ns = ktime_get_ns() - ht.start_ns;
	ht_callers_drain();
	ht_faults_disable();
	ht_hold(HT_PHASE_MEASURED, 2);
	if (!kthread_should_stop() && !READ_ONCE(ht.abort))
		ht_finish();
out:
	ht_wait_for_stop();
	return 0;
}

static ssize_t ht_status_read(struct file *file, char __user *buf,
			      size_t count, loff_t *ppos)
{
	static const char * const phases[] = {
		[HT_PHASE_RUNNING] = "running\n",
		[HT_PHASE_READY] = "ready\n",
		[HT_PHASE_MEASURED] = "measured\n",
	};
	/* acquire: pairs with ht_finish() and ht_hold() */
	const char *s = smp_load_acquire(&ht.done) ? "done\n" :
			phases[smp_load_acquire(&ht.phase)];

	return simple_read_from_buffer(buf, count, ppos, s, strlen(s));
}

static ssize_t ht_results_read(struct file *file, char __user *buf,
			       size_t count, loff_t *ppos)
{
	static const char running[] =
		"{\"module\": \"htab_torture\", \"status\": \"running\"}\n";

	/* acquire: pairs with ht_finish(), results is then complete */
	if (!smp_load_acquire(&ht.done))
		return simple_read_from_buffer(buf, count, ppos, running,
					       sizeof(running) - 1);
	return simple_read_from_buffer(buf, count, ppos, ht.results,
				       ht.results_len);
}

/* hold=1: any write lets the controller go on from its current stop */
static ssize_t ht_gate_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	atomic_inc(&ht.gate);
	wake_up_all(&ht.gate_wq);
	return count;
}

static const struct file_operations ht_gate_fops = {
	.owner = THIS_MODULE,
	.write = ht_gate_write,
	.llseek = noop_llseek,
};

static const struct file_operations ht_status_fops = {
	.owner = THIS_MODULE,
	.read = ht_status_read,
	.llseek = default_llseek,
};

static const struct file_operations ht_results_fops = {
	.owner = THIS_MODULE,
	.read = ht_results_read,
	.llseek = default_llseek,
};

/* One cleanup for init's unwind and module_exit; safe to run twice. */
static void ht_cleanup(void)
{
	unsigned int i;

	WRITE_ONCE(ht.abort, true);
	WRITE_ONCE(ht.stop, true);
	ht_tasks_abort();
	for (i = 0; ht.threads && i < ht.nr_threads; i++) {
		if (ht.threads[i].task) {
			kthread_stop(ht.threads[i].task);
			put_task_struct(ht.threads[i].task);
			ht.threads[i].task = NULL;
		}
	}
	if (ht.controller) {
		kthread_stop(ht.controller);
		put_task_struct(ht.controller);
		ht.controller = NULL;
	}
	debugfs_remove_recursive(ht.dir);
	ht.dir = NULL;
	ht_callers_cleanup();
	ht_faults_cleanup();
	ht_map_close();
	for (i = 0; ht.threads && i < ht.nr_threads; i++) {
		kvfree(ht.threads[i].stats);
		kfree(ht.threads[i].value);
	}
	kfree(ht.threads_mem);
	ht.threads_mem = NULL;
	ht.threads = NULL;
	kvfree(ht.clock_hist);
	ht.clock_hist = NULL;
	kvfree(ht.results);
	ht.results = NULL;
	kvfree(ht.total);
	ht.total = NULL;
	kfree(ht.ctl_value);
	ht.ctl_value = NULL;
	if (ht_cpus_allocated) {
		free_cpumask_var(ht.cpus);
		ht_cpus_allocated = false;
	}
}

/*
 * The floor under every timed op: back-to-back ktime_get_ns() reads on
 * the loading CPU, published beside the op histograms (clock_read_ns).
 * A timed op's latency includes about one clock read; under TCG a read
 * costs about as much as a pop, so a reader needs this to judge the
 * low percentiles.
 */
#define HT_CLOCK_CALIBRATION_READS	20000

static int ht_clock_calibrate(void)
{
	unsigned int i;
	u64 a, b;

	ht.clock_hist = kvzalloc(sizeof(*ht.clock_hist), GFP_KERNEL);
	if (!ht.clock_hist)
		return -ENOMEM;
	for (i = 0; i < HT_CLOCK_CALIBRATION_READS; i++) {
		a = ktime_get_ns();
		b = ktime_get_ns();
		ht_hist_add(ht.clock_hist, b - a);
		if (!(i % 1024))
			cond_resched();
	}
	return 0;
}

static int ht_alloc_threads(void)
{
	unsigned int i = 0, op;
	int cpu;

	/* kcalloc() aligns to 8 only: align the array to a cache line */
	ht.threads_mem = kzalloc(array_size(ht.nr_threads, sizeof(*ht.threads)) +
				 SMP_CACHE_BYTES, GFP_KERNEL);
	ht.total = kvzalloc(sizeof(*ht.total), GFP_KERNEL);
	if (!ht.threads_mem || !ht.total)
		return -ENOMEM;
	ht.threads = PTR_ALIGN(ht.threads_mem, SMP_CACHE_BYTES);
	for_each_cpu(cpu, ht.cpus) {
		struct ht_thread *t = &ht.threads[i];

		t->idx = i++;
		t->cpu = cpu;
		prandom_seed_state(&t->rnd, get_random_u64());
		for (op = 0; op < HT_NR_OPS; op++)
			t->sample_left[op] = ht_sample_gap(t);
		t->stats = kvzalloc(sizeof(*t->stats), GFP_KERNEL);
		/* written every op: a line of its own (kmalloc-64 and up align) */
		t->value = kzalloc(round_up(ht.value_size, HT_VALUE_ALIGN), GFP_KERNEL);
		if (!t->stats || !t->value)
			return -ENOMEM;
	}
	return 0;
}

/*
 * What the verdict may expect, once the map (possibly adopted) is known.
 * Errnos: the workload's own; E2BIG on any hash map, because 6.1's
 * __pcpu_freelist_pop skips lists that look empty without their lock and
 * can miss an element pushed meanwhile (the verdict reports it as
 * e2big_not_full where the map cannot have been full, and counts lost
 * elements by itself); whatever the armed faults force (exhaust: E2BIG);
 * ENOMEM where the kernel may legitimately run out: bpf_mem_alloc's
 * per-CPU caches refill from irq_work, so a no-prealloc insert can fail
 * under load, and an LRU map whose nodes all fit in the CPUs' local
 * lists (HT_LRU_LOCAL_SLACK) can find none free on its own CPU.
 */
static void ht_derive_expectations(void)
{
	u32 e = ht.wl->expected_errors | ht_faults_expected_errors();

	if (ht.lru)
		e |= ht.wl->lru_expected_errors;
	else
		e |= HT_ERRBIT(HT_E2BIG);
	if (!ht.prealloc ||
	    (ht.lru && ht.max_entries < HT_LRU_LOCAL_SLACK(ht.max_entries)))
		e |= HT_ERRBIT(HT_ENOMEM);
	ht.expected_errors = e;
	ht.max_live = ht.wl->max_live ? ht.wl->max_live() : ht.max_entries;
	/* an interrupt caller holds its keys while an EBUSY delete leaves them */
	ht.max_live = min_t(u64, ht.max_live + ht_callers_max_live(),
			    ht.max_entries);
	ht.keeps_full = ht.wl->keeps_full && ht.wl->keeps_full();
}

/* Workers wait for the controller's start signal; hold a task ref each. */
static int ht_start_threads(void)
{
	struct task_struct *task;
	unsigned int i;

	atomic_set(&ht.nr_running, ht.nr_threads);
	for (i = 0; i < ht.nr_threads; i++) {
		task = kthread_create_on_cpu(ht_worker, &ht.threads[i],
					     ht.threads[i].cpu, "htab_torture/%u");
		if (IS_ERR(task))
			return PTR_ERR(task);
		get_task_struct(task);
		ht.threads[i].task = task;
		wake_up_process(task);
	}
	task = kthread_run(ht_controller, NULL, "htab_torture_ctl");
	if (IS_ERR(task))
		return PTR_ERR(task);
	get_task_struct(task);
	ht.controller = task;
	return 0;
}

/*
 * A map the guest cannot hold would fail deep in the kernel (or push it
 * into the OOM killer, which is not an allocator bug): refuse it here,
 * naming what it needs and what there is. Adopted maps exist already.
 */
static int ht_check_footprint(void)
{
	u64 need, ram = (u64)totalram_pages() << PAGE_SHIFT;

	if (map_id)
		return 0;
	need = ht_map_footprint();
	if (need <= ram / 2)
		return 0;
	pr_err("map footprint %llu MiB (%s max_entries=%u value_size=%u prealloc=%d, %u possible CPUs) exceeds half of the guest's %llu MiB: give the guest more memory or make the map smaller\n",
	       need >> 20, ht.map_type_name, ht.max_entries, ht.value_size,
	       ht.prealloc, num_possible_cpus(), ram >> 20);
	return -EINVAL;
}

static int __init ht_init(void)
{
	int ret;

	memset(&ht, 0, sizeof(ht));
	init_waitqueue_head(&ht.start_wq);
	init_waitqueue_head(&ht.done_wq);
	init_waitqueue_head(&ht.gate_wq);
	ht.warn_at_start = test_taint(TAINT_WARN);

	ret = ht_validate_params();
	if (ret)
		return ret;
	if (!zalloc_cpumask_var(&ht.cpus, GFP_KERNEL))
		return -ENOMEM;
	ht_cpus_allocated = true;
	ret = ht_cpus_parse(cpus, ht.cpus);
	if (ret)
		goto fail;
	ht.nr_threads = cpumask_weight(ht.cpus);
	if (ht.wl->validate) {
		ret = ht.wl->validate();
		if (ret)
			goto fail;
	}
	ret = ht_faults_init();
	if (ret)
		goto fail;
	ret = -ENOMEM;
	ht.ctl_value = kzalloc(round_up(value_size, 8), GFP_KERNEL);
	if (!ht.ctl_value)
		goto fail;
	ret = ht_check_footprint();
	if (ret)
		goto fail;
	ret = ht_map_open(map_id);
	if (ret)
		goto fail;
	/* an adopted map may have a larger value than the parameter said */
	if (round_up(ht.value_size, 8) > round_up(value_size, 8)) {
		kfree(ht.ctl_value);
		ht.ctl_value = kzalloc(round_up(ht.value_size, 8), GFP_KERNEL);
		if (!ht.ctl_value) {
			ret = -ENOMEM;
			goto fail;
		}
	}
	ret = ht_callers_check_map();
	if (ret)
		goto fail;
	ht_derive_expectations();
	ret = ht_alloc_threads();
	if (!ret)
		ret = ht_callers_init();
	if (!ret)
		ret = ht_clock_calibrate();
	if (ret)
		goto fail;

	ht.dir = debugfs_create_dir("htab_torture", NULL);
	debugfs_create_file("status", 0444, ht.dir, NULL, &ht_status_fops);
	debugfs_create_file("results", 0444, ht.dir, NULL, &ht_results_fops);
	debugfs_create_file("gate", 0200, ht.dir, NULL, &ht_gate_fops);
	ht_tasks_debugfs(ht.dir);

	pr_info("start: workload=%s map_type=%s prealloc=%d max_entries=%u value_size=%u duration_ms=%u cpus=%*pbl time_ops=%d time_sample=%u fill_pct=%u verify=%d map_id=%u fault=%s callers=%s selftest=%s\n",
		ht.wl->name, ht.map_type_name, ht.prealloc, ht.max_entries,
		ht.value_size, ht.duration_ms, cpumask_pr_args(ht.cpus),
		ht.time_ops, ht.time_sample, ht.fill_pct, ht.verify, ht.map_id,
		ht_faults_str(), ht_callers_str(), ht_selftests[ht.selftest]);
	ret = ht_start_threads();
	if (ret)
		goto fail;
	return 0;
fail:
	ht_cleanup();
	return ret;
}

static void __exit ht_exit(void)
{
	ht_cleanup();
}

module_init(ht_init);
module_exit(ht_exit);
