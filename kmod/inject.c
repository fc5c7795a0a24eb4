// SPDX-License-Identifier: GPL-2.0
/*
 * The fault= parameter: registration, enabling around the run, counters
 * and the "faults" array of the results JSON. Its grammar and parser are
 * fault_spec.h's (shared with the harness):
 *
 *   fault=SPEC[+SPEC...]    (the parameter may also be given several times)
 *   SPEC := none
 *         | delay[:SYMBOL]:DURATION[:OPT...]    DURATION = N, Nns or Nus
 *         | exhaust[:OPT...]
 *         | lockhold[:SYMBOL]:DURATION[:OPT...]
 *   OPT  := p=P (0 < P <= 1, decimal) | every=N (per CPU) | cpus=CPULIST
 *
 * e.g. fault=delay:__pcpu_freelist_pop:2000ns:p=0.01:cpus=0-3
 *      fault=exhaust:p=0.1 fault=delay:alloc_htab_elem:5us:every=100
 *
 * Each value is parsed when it is set, so a bad one fails insmod with
 * -EINVAL and a message naming it. Probes are registered disabled at
 * insmod (an unknown or unprobeable symbol fails insmod the same way),
 * enabled by the controller just before the workers start and disabled
 * once they have stopped, so map setup and the verdict run without
 * faults.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include "htab_torture.h"
#include "inject.h"

static char ht_fault_param[HT_MAX_FAULTS][HT_FAULT_LEN];
static unsigned int ht_nr_fault_param;
/* The faults every fault= value holds, in order, "none" left out. */
static struct ht_fault_spec ht_fault_specs[HT_MAX_FAULTS];
static int ht_nr_fault_specs;

/* Each fault= occurrence is parsed and kept as given (ht_faults_str()). */
static int ht_fault_param_set(const char *val, const struct kernel_param *kp)
{
	struct ht_fault_error e;
	char msg[160];

	if (ht_fault_value_parse(val, ht_fault_specs, HT_MAX_FAULTS,
				 &ht_nr_fault_specs, &e)) {
		pr_err("fault=%.*s: %s\n", e.spec_len, val + e.spec_at,
		       ht_fault_strerror(val, &e, msg, sizeof(msg)));
		return -EINVAL;
	}
	if (ht_nr_fault_param >= HT_MAX_FAULTS) {
		pr_err("fault=%s: at most %d fault= parameters\n", val,
		       HT_MAX_FAULTS);
		return -EINVAL;
	}
	strscpy(ht_fault_param[ht_nr_fault_param++], val, HT_FAULT_LEN);
	return 0;
}

static char ht_faults_text[HT_MAX_FAULTS * HT_FAULT_LEN];

static int ht_fault_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", ht_faults_str());
}

static const struct kernel_param_ops ht_fault_param_ops = {
	.set = ht_fault_param_set,
	.get = ht_fault_param_get,
};

module_param_cb(fault, &ht_fault_param_ops, NULL, 0444);
MODULE_PARM_DESC(fault, "Faults to inject: none | delay[:SYMBOL]:Nns|Nus[:p=P|:every=N][:cpus=LIST] | exhaust[:p=P|:every=N][:cpus=LIST] | lockhold[:SYMBOL]:Nns|Nus[:OPT...]; join with + or repeat fault= (at most " HT_FS_STR(HT_MAX_FAULTS) " faults)");

static struct ht_fault ht_faults[HT_MAX_FAULTS];
static unsigned int ht_nr_faults;

#define HT_INJ_ENTRY(name, duration)	[HT_INJ_##name] = &ht_inj_##name,
static const struct ht_injector *ht_injectors[HT_NR_INJECTORS] = {
	HT_INJECTORS(HT_INJ_ENTRY)
};
#undef HT_INJ_ENTRY

/* "fault=a+b fault=c" reads back as "a+b+c"; "none" when empty. */
const char *ht_faults_str(void)
{
	size_t len = 0;
	unsigned int i;

	ht_faults_text[0] = '\0';
	for (i = 0; i < ht_nr_fault_param; i++)
		len += scnprintf(ht_faults_text + len,
				 sizeof(ht_faults_text) - len, "%s%s",
				 len ? "+" : "", ht_fault_param[i]);
	return len ? ht_faults_text : "none";
}

