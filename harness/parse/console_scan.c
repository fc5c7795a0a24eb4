/*
 * Console classifier (see console_scan.h). Lines are matched after dropping
 * the printk timestamp against one table of report signatures (signatures[],
 * as syzkaller's pkg/report has); a report's function comes from its RIP
 * line, its call trace or its own header, as the signature says.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "parse/console_scan.h"

#define WINDOW 100	/* lines after a report header searched for RIP / trace */
#define LINE_MAX_MATCH 1024	/* header patterns sit near a line's start */

struct lines {
	const char **s;
	size_t n;
};

const char *crash_kind_name(enum crash_kind k)
{
	static const char *const names[] = {
		"none", "panic", "oops", "bug", "gpf", "warning", "soft_lockup",
		"hard_lockup", "rcu_stall", "hung_task", "lockdep", "kasan",
		"kfence", "ubsan", "list_corruption", "hang",
	};

	return k <= CK_HANG ? names[k] : "?";
}

/* "[   12.345678] text" -> "text"; also drops a trailing '\r'. */
static char *strip_line(char *l)
{
	size_t n;

	if (l[0] == '[') {
		char *e = strchr(l, ']');

		if (e && strspn(l + 1, " 0123456789.") == (size_t)(e - l - 1))
			l = e + 1 + (e[1] == ' ');
	}
	n = strlen(l);
	while (n && (l[n - 1] == '\r' || l[n - 1] == ' '))
		l[--n] = '\0';
	return l;
}

static int split_lines(char *buf, struct lines *L)
{
	size_t cap = 256;
	char *line;

	L->n = 0;
	L->s = malloc(cap * sizeof(*L->s));
	if (!L->s)
		return -1;
	for (char *p = buf; (line = strsep(&p, "\n")) != NULL;) {
		if (L->n == cap) {
			const char **ns = realloc(L->s, 2 * cap * sizeof(*ns));

			if (!ns)
				return -1;
			L->s = ns;
			cap *= 2;
		}
		L->s[L->n++] = strip_line(line);
	}
	return 0;
}

/* "func+0x1a/0x30 [mod]" -> "func"; "0xffff…" or "" -> false. */
static bool symbol_of(const char *s, char *out, size_t n)
{
	size_t len;

	while (*s == ' ')
		s++;
	if (!strncmp(s, "0x", 2) || !*s)
		return false;
	len = strcspn(s, "+ ");
	if (!len || s[len] != '+')
		return false;
	snprintf(out, n, "%.*s", (int)len, s);
	/* gcc's clones (f.cold, f.isra.0, f.constprop.0, f.part.0) are f's code: titled f */
	for (const char *const *c = (const char *const[]){ ".cold", ".isra.", ".constprop.",
							   ".part.", NULL }; *c; c++) {
		char *p = strstr(out, *c);

		if (p && p > out)
			*p = '\0';
	}
	return true;
}

/*
 * Frames that say where the CPU waited or how the report was printed, not
 * what it was doing. "x*" is a prefix, anything else an exact name.
 */
static bool boring_frame(const char *f)
{
	static const char *const names[] = {
		"__schedule", "schedule*", "io_schedule*", "preempt_schedule*",
		"__mutex_lock*", "mutex_lock*", "rwsem_down*", "down_read*", "down_write*",
		"__wait_for_common", "wait_for_completion*", "msleep*", "usleep*",
		"rt_mutex*", "kthread", "ret_from_fork", "worker_thread",
		"process_one_work", "dump_stack*", "__warn", "warn_slowpath*",
		"report_bug", "handle_bug", "exc_invalid_op", "asm_exc_*",
		"lock_acquire*", "lock_release", "_raw_spin*", "__raw_spin*",
		"do_syscall_64", "entry_SYSCALL*", "sysvec_*", "asm_sysvec_*", "__sysvec_*",
		"irq_exit*", "__irq_exit*", "rcu_*", "__rcu_*", "native_*", "__cond_resched",
		"print_*", "check_noncircular", "check_prev_add", "validate_chain",
		"__lock_acquire", "watchdog_timer_fn", "__hrtimer_run_queues",
		"hrtimer_interrupt", "update_process_times", "tick_*", "__do_softirq",
		"do_softirq*", "panic", "ubsan_*", "__ubsan_*", "__list_add_valid*",
		"__list_del_entry_valid*",
		/* KASAN's checks, the timer's reprogramming, a wait for other CPUs'
		   IPIs (a TLB flush): where a KASAN guest's hung CPUs were seen, not
		   what they did */
		"__asan_*", "kasan_*", "__kasan_*", "lapic_*", "clockevents_*",
		"smp_call_function*", "on_each_cpu*", "do_kernel_range_flush", "flush_tlb_*", NULL,
	};

	for (const char *const *p = names; *p; p++) {
		size_t n = strlen(*p);

		if ((*p)[n - 1] == '*' ? !strncmp(f, *p, n - 1) : !strcmp(f, *p))
			return true;
	}
	return false;
}

