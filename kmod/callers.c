// SPDX-License-Identifier: GPL-2.0
/*
 * The callers besides the workload's kthreads (callers.h): map ops from
 * NMI and from hardirq, on every worker CPU while the workers run, and
 * the table every kind's state is in (the task kind's own side, its
 * user-space tasks, is callers_task.c).
 *
 * Each worker CPU gets an hrtimer, started by its worker when the window
 * opens and cancelled when it closes. Its callback (hardirq) does the irq
 * kind's ops and sends an NMI IPI to the next worker CPU (the last to the
 * first; a single worker to itself), whose NMI_LOCAL handler does the nmi
 * kind's ops. Under TCG there is no PMU, so perf NMIs are not there to
 * drive it; IPIs are (DESIGN.md). One NMI per CPU is in flight at a time:
 * the sender arms the target and sends only if it was not armed, the
 * handler disarms it when done, so NMIs never coalesce and the controller
 * can tell when the last one has finished.
 *
 * Every interrupt-context call does bounded work (at most 3 map ops, no
 * sleeping, no clock but the NMI-safe one) on keys of its own, with its
 * own writer id and sequence, so the stamp, presence and conservation
 * checks cover it: insert (BPF_NOEXIST) its next key, look it up (its own
 * stamp exactly), delete it. EBUSY (the bucket's lock slot is held on this
 * CPU, by the context it interrupted) and E2BIG (a full map, or an NMI
 * pop whose trylocks all failed) are legal; a key left by an EBUSY delete
 * is deleted on the key's next turn.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/percpu.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "htab_torture.h"
#include "inject.h"

#define HT_CALLER_NAME(name) #name,
static const char * const ht_caller_names[HT_NR_CALLERS] = {
	HT_CALLERS(HT_CALLER_NAME)
};
#undef HT_CALLER_NAME

/* What an interrupt-context caller may get: see the header comment. */
#define HT_CALLER_EXPECTED	(HT_ERRBIT(HT_E2BIG) | HT_ERRBIT(HT_EBUSY))

/*
 * An NMI that finds nothing armed this soon after a send to its CPU is
 * taken as ours (counted: nmi_unarmed), so a perf NMI that ran our ops
 * first does not leave ours reported as unknown.
 */
#define HT_NMI_CLAIM_NS		(10 * NSEC_PER_MSEC)
/* How long the controller waits for the last NMIs to finish. */
#define HT_NMI_DRAIN_MS		2000

struct ht_ctimer {
	struct hrtimer timer;
	unsigned int idx;	/* worker whose CPU it fires on */
	bool running;
} ____cacheline_aligned_in_smp;

static struct {
	u32 kinds;		/* BIT(HT_CALLER_x) */
	char str[64];		/* the value, kinds in list order */
	u64 period_ns;
	u32 tasks_per_cpu;	/* task: tasks a worker CPU */
	struct ht_caller *c[HT_NR_CALLERS];	/* n[k] each; NULL: kind off */
	unsigned int n[HT_NR_CALLERS];	/* nr_threads; task: its tasks */
	struct ht_ctimer *timers;
	bool nmi_registered;
	bool quiesce;		/* interrupt callers: no more map ops */
	u64 undrained;		/* NMIs still armed when the drain gave up */
} htc;

static DEFINE_PER_CPU(struct ht_caller *, ht_nmi_caller);
DEFINE_PER_CPU(unsigned int, ht_cpu_in_caller);

const char *ht_caller_name(enum ht_caller_kind k)
{
	return ht_caller_names[k];
}

bool ht_callers_has(enum ht_caller_kind k)
{
	return htc.kinds & BIT(k);
}

const char *ht_callers_str(void)
{
	return htc.str;
}

/*
 * "kthread", "kthread+nmi": '+'-joined kinds, each once, kthread among
 * them. @tasks_per_cpu: -1 derives it (HT_TASKS_PER_CPU_DEFAULT with the
 * task kind, else none); a number (in its bounds, checked with the other
 * parameters') only with the task kind.
 */
