/*
 * Console classifier (see console_scan.h). Lines are matched after dropping
 * the printk timestamp; a report's function comes from its RIP line, its
 * call trace or its own header, as syzkaller's report titles do.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console_scan.h"

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
	};

	return k <= CK_KASAN ? names[k] : "?";
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
		"do_softirq*", "panic", NULL,
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

static void title(struct console_report *r, const char *what, bool have, const char *func)
{
	if (have)
		snprintf(r->signature, sizeof(r->signature), "%s in %s", what, func);
	else
		snprintf(r->signature, sizeof(r->signature), "%s", what);
}

/* A title "WHAT in FUNC", FUNC from the RIP line, else the call trace. */
static void title_from_stack(struct console_report *r, const struct lines *L, size_t i,
			     const char *what)
{
	char f[128];
	bool have = rip_func(L, i, f, sizeof(f)) || trace_func(L, i, f, sizeof(f));

	title(r, what, have, f);
}

/* "WARNING: CPU: 0 PID: 1 at file.c:12 func+0x0/0x10" -> "WARNING in func". */
static void warning_title(struct console_report *r, const char *l)
{
	const char *at = strstr(l, " at ");
	char f[128];

	if (at) {
		const char *sym = strchr(at + 4, ' ');

		if (sym && symbol_of(sym, f, sizeof(f))) {
			title(r, "WARNING", true, f);
			return;
		}
		snprintf(r->signature, sizeof(r->signature), "WARNING in %.*s",
			 (int)strcspn(at + 4, " "), at + 4);
		return;
	}
	title(r, "WARNING", false, NULL);
}

/* "BUG: scheduling while atomic: swapper/0/0x2" -> "BUG: scheduling while atomic". */
static void generic_title(struct console_report *r, const struct lines *L, size_t i,
			  const char *p)
{
	char what[160];

	p += 5;	/* past "BUG: " */
	snprintf(what, sizeof(what), "BUG: %.*s", (int)strcspn(p, ":,!("), p);
	/* "… - pool cpus=1 …", "… at kernel/sched/core.c:9870": details, not the title. */
	for (const char *const *cut = (const char *const[]){ " - ", " at ", NULL }; *cut; cut++) {
		char *c = strstr(what, *cut);

		if (c)
			*c = '\0';
	}
	what[strcspn(what, "0123456789")] = '\0';	/* drop addresses, CPU numbers */
	while (strlen(what) && what[strlen(what) - 1] == ' ')
		what[strlen(what) - 1] = '\0';
	title_from_stack(r, L, i, what);
}

/*
 * The report headers, in the order they are tried: a line can hold more than
 * one pattern ("WARNING: possible circular locking …" also starts
 * "WARNING: "), the first match decides.
 */
enum header {
	H_NONE, H_PANIC, H_SOFT_LOCKUP, H_HARD_LOCKUP, H_RCU_STALL, H_HUNG_TASK, H_DEADLOCK,
	H_LOCK_STATE, H_WARNING_CPU, H_KASAN, H_NULL_DEREF, H_PAGING, H_GPF, H_KERNEL_BUG,
	H_BUG, H_OOPS, H_WARNING,
};

static const enum crash_kind header_kind[] = {
	[H_NONE] = CK_NONE, [H_PANIC] = CK_PANIC, [H_SOFT_LOCKUP] = CK_SOFT_LOCKUP,
	[H_HARD_LOCKUP] = CK_HARD_LOCKUP, [H_RCU_STALL] = CK_RCU_STALL,
	[H_HUNG_TASK] = CK_HUNG_TASK, [H_DEADLOCK] = CK_LOCKDEP, [H_LOCK_STATE] = CK_LOCKDEP,
	[H_WARNING_CPU] = CK_WARNING, [H_KASAN] = CK_KASAN, [H_NULL_DEREF] = CK_OOPS,
	[H_PAGING] = CK_OOPS, [H_GPF] = CK_GPF, [H_KERNEL_BUG] = CK_BUG, [H_BUG] = CK_BUG,
	[H_OOPS] = CK_OOPS, [H_WARNING] = CK_WARNING,
};

/* Which header a (stripped) line is; *at points at the pattern where titles need it. */
static enum header header_of(const char *l, const char **at)
{
	const char *p;