static bool end_of_report(const char *l)
{
	return strstr(l, "---[ end trace") || strstr(l, "---[ end Kernel panic");
}

static bool rip_func(const struct lines *L, size_t from, char *out, size_t n)
{
	for (size_t i = from; i < L->n && i < from + WINDOW; i++) {
		const char *p = strstr(L->s[i], "RIP: 0010:");

		/* A RIP in spinlock or scheduler internals says less than its caller. */
		if (p && symbol_of(p + 10, out, n))
			return !boring_frame(out);
		if (i > from && end_of_report(L->s[i]))
			break;
	}
	return false;
}

static bool trace_func(const struct lines *L, size_t from, char *out, size_t n)
{
	bool in_trace = false;

	for (size_t i = from; i < L->n && i < from + WINDOW; i++) {
		const char *l = L->s[i];
		char f[128];

		if (i > from && end_of_report(l))
			break;
		if (strstr(l, "Call Trace:")) {
			in_trace = true;
			continue;
		}
		if (!in_trace)
			continue;
		while (*l == ' ')
			l++;
		if (*l == '?' || *l == '<')
			continue;	/* unreliable frame, <TASK>/<IRQ> markers */
		if (!symbol_of(l, f, sizeof(f))) {
			in_trace = false;	/* register dump or end of trace */
			continue;
		}
		if (!boring_frame(f)) {
			snprintf(out, n, "%s", f);
			return true;
		}
	}
	return false;
}

/* Lockdep: "… is trying to acquire lock:" then "…, at: func+0x…". */
static bool lockdep_func(const struct lines *L, size_t from, char *out, size_t n)
{
	for (size_t i = from; i < L->n && i < from + 30; i++) {
		const char *p = strstr(L->s[i], ", at: ");

		if (p && symbol_of(p + 6, out, n))
			return true;
	}
	return trace_func(L, from, out, n);
}

/* The function of a hang report's vCPU line in state ("CPU N: spinning RIP: 0010:f+0x…"). */
static bool vcpu_func(const char *l, const char *state, char *out, size_t n)
{
	char mark[32];
	const char *p;

	snprintf(mark, sizeof(mark), " %s RIP: 0010:", state);
	p = strstr(l, mark);
	return !strncmp(l, "CPU ", 4) && p && symbol_of(p + strlen(mark), out, n);
}

/*
 * A hang report (run/guest/hang.h): the function most vCPUs that stayed in one
 * ("spinning") are in, else most running ones; boring ones (on a lock:
 * their caller is the story) only when there is nothing else; a tie goes
 * to the lower CPU.
 */
/*
 * A vCPU line's function (vcpu_func); when its RIP is a boring frame (a
 * KASAN check, a lock), the first frame of its stack scan ("  ? f+0x…")
 * that is not: the code that called it.
 */
static bool vcpu_story(const struct lines *L, size_t i, const char *state, char *out, size_t n)
{
	if (!vcpu_func(L->s[i], state, out, n))
		return false;
	for (size_t j = i + 1; boring_frame(out) && j < L->n && !strncmp(L->s[j], "  ? ", 4); j++) {
		char f[128];

		if (symbol_of(L->s[j] + 4, f, sizeof(f)) && !boring_frame(f)) {
			snprintf(out, n, "%s", f);
			break;
		}
	}
	return true;
}