/* A parsed SPEC into a fault: the injector's defaults, the CPUs. */
static int ht_fault_from_spec(struct ht_fault *f, const struct ht_fault_spec *s)
{
	f->inj = ht_injectors[s->inj];
	f->inj_id = s->inj;
	strscpy(f->spec, s->text, sizeof(f->spec));
	strscpy(f->symbol, s->symbol[0] ? s->symbol : f->inj->default_symbol,
		sizeof(f->symbol));
	f->ns = s->ns;
	f->every = s->every;
	f->p_ppb = f->every || s->p_ppb ? s->p_ppb : HT_PPB;
	/* inject when a uniform u32 is below p * 2^32 */
	f->threshold = div_u64((u64)f->p_ppb << 32, HT_PPB);
	if (!zalloc_cpumask_var(&f->cpus, GFP_KERNEL))
		return -ENOMEM;
	if (!s->cpus[0]) {
		cpumask_copy(f->cpus, cpu_possible_mask);
	} else if (cpulist_parse(s->cpus, f->cpus) || cpumask_empty(f->cpus)) {
		pr_err("fault=%s: cpus=%s is not a non-empty cpulist below nr_cpu_ids=%u\n",
		       f->spec, s->cpus, nr_cpu_ids);
		return -EINVAL;
	}
	return 0;
}

static int ht_fault_setup(struct ht_fault *f)
{
	int cpu;

	f->pc = alloc_percpu(struct ht_fault_pcpu);
	if (!f->pc)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct ht_fault_pcpu *pc = per_cpu_ptr(f->pc, cpu);

		pc->every_left = f->every;
		prandom_seed_state(&pc->rnd, get_random_u64());
	}
	return f->inj->arm(f);
}

/* Set every parsed fault up, probes disabled. */
int ht_faults_init(void)
{
	int i, ret;

	for (i = 0; i < ht_nr_fault_specs; i++) {
		/* counted first: cleanup then sees a half-built one */
		ret = ht_fault_from_spec(&ht_faults[ht_nr_faults++],
					 &ht_fault_specs[i]);
		if (ret)
			return ret;
		ret = ht_fault_setup(&ht_faults[ht_nr_faults - 1]);
		if (ret)
			return ret;
	}
	return 0;
}

void ht_faults_enable(void)
{
	unsigned int i;

	for (i = 0; i < ht_nr_faults; i++)
		if (ht_faults[i].registered && enable_kprobe(ht_faults[i].kp))
			ht_verdict_fail("could not enable fault %s",
					ht_faults[i].spec);
}

void ht_faults_disable(void)
{
	unsigned int i;

	for (i = 0; i < ht_nr_faults; i++)
		if (ht_faults[i].registered)
			disable_kprobe(ht_faults[i].kp);
}

/* Safe to run twice: unregister, free and forget every fault. */
/* Errnos the armed faults make legitimate, for the verdict. */
u32 ht_faults_expected_errors(void)
{
	u32 e = 0;
	unsigned int i;

	for (i = 0; i < ht_nr_faults; i++)
		e |= ht_faults[i].inj->forces_errors;
	return e;
}

static u64 ht_fault_injected(const struct ht_fault *f)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu_ptr(f->pc, cpu)->injected;
	return n;
}

/* E2BIGs the faults forced (each exhaust injection fails one update). */
u64 ht_faults_forced_e2big(void)
{
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < ht_nr_faults; i++)
		if (ht_faults[i].inj->forces_errors & HT_ERRBIT(HT_E2BIG))
			n += ht_fault_injected(&ht_faults[i]);
	return n;
}

void ht_faults_cleanup(void)
{
	unsigned int i;

	for (i = 0; i < ht_nr_faults; i++) {
		struct ht_fault *f = &ht_faults[i];

		if (f->registered)
			f->inj->disarm(f);
		f->registered = false;
		free_percpu(f->pc);
		f->pc = NULL;
		free_cpumask_var(f->cpus);
		memset(f, 0, sizeof(*f));
	}
	ht_nr_faults = 0;
}

/*
 * Where kp (registered on a symbol) sits, as an offset from that symbol's
 * start: kallsyms' "sym+0xOFF/0xSIZE" of its address. 0 for a probe on
 * sym+0, except on an IBT kernel, where register_kprobe() moves it past
 * the function's ENDBR64.
 */
int ht_kprobe_offset(const struct kprobe *kp, const char *symbol,
		     unsigned int *off)
{
	char buf[KSYM_SYMBOL_LEN + 32], *p, *slash;
	size_t n = strlen(symbol);

	snprintf(buf, sizeof(buf), "%pS", kp->addr);
	p = buf + n;
	slash = strchr(buf, '/');
	if (strncmp(buf, symbol, n) || *p != '+' || !slash) {
		pr_err("a probe on %s sits at %s, outside it\n", symbol, buf);
		return -EINVAL;
	}
	*slash = '\0';
	if (kstrtouint(p + 1, 0, off)) {
		pr_err("a probe on %s sits at %s/..., an offset this module cannot read\n",
		       symbol, buf);
		return -EINVAL;
	}
	return 0;
}

/*
 * The address of a kernel function that is neither exported nor in a
 * header (kallsyms_lookup_name() is not exported in 6.1 either): register
 * a disabled kprobe on it, which resolves the symbol and checks it is a
 * probeable function start, and read kp.addr. Without IBT (Debian's 6.1)
 * that is the function's entry; with IBT (Debian's 6.12) it is 4 bytes
 * past an ENDBR64 (register_kprobe() checked it is one), and the entry is
 * the ENDBR. Any other offset, or an indirect call the CPU would trap
 * (ht_indirect_call_traps()), is refused.
 */
