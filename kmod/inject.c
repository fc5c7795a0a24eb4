// SPDX-License-Identifier: GPL-2.0
/*
 * The fault= parameter: parsing, registration, enabling around the run,
 * counters and the "faults" array of the results JSON.
 *
 *   fault=SPEC[+SPEC...]    (the parameter may also be given several times)
 *   SPEC := none
 *         | delay[:SYMBOL]:DURATION[:OPT...]    DURATION = N, Nns or Nus
 *         | exhaust[:OPT...]
 *   OPT  := p=P (0 < P <= 1, decimal) | every=N (per CPU) | cpus=CPULIST
 *
 * e.g. fault=delay:__pcpu_freelist_pop:2000ns:p=0.01:cpus=0-3
 *      fault=exhaust:p=0.1 fault=delay:alloc_htab_elem:5us:every=100
 *
 * Probes are registered disabled at insmod (an unknown or unprobeable
 * symbol fails insmod with -EINVAL and a message naming it), enabled by
 * the controller just before the workers start and disabled once they
 * have stopped, so map setup and the verdict run without faults.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include "htab_torture.h"
#include "inject.h"

#define HT_FAULT_CHARS	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:=,+-"

static char ht_fault_param[HT_MAX_FAULTS][HT_FAULT_LEN];
static unsigned int ht_nr_fault_param;

/* Each fault= occurrence is kept as given; parsed in ht_faults_init(). */
static int ht_fault_param_set(const char *val, const struct kernel_param *kp)
{
	/* the text goes into JSON and dmesg verbatim: keep it plain */
	if (val[strspn(val, HT_FAULT_CHARS)]) {
		pr_err("fault=%s: only letters, digits and _.:=,+- are allowed\n",
		       val);
		return -EINVAL;
	}
	if (ht_nr_fault_param >= HT_MAX_FAULTS) {
		pr_err("fault=%s: at most %d fault= parameters\n", val,
		       HT_MAX_FAULTS);
		return -EINVAL;
	}
	if (strscpy(ht_fault_param[ht_nr_fault_param], val, HT_FAULT_LEN) < 0) {
		pr_err("fault=%s: longer than %d characters\n", val,
		       HT_FAULT_LEN - 1);
		return -EINVAL;
	}
	ht_nr_fault_param++;
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
MODULE_PARM_DESC(fault, "Faults to inject: none | delay[:SYMBOL]:Nns|Nus[:p=P|:every=N][:cpus=LIST] | exhaust[:p=P|:every=N][:cpus=LIST]; join with + or repeat fault=");

static struct ht_fault ht_faults[HT_MAX_FAULTS];
static unsigned int ht_nr_faults;

static const struct ht_injector *ht_injectors[] = {
	&ht_inj_delay, &ht_inj_exhaust,
};

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

/* "0.01", "1", "1.0", ".5" -> parts per billion; 0 < p <= 1. */
static int ht_parse_prob(const char *s, u32 *ppb)
{
	u64 whole = 0, frac = 0, scale = HT_PPB;
	bool digits = false, dot = false;

	for (; *s; s++) {
		if (*s == '.' && !dot) {
			dot = true;
			continue;
		}
		if (!isdigit(*s))
			return -EINVAL;
		digits = true;
		if (!dot) {
			whole = whole * 10 + (*s - '0');
			if (whole > 1)
				return -ERANGE;
		} else if (scale > 1) {
			scale /= 10;
			frac += (*s - '0') * scale;
		}
	}
	if (!digits)
		return -EINVAL;
	frac += whole * HT_PPB;
	if (!frac || frac > HT_PPB)
		return -ERANGE;
	*ppb = frac;
	return 0;
}

/* "2000", "2000ns", "2us" -> ns, 1..HT_DELAY_MAX_NS */
static int ht_parse_duration(const char *s, u64 *ns)
{
	char num[24];
	size_t n = strspn(s, "0123456789");
	u64 mult = 1, v;

	if (!n || n >= sizeof(num))
		return -EINVAL;
	if (!strcmp(s + n, "us"))
		mult = NSEC_PER_USEC;
	else if (s[n] && strcmp(s + n, "ns"))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	if (kstrtou64(num, 10, &v))
		return -EINVAL;
	if (v > HT_DELAY_MAX_NS / mult)
		return -ERANGE;
	v *= mult;
	if (!v)
		return -ERANGE;
	*ns = v;
	return 0;
}

static int ht_fault_opt(struct ht_fault *f, char *field, bool *sampling)
{
	char *val = strchr(field, '=');
	int ret;

	*val++ = '\0';
	if (!strcmp(field, "p") || !strcmp(field, "every")) {
		if (*sampling) {
			pr_err("fault=%s: give one of p= and every=\n", f->spec);
			return -EINVAL;
		}
		*sampling = true;
	}
	if (!strcmp(field, "p")) {
		ret = ht_parse_prob(val, &f->p_ppb);
		if (ret) {
			pr_err("fault=%s: p=%s must be a decimal in (0, 1]\n",
			       f->spec, val);
			return -EINVAL;
		}
	} else if (!strcmp(field, "every")) {
		if (kstrtou32(val, 10, &f->every) || !f->every) {
			pr_err("fault=%s: every=%s must be an integer >= 1\n",
			       f->spec, val);
			return -EINVAL;
		}
	} else if (!strcmp(field, "cpus")) {
		if (cpulist_parse(val, f->cpus) || cpumask_empty(f->cpus)) {
			pr_err("fault=%s: cpus=%s is not a non-empty cpulist below nr_cpu_ids=%u\n",
			       f->spec, val, nr_cpu_ids);
			return -EINVAL;
		}
	} else {
		pr_err("fault=%s: unknown option %s= (valid: p= every= cpus=)\n",
		       f->spec, field);
		return -EINVAL;
	}
	return 0;
}

/* Fields after the type: [SYMBOL] [DURATION] OPT... (@buf is modified). */
static int ht_fault_fields(struct ht_fault *f, char *buf)
{
	bool delay = f->inj == &ht_inj_delay, sampling = false;
	char *field;
	int ret;

	while ((field = strsep(&buf, ":"))) {
		if (strchr(field, '=')) {
			ret = ht_fault_opt(f, field, &sampling);
		} else if (delay && isdigit(*field) && !f->ns) {
			ret = ht_parse_duration(field, &f->ns);
			if (ret)
				pr_err("fault=%s: duration %s must be 1..%llu ns, written N, Nns or Nus\n",
				       f->spec, field, HT_DELAY_MAX_NS);
		} else if (*field && !f->symbol[0] && !f->ns) {
			ret = strscpy(f->symbol, field, sizeof(f->symbol)) < 0 ?
			      -EINVAL : 0;
			if (ret)
				pr_err("fault=%s: symbol %s too long\n",
				       f->spec, field);
		} else {
			pr_err("fault=%s: unexpected field \"%s\"\n", f->spec,
			       field);
			ret = -EINVAL;
		}
		if (ret)
			return -EINVAL;
	}
	return 0;
}

static int ht_fault_parse(struct ht_fault *f, const char *spec)
{
	char buf[HT_FAULT_LEN], *rest = buf, *type;
	unsigned int i;

	strscpy(f->spec, spec, sizeof(f->spec));
	strscpy(buf, spec, sizeof(buf));
	type = strsep(&rest, ":");
	for (i = 0; i < ARRAY_SIZE(ht_injectors); i++)
		if (!strcmp(type, ht_injectors[i]->name))
			f->inj = ht_injectors[i];
	if (!f->inj) {
		pr_err("fault=%s: unknown fault type \"%s\" (valid: none delay exhaust)\n",
		       spec, type);
		return -EINVAL;
	}
	if (!zalloc_cpumask_var(&f->cpus, GFP_KERNEL))
		return -ENOMEM;
	cpumask_copy(f->cpus, cpu_possible_mask);
	if (rest && ht_fault_fields(f, rest))
		return -EINVAL;
	if (f->inj == &ht_inj_delay && !f->ns) {
		pr_err("fault=%s: delay needs a duration (e.g. delay:__pcpu_freelist_pop:2000ns)\n",
		       spec);
		return -EINVAL;
	}
	if (!f->symbol[0])
		strscpy(f->symbol, f->inj->default_symbol, sizeof(f->symbol));
	if (!f->every && !f->p_ppb)
		f->p_ppb = HT_PPB;
	/* inject when a uniform u32 is below p * 2^32 */
	f->threshold = div_u64((u64)f->p_ppb << 32, HT_PPB);
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

/* Split every fault= value on '+' and set each fault up, probes disabled. */
int ht_faults_init(void)
{
	char buf[HT_FAULT_LEN], *rest, *spec;
	unsigned int i;
	int ret;

	for (i = 0; i < ht_nr_fault_param; i++) {
		strscpy(buf, ht_fault_param[i], sizeof(buf));
		rest = buf;
		while ((spec = strsep(&rest, "+"))) {
			if (!strcmp(spec, "none") || !*spec)
				continue;
			if (ht_nr_faults >= HT_MAX_FAULTS) {
				pr_err("fault=%s: at most %d faults\n",
				       ht_fault_param[i], HT_MAX_FAULTS);
				return -EINVAL;
			}
			/* counted first: cleanup then sees a half-built one */
			ret = ht_fault_parse(&ht_faults[ht_nr_faults++], spec);
			if (ret)
				return ret;
			ret = ht_fault_setup(&ht_faults[ht_nr_faults - 1]);
			if (ret)
				return ret;
		}
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
		u64 hits = 0, injected = 0;

		for_each_possible_cpu(cpu) {
			hits += per_cpu_ptr(f->pc, cpu)->hits;
			injected += per_cpu_ptr(f->pc, cpu)->injected;
		}
		seq_buf_printf(s, "%s\n    {\"type\": \"%s\", \"spec\": \"%s\", \"symbol\": \"%s\", \"offset\": %u, \"ns\": %llu, \"p\": %u.%09u, \"every\": %u, \"cpus\": \"%*pbl\",\n     \"hits\": %llu, \"injected\": %llu, \"nmissed\": %lu}",
			       i ? "," : "", f->inj->name, f->spec, f->symbol,
			       f->kp ? f->kp->offset : 0, f->ns, f->every ? 0 : f->p_ppb / HT_PPB,
			       f->every ? 0 : f->p_ppb % HT_PPB, f->every,
			       cpumask_pr_args(f->cpus), hits, injected,
			       f->inj->nmissed(f));
	}
	seq_buf_printf(s, "],\n");
}