static bool cpus_func(const struct lines *L, size_t from, char *out, size_t n)
{
	for (const char *const *st = (const char *const[]){ "spinning", "running", NULL }; *st; st++) {
		int best = 0, best_boring = 1;

		for (size_t i = from + 1; i < L->n && strncmp(L->s[i], "--- ", 4); i++) {
			char f[128], g[128];
			int count = 0, boring;

			if (!vcpu_story(L, i, *st, f, sizeof(f)))
				continue;
			for (size_t j = from + 1; j < L->n && strncmp(L->s[j], "--- ", 4); j++)
				count += vcpu_story(L, j, *st, g, sizeof(g)) && !strcmp(f, g);
			boring = boring_frame(f);
			if (boring < best_boring || (boring == best_boring && count > best)) {
				snprintf(out, n, "%s", f);
				best = count;
				best_boring = boring;
			}
		}
		if (best)
			return true;
	}
	return false;
}

/* Where a title's text after its fixed start comes from. */
enum sig_text {
	TEXT_NONE,	/* nothing: the title is fixed */
	TEXT_REST,	/* the header line after the pattern */
	TEXT_BUG_WHAT,	/* the words after the pattern, without details (bug_what) */
	TEXT_REST_SYM,	/* the header line after the pattern, "func+0x…/0x…" as "func" */
	TEXT_TO_IN,	/* the header line after the pattern, up to " in " */
};

/* Where the function of " in FUNC" comes from; none found: the title has no " in …". */
enum sig_func {
	FUNC_NONE,
	FUNC_STACK,	/* the RIP line's, unless a boring frame; else the call trace's */
	FUNC_TRACE,	/* the first frame of the call trace that is not boring */
	FUNC_LOCKDEP,	/* the first ", at: FUNC" (the lock acquired), else the call trace's */
	FUNC_WARN_AT,	/* the header's "at FILE:LINE FUNC+0x…": FUNC, else FILE:LINE */
	FUNC_CPUS,	/* a hang report's: the function most stuck vCPUs are in (cpus_func) */
};

/*
 * A kind of kernel report, as syzkaller's pkg/report lists them: the line
 * that starts it, its kind, and how its one-line title is made.
 */
struct signature {
	const char *pattern;	/* anywhere in the line (timestamp dropped) … */
	bool line_start;	/* … or only at its start */
	const char *then;	/* and this later in the line (NULL: nothing more) */
	enum crash_kind kind;
	const char *title;	/* the title, or its start when text adds to it */
	enum sig_text text;
	enum sig_func func;
};

/*
 * Tried in this order, the first match decides: a line can hold more than
 * one pattern ("WARNING: possible circular locking …" also starts
 * "WARNING: ", "BUG: soft lockup" also holds "BUG: ").
 */
