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
	char what[160], f[128];
	bool have;

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
	have = rip_func(L, i, f, sizeof(f)) || trace_func(L, i, f, sizeof(f));
	title(r, what, have, f);
}

/* One line: is it a report header? Fill r (kind, signature) if so. */
static bool classify(const struct lines *L, size_t i, struct console_report *r)
{
	const char *l = L->s[i], *p;
	char f[128];
	bool have;

	if ((p = strstr(l, "Kernel panic - not syncing: "))) {
		r->kind = CK_PANIC;
		snprintf(r->signature, sizeof(r->signature), "kernel panic: %s", p + 28);
	} else if (strstr(l, "BUG: soft lockup")) {
		r->kind = CK_SOFT_LOCKUP;
		have = rip_func(L, i, f, sizeof(f)) || trace_func(L, i, f, sizeof(f));
		title(r, "BUG: soft lockup", have, f);
	} else if (strstr(l, "hard LOCKUP")) {
		r->kind = CK_HARD_LOCKUP;
		have = rip_func(L, i, f, sizeof(f)) || trace_func(L, i, f, sizeof(f));
		title(r, "BUG: hard lockup", have, f);
	} else if ((p = strstr(l, "INFO: rcu_")) && strstr(p, "stall")) {
		r->kind = CK_RCU_STALL;
		have = rip_func(L, i, f, sizeof(f)) || trace_func(L, i, f, sizeof(f));
		title(r, "INFO: rcu detected stall", have, f);
	} else if (strstr(l, "INFO: task ") && strstr(l, "blocked for more than")) {
		r->kind = CK_HUNG_TASK;
		have = trace_func(L, i, f, sizeof(f));
		title(r, "INFO: task hung", have, f);
	} else if (strstr(l, "WARNING: possible circular locking dependency detected") ||
		   strstr(l, "WARNING: possible recursive locking detected")) {
		r->kind = CK_LOCKDEP;
		have = lockdep_func(L, i, f, sizeof(f));
		title(r, "possible deadlock", have, f);
	} else if ((p = strstr(l, "WARNING: inconsistent lock state"))) {
		r->kind = CK_LOCKDEP;
		have = lockdep_func(L, i, f, sizeof(f));
		title(r, "inconsistent lock state", have, f);
	} else if ((p = strstr(l, "WARNING: CPU: "))) {
		r->kind = CK_WARNING;
		warning_title(r, p);
	} else if ((p = strstr(l, "BUG: KASAN: "))) {
		r->kind = CK_KASAN;
		snprintf(r->signature, sizeof(r->signature), "%s", p + 5);
	} else if (strstr(l, "BUG: kernel NULL pointer dereference")) {
		r->kind = CK_OOPS;
		have = rip_func(L, i, f, sizeof(f)) || trace_func(L, i, f, sizeof(f));
		title(r, "BUG: kernel NULL pointer dereference", have, f);
	} else if (strstr(l, "BUG: unable to handle page fault") ||
		   strstr(l, "BUG: unable to handle kernel paging request")) {
		r->kind = CK_OOPS;
		have = rip_func(L, i, f, sizeof(f)) || trace_func(L, i, f, sizeof(f));
		title(r, "BUG: unable to handle kernel paging request", have, f);
	} else if (strstr(l, "general protection fault")) {
		r->kind = CK_GPF;
		have = rip_func(L, i, f, sizeof(f)) || trace_func(L, i, f, sizeof(f));
		title(r, "general protection fault", have, f);
	} else if (strstr(l, "kernel BUG at ")) {
		r->kind = CK_BUG;
		have = rip_func(L, i, f, sizeof(f)) || trace_func(L, i, f, sizeof(f));
		title(r, "kernel BUG", have, f);
	} else if ((p = strstr(l, "BUG: "))) {
		r->kind = CK_BUG;
		generic_title(r, L, i, p);
	} else if (!strncmp(l, "Oops: ", 6)) {
		r->kind = CK_OOPS;
		have = rip_func(L, i, f, sizeof(f)) || trace_func(L, i, f, sizeof(f));
		title(r, "Oops", have, f);
	} else if (!strncmp(l, "WARNING: ", 9)) {
		r->kind = CK_WARNING;
		snprintf(r->signature, sizeof(r->signature), "%s", l);
	} else {
		return false;
	}
	return true;
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