int ht_callers_parse(const char *s, u32 period_us, int tasks_per_cpu)
{
	char buf[sizeof(htc.str)], *p = buf, *tok;
	char names[128] = "";
	int i, k;

	memset(&htc, 0, sizeof(htc));
	htc.period_ns = (u64)period_us * NSEC_PER_USEC;
	for (i = 0; i < HT_NR_CALLERS; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 " %s", ht_caller_names[i]);
	if (strscpy(buf, s, sizeof(buf)) < 0)
		goto bad;
	while ((tok = strsep(&p, "+"))) {
		k = match_string(ht_caller_names, HT_NR_CALLERS, tok);
		if (k < 0 || (htc.kinds & BIT(k)))
			goto bad;
		htc.kinds |= BIT(k);
	}
	if (!ht_callers_has(HT_CALLER_kthread)) {
		pr_err("callers=%s: kthread must be among them (the workload runs on the kthreads); valid kinds:%s, joined with +\n",
		       s, names);
		return -EINVAL;
	}
	for (i = 0; i < HT_NR_CALLERS; i++)
		if (ht_callers_has(i))
			snprintf(htc.str + strlen(htc.str),
				 sizeof(htc.str) - strlen(htc.str), "%s%s",
				 htc.str[0] ? "+" : "", ht_caller_names[i]);
	if (tasks_per_cpu == -1) {
		htc.tasks_per_cpu = ht_callers_has(HT_CALLER_task) ?
				    HT_TASKS_PER_CPU_DEFAULT : 0;
		return 0;
	}
	if (!ht_callers_has(HT_CALLER_task)) {
		pr_err("tasks_per_cpu=%d without the task kind in callers=%s (valid: -1, or callers with +task)\n",
		       tasks_per_cpu, s);
		return -EINVAL;
	}
	htc.tasks_per_cpu = tasks_per_cpu;
	return 0;
bad:
	pr_err("callers=%s unknown or repeated kind; valid kinds:%s, joined with + (e.g. kthread+nmi)\n",
	       s, names);
	return -EINVAL;
}

u32 ht_callers_tasks_per_cpu(void)
{
	return htc.tasks_per_cpu;
}

struct ht_caller *ht_callers_of(enum ht_caller_kind k, unsigned int *n)
{
	*n = htc.n[k];
	return htc.c[k];
}

/* Interrupt-context kinds on (the hrtimer drives them) */
static bool ht_callers_timed(void)
{
	return htc.kinds & (BIT(HT_CALLER_nmi) | BIT(HT_CALLER_irq));
}

/*
 * Once the map is known (an adopted one too). The interrupt-context
 * callers run on preallocated hash and percpu_hash maps, where the pops
 * and pushes are percpu_freelist's (trylocks in NMI) and the bucket's
 * map_locked slot keeps an NMI off a bucket lock its own CPU holds: an
 * LRU list's lock is a plain raw spinlock an NMI could deadlock on, and
 * bpf_mem_alloc (no prealloc) is outside this kind's aim. The slot does
 * not cover another CPU holding the NMI's bucket while it waits for a
 * freelist head lock the interrupted context holds: 6.1 deadlocks there
 * (NMI on a bucket lock, the rest on one head lock; add_many_del_one
 * with kthread+nmi, bench/RESULTS.md, "A 6.1 deadlock the NMI callers
 * found"), as a BPF program updating a hash map from NMI would.
 */