static const struct signature signatures[] = {
	{ "htab-torture: hang: every vCPU halted", true, NULL, CK_HANG,
	  "hang: every CPU idle", TEXT_NONE, FUNC_NONE },
	{ "htab-torture: hang: ", true, NULL, CK_HANG,
	  "hang: CPUs spinning", TEXT_NONE, FUNC_CPUS },
	{ "Kernel panic - not syncing: ", false, NULL, CK_PANIC,
	  "kernel panic: ", TEXT_REST, FUNC_NONE },
	{ "BUG: soft lockup", false, NULL, CK_SOFT_LOCKUP,
	  "BUG: soft lockup", TEXT_NONE, FUNC_STACK },
	{ "hard LOCKUP", false, NULL, CK_HARD_LOCKUP,
	  "BUG: hard lockup", TEXT_NONE, FUNC_STACK },
	{ "INFO: rcu_", false, "stall", CK_RCU_STALL,
	  "INFO: rcu detected stall", TEXT_NONE, FUNC_STACK },
	{ "INFO: task ", false, "blocked for more than", CK_HUNG_TASK,
	  "INFO: task hung", TEXT_NONE, FUNC_TRACE },
	{ "WARNING: possible circular locking dependency detected", false, NULL, CK_LOCKDEP,
	  "possible deadlock", TEXT_NONE, FUNC_LOCKDEP },
	{ "WARNING: possible recursive locking detected", false, NULL, CK_LOCKDEP,
	  "possible deadlock", TEXT_NONE, FUNC_LOCKDEP },
	{ "WARNING: inconsistent lock state", false, NULL, CK_LOCKDEP,
	  "inconsistent lock state", TEXT_NONE, FUNC_LOCKDEP },
	{ "WARNING: CPU: ", false, NULL, CK_WARNING,
	  "WARNING", TEXT_NONE, FUNC_WARN_AT },
	{ "BUG: KASAN: ", false, NULL, CK_KASAN,
	  "KASAN: ", TEXT_REST_SYM, FUNC_NONE },
	{ "BUG: KFENCE: ", false, NULL, CK_KFENCE,
	  "KFENCE: ", TEXT_REST_SYM, FUNC_NONE },
	{ "UBSAN: ", true, NULL, CK_UBSAN,
	  "UBSAN: ", TEXT_TO_IN, FUNC_TRACE },
	{ "list_add corruption", false, NULL, CK_LIST,
	  "list_add corruption", TEXT_NONE, FUNC_STACK },
	{ "list_del corruption", false, NULL, CK_LIST,
	  "list_del corruption", TEXT_NONE, FUNC_STACK },
	{ "BUG: kernel NULL pointer dereference", false, NULL, CK_OOPS,
	  "BUG: kernel NULL pointer dereference", TEXT_NONE, FUNC_STACK },
	{ "BUG: unable to handle page fault", false, NULL, CK_OOPS,
	  "BUG: unable to handle kernel paging request", TEXT_NONE, FUNC_STACK },
	{ "BUG: unable to handle kernel paging request", false, NULL, CK_OOPS,
	  "BUG: unable to handle kernel paging request", TEXT_NONE, FUNC_STACK },
	{ "general protection fault", false, NULL, CK_GPF,
	  "general protection fault", TEXT_NONE, FUNC_STACK },
	{ "kernel BUG at ", false, NULL, CK_BUG,
	  "kernel BUG", TEXT_NONE, FUNC_STACK },
	{ "BUG: ", false, NULL, CK_BUG,
	  "BUG: ", TEXT_BUG_WHAT, FUNC_STACK },
	{ "Oops: ", true, NULL, CK_OOPS,
	  "Oops", TEXT_NONE, FUNC_STACK },
	{ "WARNING: ", true, NULL, CK_WARNING,
	  "WARNING: ", TEXT_REST, FUNC_NONE },
};

/* The signature a (stripped) line starts, or NULL; *end: just past its pattern. */
static const struct signature *signature_of(const char *l, const char **end)
{
	for (size_t k = 0; k < sizeof(signatures) / sizeof(signatures[0]); k++) {
		const struct signature *sig = &signatures[k];
		size_t n = strlen(sig->pattern);
		const char *p = sig->line_start ? (strncmp(l, sig->pattern, n) ? NULL : l)
						: strstr(l, sig->pattern);

		if (!p || (sig->then && !strstr(p + n, sig->then)))
			continue;
		*end = p + n;
		return sig;
	}
	return NULL;
}

/*
 * "scheduling while atomic: swapper/0/0x2" -> "scheduling while atomic";
 * "workqueue lockup - pool cpus=1 …", "… at kernel/sched/core.c:9870":
 * details, not the title; so are addresses and CPU numbers.
 */
static void bug_what(const char *p, char *out, size_t n)
{
	snprintf(out, n, "%.*s", (int)strcspn(p, ":,!("), p);
	for (const char *const *cut = (const char *const[]){ " - ", " at ", NULL }; *cut; cut++) {
		char *c = strstr(out, *cut);

		if (c)
			*c = '\0';
	}
	out[strcspn(out, "0123456789")] = '\0';
	while (strlen(out) && out[strlen(out) - 1] == ' ')
		out[strlen(out) - 1] = '\0';
}