int ht_fault_resolve(const char *symbol, unsigned long *addr)
{
	struct kprobe kp = {
		.symbol_name = symbol,
		.flags = KPROBE_FLAG_DISABLED,
	};
	unsigned int off;
	int ret;

	ret = register_kprobe(&kp);
	if (ret)
		return ret;
	ret = ht_kprobe_offset(&kp, symbol, &off);
	unregister_kprobe(&kp);
	if (ret)
		return ret;
	*addr = (unsigned long)kp.addr - off;
	if (off && off != ENDBR_INSN_SIZE) {
		pr_err("%s resolves to %s+%#x, neither its start nor past an ENDBR64\n",
		       symbol, symbol, off);
		return -EINVAL;
	}
	if (ht_indirect_call_traps((void *)*addr)) {
		pr_err("%s cannot be called from a module: the CPU enforces IBT and its ENDBR64 is sealed (boot the guest with ibt=off)\n",
		       symbol);
		return -EOPNOTSUPP;
	}
	return 0;
}

void ht_faults_json(struct seq_buf *s)
{
	unsigned int i;
	int cpu;

	seq_buf_printf(s, "  \"faults\": [");
	for (i = 0; i < ht_nr_faults; i++) {
		struct ht_fault *f = &ht_faults[i];
		u64 hits = 0, injected = 0, own = 0;

		for_each_possible_cpu(cpu) {
			hits += per_cpu_ptr(f->pc, cpu)->hits;
			injected += per_cpu_ptr(f->pc, cpu)->injected;
			own += per_cpu_ptr(f->pc, cpu)->own;
		}
		seq_buf_printf(s, "%s\n    {\"type\": \"%s\", \"spec\": \"%s\", \"symbol\": \"%s\", \"offset\": %u, \"ns\": %llu, \"p\": %u.%09u, \"every\": %u, \"cpus\": \"%*pbl\",\n     \"hits\": %llu, \"injected\": %llu, \"nmissed\": %lu",
			       i ? "," : "", ht_injector_names[f->inj_id], f->spec, f->symbol,
			       f->kp ? f->kp->offset : 0, f->ns, f->every ? 0 : f->p_ppb / HT_PPB,
			       f->every ? 0 : f->p_ppb % HT_PPB, f->every,
			       cpumask_pr_args(f->cpus), hits, injected,
			       f->inj->nmissed(f));
		if (f->inj->own_count)
			seq_buf_printf(s, ", \"%s\": %llu", f->inj->own_count, own);
		seq_buf_printf(s, "}");
	}
	seq_buf_printf(s, "],\n");
}

static int ht_fault_kprobe_register(struct ht_fault *f, unsigned int offset,
				    kprobe_pre_handler_t pre)
{
	memset(&f->kprobe, 0, sizeof(f->kprobe));
	f->kprobe.symbol_name = f->symbol;
	f->kprobe.offset = offset;
	f->kprobe.pre_handler = pre;
	f->kprobe.flags = KPROBE_FLAG_DISABLED;
	return register_kprobe(&f->kprobe);
}

/*
 * A kprobe with handler pre at f's symbol, disabled; past the fentry call
 * when the function has one (inject_delay.c says why).
 */
int ht_fault_kprobe_arm(struct ht_fault *f, kprobe_pre_handler_t pre)
{
	int ret;

	ret = ht_fault_kprobe_register(f, 0, pre);
	if (!ret && (f->kprobe.flags & KPROBE_FLAG_FTRACE)) {
		unsigned int off;

		/*
		 * the fentry call, at +0 or past an ENDBR64 (IBT): move one
		 * (5-byte) instruction on from wherever it is
		 */
		ret = ht_kprobe_offset(&f->kprobe, f->symbol, &off);
		unregister_kprobe(&f->kprobe);
		if (!ret)
			ret = ht_fault_kprobe_register(f, off + MCOUNT_INSN_SIZE, pre);
	}
	f->kp = &f->kprobe;
	if (ret) {
		pr_err("fault=%s: cannot probe symbol %s: error %d%s\n",
		       f->spec, f->symbol, ret,
		       ret == -ENOENT ? " (no such symbol)" :
		       ret == -EINVAL ? " (not probeable: blacklisted, not a function start, or notrace)" :
		       "");
		/* -ENOENT would read "Unknown symbol in module" in insmod */
		return -EINVAL;
	}
	f->registered = true;
	return 0;
}

void ht_fault_kprobe_disarm(struct ht_fault *f)
{
	unregister_kprobe(&f->kprobe);
}

unsigned long ht_fault_kprobe_nmissed(const struct ht_fault *f)
{
	return f->kprobe.nmissed;
}