int ht_callers_check_map(void)
{
	/*
	 * An LRU map may evict a task's key and hand its element to another
	 * key at any time: the presence checks the tasks make (their keys
	 * have one writer) would cry wolf there.
	 */
	if (ht_callers_has(HT_CALLER_task) && ht.lru) {
		pr_err("callers=%s: the task kind needs a hash or percpu_hash map (map_type=%s): an LRU map evicts the keys whose presence the tasks check\n",
		       htc.str, ht.map_type_name);
		return -EINVAL;
	}
	if (!ht_callers_timed())
		return 0;
	if (ht.lru || !ht.prealloc) {
		pr_err("callers=%s: needs a preallocated hash or percpu_hash map (map_type=%s prealloc=%d): LRU lists take locks an NMI can deadlock on\n",
		       htc.str, ht.map_type_name, ht.prealloc);
		return -EINVAL;
	}
	if (ht_callers_has(HT_CALLER_nmi) && !HT_HAVE_NMI_IPI) {
		pr_err("callers=%s: this kernel has no x86 local APIC to send NMIs with\n",
		       htc.str);
		return -EINVAL;
	}
	return 0;
}

/* Writer ids: HT_WRITER_CALLER(kind, worker idx); see htab_torture.h. */
static struct ht_caller *ht_caller_of_writer(u32 writer)
{
	u32 k = writer >> HT_WRITER_KIND_SHIFT, idx = writer & HT_WRITER_IDX_MASK;

	if (!k || k >= HT_NR_CALLERS || !htc.c[k] || idx >= htc.n[k])
		return NULL;
	return &htc.c[k][idx];
}

bool ht_callers_writer_seq(u32 writer, u64 *seq)
{
	const struct ht_caller *c = ht_caller_of_writer(writer);

	if (!c)
		return false;
	*seq = c->seq;
	return true;
}

/*
 * "n3": the nmi caller on worker 3's CPU (first letter of the kind);
 * "task3": task 3 ("t3" is worker 3).
 */
bool ht_callers_writer_name(u32 writer, char *buf, size_t len)
{
	u32 k = writer >> HT_WRITER_KIND_SHIFT;

	if (!ht_caller_of_writer(writer))
		return false;
	if (k == HT_CALLER_task)
		snprintf(buf, len, "task%u", writer & HT_WRITER_IDX_MASK);
	else
		snprintf(buf, len, "%c%u", ht_caller_names[k][0],
			 writer & HT_WRITER_IDX_MASK);
	return true;
}

/*
 * Most elements the other callers can hold at once: all their keys (an
 * interrupt caller's after EBUSY deletes, a task's between its calls).
 */
u64 ht_callers_max_live(void)
{
	u64 n = 0;
	int k;

	for (k = 0; k < HT_NR_CALLERS; k++)
		if (k != HT_CALLER_kthread && ht_callers_has(k))
			n += (u64)(k == HT_CALLER_task ?
				   ht.nr_threads * htc.tasks_per_cpu : ht.nr_threads);
	return n * HT_CALLER_KEYS;
}

static void ht_caller_err(struct ht_caller *c, int ret)
{
	if (ret)
		ht_stats_error(c->stats, ret, HT_CALLER_EXPECTED);
}

static void ht_caller_bad(struct ht_caller *c, const char *what, u32 key,
			  u64 seq, const struct ht_stamp *seen)
{
	c->stats->corrupt++;
	ht_bad_note(&c->bad, c->cpu, what, key, c->writer, seq, seen);
}

/*
 * One call's ops, in NMI or hardirq on c->cpu, inside an RCU read section
 * (NMI and hardirq are RCU readers; preemption is off). A per-CPU map's
 * lookup reads this CPU's slot: the one this caller wrote.
 */