/* "use-after-free in func+0x3c/0xb0" -> "use-after-free in func": offsets differ by build. */
static void rest_sym(const char *p, char *out, size_t n)
{
	char buf[LINE_MAX_MATCH], f[128], *mod;
	const char *last;

	/* a module's function: "func+0x…/0x… [mod]", titled "func" as the kernel's are */
	snprintf(buf, sizeof(buf), "%s", p);
	mod = strrchr(buf, '[');
	if (mod && mod > buf && mod[-1] == ' ' && mod[strcspn(mod, "]")] == ']' &&
	    !mod[strcspn(mod, "]") + 1])
		mod[-1] = '\0';
	p = buf;
	last = strrchr(p, ' ');
	last = last ? last + 1 : p;
	if (symbol_of(last, f, sizeof(f)))
		fmt_cut(out, n, "%.*s%s", (int)(last - p), p, f);
	else
		fmt_cut(out, n, "%s", p);
}

/* "WARNING: CPU: 0 PID: 1 at file.c:12 func+0x0/0x10": "func", else "file.c:12". */
static bool warn_at_func(const char *l, char *out, size_t n)
{
	const char *at = strstr(l, " at "), *sym;

	if (!at)
		return false;
	sym = strchr(at + 4, ' ');
	if (sym && symbol_of(sym, out, n))
		return true;
	snprintf(out, n, "%.*s", (int)strcspn(at + 4, " "), at + 4);
	return true;
}

/* The function a report of signature sig, header at line i, is titled after. */
static bool report_func(const struct signature *sig, const struct lines *L, size_t i,
			char *out, size_t n)
{
	switch (sig->func) {
	case FUNC_STACK:
		return rip_func(L, i, out, n) || trace_func(L, i, out, n);
	case FUNC_TRACE:
		return trace_func(L, i, out, n);
	case FUNC_LOCKDEP:
		return lockdep_func(L, i, out, n);
	case FUNC_WARN_AT:
		return warn_at_func(L->s[i], out, n);
	case FUNC_CPUS:
		return cpus_func(L, i, out, n);
	case FUNC_NONE:
		break;
	}
	return false;
}

/* One line: is it a report header? Fill r (kind, signature) if so. */
static bool classify(const struct lines *L, size_t i, struct console_report *r)
{
	const char *end;
	const struct signature *sig = signature_of(L->s[i], &end);
	char text[sizeof(r->signature)] = "", f[128];

	if (!sig)
		return false;
	r->kind = sig->kind;
	if (sig->text == TEXT_REST)
		snprintf(text, sizeof(text), "%s", end);
	else if (sig->text == TEXT_BUG_WHAT)
		bug_what(end, text, sizeof(text));
	else if (sig->text == TEXT_REST_SYM)
		rest_sym(end, text, sizeof(text));
	else if (sig->text == TEXT_TO_IN)
		snprintf(text, sizeof(text), "%.*s",
			 strstr(end, " in ") ? (int)(strstr(end, " in ") - end) : (int)strlen(end), end);
	/* one bounded line (console_scan.h): fmt_cut marks a cut */
	if (report_func(sig, L, i, f, sizeof(f)))
		fmt_cut(r->signature, sizeof(r->signature), "%s%s in %s", sig->title, text, f);
	else
		fmt_cut(r->signature, sizeof(r->signature), "%s%s", sig->title, text);
	return true;
}

enum crash_kind console_line_kind(const char *line)
{
	char buf[LINE_MAX_MATCH];
	const char *end;
	const struct signature *sig;

	snprintf(buf, sizeof(buf), "%s", line);
	buf[strcspn(buf, "\n")] = '\0';
	sig = signature_of(strip_line(buf), &end);
	return sig ? sig->kind : CK_NONE;
}

/* The line at p, stripped for matching, into buf. */
static const char *stripped(const char *p, char *buf, size_t n)
{
	snprintf(buf, n, "%.*s", (int)strcspn(p, "\n"), p);
	return strip_line(buf);
}

static const char *next_line(const char *p)
{
	const char *eol = strchr(p, '\n');

	return eol && eol[1] ? eol + 1 : NULL;
}

static bool starts_with_any(const char *l, const char *const *prefixes)
{
	while (*l == ' ' || *l == '\t')
		l++;
	for (; *prefixes; prefixes++)
		if (!strncmp(l, *prefixes, strlen(*prefixes)))
			return true;
	return false;
}