	*at = l;
	if ((p = strstr(l, "Kernel panic - not syncing: "))) {
		*at = p + 28;
		return H_PANIC;
	}
	if (strstr(l, "BUG: soft lockup"))
		return H_SOFT_LOCKUP;
	if (strstr(l, "hard LOCKUP"))
		return H_HARD_LOCKUP;
	if ((p = strstr(l, "INFO: rcu_")) && strstr(p, "stall"))
		return H_RCU_STALL;
	if (strstr(l, "INFO: task ") && strstr(l, "blocked for more than"))
		return H_HUNG_TASK;
	if (strstr(l, "WARNING: possible circular locking dependency detected") ||
	    strstr(l, "WARNING: possible recursive locking detected"))
		return H_DEADLOCK;
	if (strstr(l, "WARNING: inconsistent lock state"))
		return H_LOCK_STATE;
	if ((p = strstr(l, "WARNING: CPU: "))) {
		*at = p;
		return H_WARNING_CPU;
	}
	if ((p = strstr(l, "BUG: KASAN: "))) {
		*at = p + 5;
		return H_KASAN;
	}
	if (strstr(l, "BUG: kernel NULL pointer dereference"))
		return H_NULL_DEREF;
	if (strstr(l, "BUG: unable to handle page fault") ||
	    strstr(l, "BUG: unable to handle kernel paging request"))
		return H_PAGING;
	if (strstr(l, "general protection fault"))
		return H_GPF;
	if (strstr(l, "kernel BUG at "))
		return H_KERNEL_BUG;
	if ((p = strstr(l, "BUG: "))) {
		*at = p;
		return H_BUG;
	}
	if (!strncmp(l, "Oops: ", 6))
		return H_OOPS;
	if (!strncmp(l, "WARNING: ", 9))
		return H_WARNING;
	return H_NONE;
}

/* Reports titled "WHAT in FUNC" from their RIP line or call trace. */
static const char *const stack_title[] = {
	[H_SOFT_LOCKUP] = "BUG: soft lockup", [H_HARD_LOCKUP] = "BUG: hard lockup",
	[H_RCU_STALL] = "INFO: rcu detected stall",
	[H_NULL_DEREF] = "BUG: kernel NULL pointer dereference",
	[H_PAGING] = "BUG: unable to handle kernel paging request",
	[H_GPF] = "general protection fault", [H_KERNEL_BUG] = "kernel BUG", [H_OOPS] = "Oops",
};

/* One line: is it a report header? Fill r (kind, signature) if so. */
static bool classify(const struct lines *L, size_t i, struct console_report *r)
{
	const char *p;
	enum header h = header_of(L->s[i], &p);
	char f[128];

	r->kind = header_kind[h];
	switch (h) {
	case H_NONE:
		return false;
	case H_PANIC:
		snprintf(r->signature, sizeof(r->signature), "kernel panic: %s", p);
		break;
	case H_HUNG_TASK:
		title(r, "INFO: task hung", trace_func(L, i, f, sizeof(f)), f);
		break;
	case H_DEADLOCK:
	case H_LOCK_STATE:
		title(r, h == H_DEADLOCK ? "possible deadlock" : "inconsistent lock state",
		      lockdep_func(L, i, f, sizeof(f)), f);
		break;
	case H_WARNING_CPU:
		warning_title(r, p);
		break;
	case H_KASAN:
	case H_WARNING:
		snprintf(r->signature, sizeof(r->signature), "%s", p);
		break;
	case H_BUG:
		generic_title(r, L, i, p);
		break;
	default:
		title_from_stack(r, L, i, stack_title[h]);
	}
	return true;
}

enum crash_kind console_line_kind(const char *line)
{
	char buf[LINE_MAX_MATCH];
	const char *at;

	snprintf(buf, sizeof(buf), "%s", line);
	buf[strcspn(buf, "\n")] = '\0';
	return header_kind[header_of(strip_line(buf), &at)];
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
		const char *l = stripped(p, buf, sizeof(buf)), *at;

		if (end_of_report(l))
			return true;
		if (header_of(l, &at) != H_NONE || strstr(l, "runner: "))
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