static void ht_caller_ops(struct ht_caller *c)
{
	struct bpf_map *map = ht.map;
	u32 slot = c->slot, key = c->key0 + slot;
	u64 seq = c->slot_seq[slot];
	const struct ht_stamp *v;
	struct ht_stamp s;
	int ret;

	c->slot = (slot + 1) % HT_CALLER_KEYS;
	this_cpu_inc(ht_cpu_in_caller);		/* fault injectors leave these ops alone */
	rcu_read_lock();
	if (!seq) {
		ht_stamp_fill(c->value, key, c->writer, ++c->seq);
		ret = map->ops->map_update_elem(map, &key, c->value, BPF_NOEXIST);
		c->stats->ops_by[HT_OP_UPDATE]++;
		ht_caller_err(c, ret);
		if (!ret) {
			seq = c->slot_seq[slot] = c->seq;
			c->stats->live_delta++;
			if (ht.keeps_full && !c->stats->double_alloc++)
				c->double_key = key;
		} else if (ret == -EEXIST) {
			ht_caller_bad(c, "key present though never stored", key, 0, NULL);
		}
	}
	if (seq && ht.verify) {
		v = map->ops->map_lookup_elem(map, &key);
		c->stats->ops_by[HT_OP_LOOKUP]++;
		if (!v) {
			ht_stats_error(c->stats, -ENOENT, HT_CALLER_EXPECTED);
			ht_caller_bad(c, "stored key missing", key, seq, NULL);
		} else {
			s = ht_stamp_read(v);
			if (s.key != key || s.writer != c->writer || s.seq != seq)
				ht_caller_bad(c, "stamp mismatch", key, seq, &s);
		}
	}
	if (seq) {
		ret = map->ops->map_delete_elem(map, &key);
		c->stats->ops_by[HT_OP_DELETE]++;
		ht_caller_err(c, ret);
		if (!ret) {
			c->slot_seq[slot] = 0;
			c->stats->live_delta--;
		} else if (ret == -ENOENT) {
			ht_caller_bad(c, "stored key missing", key, seq, NULL);
		}
	}
	rcu_read_unlock();
	this_cpu_dec(ht_cpu_in_caller);
}

static int ht_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct ht_caller *c = this_cpu_read(ht_nmi_caller);
	u64 t0, t1;

	if (!c)
		return NMI_DONE;
	if (atomic_read(&c->armed) != 1) {
		if (ktime_get_mono_fast_ns() - READ_ONCE(c->sent_ns) > HT_NMI_CLAIM_NS)
			return NMI_DONE;
		c->unarmed++;
		return NMI_HANDLED;
	}
	t0 = ktime_get_mono_fast_ns();
	c->calls++;
	c->in_ctx += !!in_nmi();
	if (!READ_ONCE(htc.quiesce))
		ht_caller_ops(c);
	t1 = ktime_get_mono_fast_ns();
	/* where an NMI's time goes: reaching the CPU, then running */
	c->delivery_ns += t0 - READ_ONCE(c->sent_ns);
	c->delivery_max_ns = max(c->delivery_max_ns, t0 - READ_ONCE(c->sent_ns));
	c->handler_ns += t1 - t0;
	c->handler_max_ns = max(c->handler_max_ns, t1 - t0);
	/* release: the controller reads the stats once it sees 0 */
	atomic_set_release(&c->armed, 0);
	return NMI_HANDLED;
}

/* From worker @from's hrtimer: an NMI to the next worker's CPU. */
static void ht_nmi_send(unsigned int from)
{
	struct ht_caller *c = &htc.c[HT_CALLER_nmi][(from + 1) % ht.nr_threads];

	if (atomic_cmpxchg(&c->armed, 0, 1)) {
		c->sent_busy++;
		return;
	}
	c->sent++;
	WRITE_ONCE(c->sent_ns, ktime_get_mono_fast_ns());
	ht_send_nmi(c->cpu);
}

static enum hrtimer_restart ht_caller_timer(struct hrtimer *timer)
{
	struct ht_ctimer *ct = container_of(timer, struct ht_ctimer, timer);

	if (!READ_ONCE(ct->running))
		return HRTIMER_NORESTART;
	if (htc.c[HT_CALLER_irq]) {
		struct ht_caller *c = &htc.c[HT_CALLER_irq][ct->idx];

		c->calls++;
		c->in_ctx += !!in_hardirq();
		ht_caller_ops(c);
	}
	if (htc.c[HT_CALLER_nmi])
		ht_nmi_send(ct->idx);
	hrtimer_forward_now(timer, ns_to_ktime(htc.period_ns));
	return HRTIMER_RESTART;
}