/*
 * After a call trace's "</TASK>": is the report over? Not when its own tail
 * follows (an Oops prints "Modules linked in", "CR2", then "---[ end trace";
 * a WARNING under lockdep "irq event stamp" lines first) or another stack of
 * the same report (an RCU stall dumps every stalled CPU).
 */
static bool report_goes_on(const char *next)
{
	static const char *const more_stacks[] = {
		"Sending NMI", "NMI backtrace", "<TASK>", "<IRQ>", "<NMI>", "Call Trace:", "CPU: ",
		"Modules linked in", "CR2: ", "irq event stamp", "hardirqs last", "softirqs last",
		"Kernel Offset:", "---[ end", NULL,
	};
	char buf[LINE_MAX_MATCH];
	const char *p = next;

	if (!p)
		return false;
	if (starts_with_any(stripped(p, buf, sizeof(buf)), more_stacks))
		return true;
	/* An "---[ end trace" a few lines on, before anything else starts, closes this one. */
	for (int k = 0; k < 8 && p; k++, p = next_line(p)) {
		const char *l = stripped(p, buf, sizeof(buf)), *end;

		if (end_of_report(l))
			return true;
		if (signature_of(l, &end) || strstr(l, "runner: "))
			return false;
	}
	return false;
}

/* "[    9.104281] …": printk's own timestamp (the runner's "[8.35] runner: …" has two decimals). */
static bool kernel_line(const char *p)
{
	size_t n;

	if (*p != '[')
		return false;
	p += 1 + strspn(p + 1, " ");
	p += strspn(p, "0123456789");
	if (*p != '.')
		return false;
	n = strspn(p + 1, "0123456789");
	return n == 6 && p[7] == ']';
}

char *console_excerpt(const char *text, int lineno)
{
	static const char cut[] = "[excerpt cut]\n";
	size_t cap = EXCERPT_MAX_BYTES - sizeof(cut), len = 0;
	const char *p = text;
	char *out, buf[LINE_MAX_MATCH];
	int nlines = 0;
	bool printk, in_trace = false;

	for (int i = 1; p && i < lineno; i++)
		p = next_line(p);
	if (!p || lineno < 1 || !(out = malloc(EXCERPT_MAX_BYTES)))
		return NULL;
	printk = kernel_line(p);
	for (; p; p = next_line(p)) {
		size_t n = strcspn(p, "\n");
		const char *l = stripped(p, buf, sizeof(buf));

		while (n && p[n - 1] == '\r')
			n--;
		/*
		 * Guest user space (the runner, init) writes to the same console:
		 * its lines are never part of a report. Inside a call trace they
		 * only interleave; elsewhere (a report without a trace) they
		 * follow its end.
		 */
		if (printk && nlines && !kernel_line(p)) {
			if (in_trace)
				continue;
			break;
		}
		if (strstr(l, "Call Trace:"))
			in_trace = true;
		if (nlines == EXCERPT_MAX_LINES || len + n + 1 > cap) {
			memcpy(out + len, cut, sizeof(cut));	/* with its NUL */
			return out;
		}
		memcpy(out + len, p, n);
		len += n;
		out[len++] = '\n';
		nlines++;
		if (nlines > 1 && end_of_report(l))
			break;
		if (!strcmp(l + strspn(l, " \t"), "</TASK>")) {
			in_trace = false;
			if (!report_goes_on(next_line(p)))
				break;
		}
	}
	out[len] = '\0';
	return out;
}

int console_scan(const char *text, struct console_report *r)
{
	char *buf = strdup(text ? text : "");
	struct lines L = { 0 };
	int found = 0;

	memset(r, 0, sizeof(*r));
	if (!buf || split_lines(buf, &L))
		goto cleanup;
	for (size_t i = 0; i < L.n; i++) {
		struct console_report cur = { 0 };

		if (!classify(&L, i, &cur))
			continue;
		r->nreports++;
		/* An Oops is followed by its own "Kernel panic - … Fatal exception": one report. */
		if (found)
			continue;
		*r = cur;
		r->nreports = 1;
		r->lineno = (int)i + 1;
		snprintf(r->line, sizeof(r->line), "%s", L.s[i]);
		found = 1;
	}
cleanup:
	free(L.s);
	free(buf);
	return found;
}