/* The worker, on its CPU, as its window opens: the timer pinned here. */
void ht_callers_start(struct ht_thread *t)
{
	struct ht_ctimer *ct = htc.timers ? &htc.timers[t->idx] : NULL;

	if (!ct)
		return;
	WRITE_ONCE(ct->running, true);
	hrtimer_start(&ct->timer, ns_to_ktime(htc.period_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/* No expiry after this returns (hrtimer_cancel waits for a running one). */
static void ht_ctimer_stop(struct ht_ctimer *ct)
{
	WRITE_ONCE(ct->running, false);
	hrtimer_cancel(&ct->timer);
}

/* The worker as its window closes. */
void ht_callers_stop(struct ht_thread *t)
{
	if (htc.timers)
		ht_ctimer_stop(&htc.timers[t->idx]);
}

static int ht_callers_alloc(enum ht_caller_kind k, unsigned int n)
{
	struct ht_caller *a;
	unsigned int i;

	a = kcalloc(n, sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	htc.c[k] = a;
	htc.n[k] = n;
	for (i = 0; i < n; i++) {
		struct ht_caller *c = &a[i];

		c->idx = i;
		c->cpu = k == HT_CALLER_task ? -1 : ht.threads[i].cpu;
		c->writer = HT_WRITER_CALLER(k, i);
		c->key0 = HT_CALLER_KEY0(k, i);
		c->stats = kvzalloc(sizeof(*c->stats), GFP_KERNEL);
		c->value = kzalloc(round_up(ht.value_size, HT_VALUE_ALIGN), GFP_KERNEL);
		if (!c->stats || !c->value)
			return -ENOMEM;
	}
	return 0;
}

/* After the threads exist: callers' state, timers, the NMI handler. */
int ht_callers_init(void)
{
	unsigned int i;
	int k, ret;

	for (k = 0; k < HT_NR_CALLERS; k++) {
		if (k == HT_CALLER_kthread || !ht_callers_has(k))
			continue;
		ret = ht_callers_alloc(k, k == HT_CALLER_task ?
				       ht.nr_threads * htc.tasks_per_cpu :
				       ht.nr_threads);
		if (ret)
			return ret;
	}
	if (!ht_callers_timed())
		return 0;
	htc.timers = kcalloc(ht.nr_threads, sizeof(*htc.timers), GFP_KERNEL);
	if (!htc.timers)
		return -ENOMEM;
	for (i = 0; i < ht.nr_threads; i++) {
		htc.timers[i].idx = i;
		hrtimer_init(&htc.timers[i].timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		htc.timers[i].timer.function = ht_caller_timer;
	}
	if (!htc.c[HT_CALLER_nmi])
		return 0;
	for (i = 0; i < ht.nr_threads; i++)
		per_cpu(ht_nmi_caller, ht.threads[i].cpu) =
			&htc.c[HT_CALLER_nmi][i];
	ret = register_nmi_handler(NMI_LOCAL, ht_nmi_handler, 0, "htab_torture");
	if (ret) {
		pr_err("callers=%s: register_nmi_handler: %d\n", htc.str, ret);
		return ret;
	}
	htc.nmi_registered = true;
	return 0;
}

/* Waits (bounded) until no NMI of ours is armed; returns how many are. */
static u64 ht_nmi_wait_drained(void)
{
	unsigned int i, ms;
	u64 armed = 0;

	for (ms = 0; ms <= HT_NMI_DRAIN_MS; ms++) {
		armed = 0;
		for (i = 0; i < ht.nr_threads; i++)
			/* acquire: pairs with the handler's release */
			armed += atomic_read_acquire(&htc.c[HT_CALLER_nmi][i].armed);
		if (!armed)
			break;
		usleep_range(1000, 2000);
	}
	return armed;
}

static void ht_nmi_unregister(void)
{
	unsigned int i;

	if (!htc.nmi_registered)
		return;
	unregister_nmi_handler(NMI_LOCAL, "htab_torture");
	htc.nmi_registered = false;
	for (i = 0; i < ht.nr_threads; i++)
		per_cpu(ht_nmi_caller, ht.threads[i].cpu) = NULL;
}

/*
 * The controller, once every worker has stopped (and with it every
 * timer): no interrupt caller touches the map after this, so the verdict
 * and the counters it reads are the run's. An NMI still armed after the
 * wait (a vCPU the host has not run) does no ops when it comes, and the
 * handler stays registered for it until cleanup.
 */
void ht_callers_drain(void)
{
	unsigned int i;
	int k;

	if (htc.c[HT_CALLER_task])
		ht_tasks_wait_reports();
	WRITE_ONCE(htc.quiesce, true);
	if (htc.c[HT_CALLER_nmi]) {
		htc.undrained = ht_nmi_wait_drained();
		if (htc.undrained)
			pr_warn("callers: %llu NMIs not handled %u ms after the run\n",
				htc.undrained, HT_NMI_DRAIN_MS);
		else
			ht_nmi_unregister();
	}
	for (k = 0; k < HT_NR_CALLERS; k++)
		for (i = 0; htc.c[k] && i < htc.n[k]; i++)
			htc.c[k][i].stats->ops = ht_stats_ops(htc.c[k][i].stats);
}

void ht_callers_cleanup(void)
{
	unsigned int i;
	int k;

	WRITE_ONCE(htc.quiesce, true);
	for (i = 0; htc.timers && i < ht.nr_threads; i++)
		ht_ctimer_stop(&htc.timers[i]);
	kfree(htc.timers);
	htc.timers = NULL;
	if (htc.nmi_registered)
		ht_nmi_wait_drained();
	ht_nmi_unregister();
	for (k = 0; k < HT_NR_CALLERS; k++) {
		for (i = 0; htc.c[k] && i < htc.n[k]; i++) {
			kvfree(htc.c[k][i].stats);
			kfree(htc.c[k][i].value);
		}
		kfree(htc.c[k]);
		htc.c[k] = NULL;
		htc.n[k] = 0;
	}
}

/* The verdict's sums over every interrupt-context caller. */
void ht_callers_sum(struct ht_callers_sum *sum)
{
	unsigned int i;
	int k;

	memset(sum, 0, sizeof(*sum));
	for (k = 0; k < HT_NR_CALLERS; k++)
		for (i = 0; htc.c[k] && i < htc.n[k]; i++) {
			const struct ht_caller *c = &htc.c[k][i];

			sum->unexpected += c->stats->unexpected;
			sum->corrupt += c->stats->corrupt;
			sum->double_alloc += c->stats->double_alloc;
			sum->live_delta += c->stats->live_delta;
			if (c->bad.what && !sum->bad)
				sum->bad = c;
			if (c->stats->double_alloc && !sum->double_first)
				sum->double_first = c;
		}
}

static void ht_caller_json_one(struct seq_buf *s, const struct ht_caller *c)
{
	seq_buf_printf(s, "{\"cpu\": %d, \"calls\": %llu, \"in_context\": %llu, \"ops\": %llu",
		       c->cpu, c->calls, c->in_ctx, c->stats->ops);
	if (c->writer >> HT_WRITER_KIND_SHIFT == HT_CALLER_nmi)
		seq_buf_printf(s, ", \"sent\": %llu, \"sent_busy\": %llu, \"unarmed\": %llu, \"delivery_ns_mean\": %llu, \"delivery_ns_max\": %llu, \"handler_ns_mean\": %llu, \"handler_ns_max\": %llu",
			       c->sent, c->sent_busy, c->unarmed,
			       c->calls ? div64_u64(c->delivery_ns, c->calls) : 0,
			       c->delivery_max_ns,
			       c->calls ? div64_u64(c->handler_ns, c->calls) : 0,
			       c->handler_max_ns);
	seq_buf_printf(s, ", \"errors\": ");
	ht_json_errors(s, c->stats);
	seq_buf_printf(s, "}");
}

/*
 * "callers": one object a kind (harness/FORMAT.md). kthread's are the
 * workers' totals; an interrupt kind's add its calls (NMIs handled, timer
 * callbacks), how many of them ran in that context, and per CPU; the
 * task kind's its tasks' reported calls and per task (callers_task.c).
 */
void ht_callers_json(struct seq_buf *s)
{
	struct ht_stats *tot;
	unsigned int i;
	int k;
	u64 calls, in_ctx;

	seq_buf_printf(s, "  \"callers\": [\n    {\"kind\": \"kthread\", \"ops\": %llu, \"ops_by_kind\": {\"update\": %llu, \"lookup\": %llu, \"delete\": %llu}, \"errors\": ",
		       ht.total->ops, ht.total->ops_by[HT_OP_UPDATE],
		       ht.total->ops_by[HT_OP_LOOKUP], ht.total->ops_by[HT_OP_DELETE]);
	ht_json_errors(s, ht.total);
	seq_buf_printf(s, ", \"unexpected_errors\": %llu}", ht.total->unexpected);
	tot = kvzalloc(sizeof(*tot), GFP_KERNEL);
	for (k = 0; tot && k < HT_NR_CALLERS; k++) {
		if (!htc.c[k])
			continue;
		memset(tot, 0, sizeof(*tot));
		calls = in_ctx = 0;
		for (i = 0; i < htc.n[k]; i++) {
			ht_stats_merge(tot, htc.c[k][i].stats);
			calls += htc.c[k][i].calls;
			in_ctx += htc.c[k][i].in_ctx;
		}
		seq_buf_printf(s, ",\n    {\"kind\": \"%s\", ", ht_caller_names[k]);
		if (k == HT_CALLER_task)
			seq_buf_printf(s, "\"tasks\": %u, \"tasks_per_cpu\": %u, ",
				       htc.n[k], htc.tasks_per_cpu);
		else
			seq_buf_printf(s, "\"period_us\": %llu, ",
				       div_u64(htc.period_ns, NSEC_PER_USEC));
		seq_buf_printf(s, "\"calls\": %llu, \"in_context\": %llu, \"calls_per_sec_per_cpu\": ",
			       calls, in_ctx);
		ht_json_rate(s, div_u64(calls, ht.nr_threads), ht.duration_ns);
		seq_buf_printf(s, ", \"ops\": %llu, \"ops_by_kind\": {\"update\": %llu, \"lookup\": %llu, \"delete\": %llu}, \"errors\": ",
			       tot->ops, tot->ops_by[HT_OP_UPDATE],
			       tot->ops_by[HT_OP_LOOKUP], tot->ops_by[HT_OP_DELETE]);
		ht_json_errors(s, tot);
		seq_buf_printf(s, ", \"unexpected_errors\": %llu, \"corrupt\": %llu, \"double_alloc\": %llu, \"live_delta\": %lld",
			       tot->unexpected, tot->corrupt, tot->double_alloc,
			       tot->live_delta);
		if (k == HT_CALLER_nmi)
			seq_buf_printf(s, ", \"undrained\": %llu", htc.undrained);
		if (k == HT_CALLER_task) {
			ht_tasks_json(s, htc.c[k], htc.n[k]);
			continue;
		}
		seq_buf_printf(s, ",\n     \"per_cpu\": [");
		for (i = 0; i < ht.nr_threads; i++) {
			seq_buf_printf(s, "%s", i ? ", " : "");
			ht_caller_json_one(s, &htc.c[k][i]);
		}
		seq_buf_printf(s, "]}");
	}
	kvfree(tot);
	seq_buf_printf(s, "],\n");
}
