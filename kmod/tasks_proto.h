/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the module and its task callers (callers=...+task) say to each
 * other through debugfs, the one definition of it: the module
 * (kmod/callers_task.c) prints and parses these lines, the guest program
 * (vm-images/guest/tasks.c) parses and prints them, and
 * tests/unit/test_tasks_proto.c tests the parser on the host. Every line
 * is "name=N name=N ...", decimal unsigned numbers, names from the lists
 * below. Plain C, no kernel or libc headers, so all three can include it.
 *
 * /sys/kernel/debug/htab_torture/
 *   tasks   read: the contract, HT_TASK_CONTRACT's fields. Task I (0 ..
 *           tasks-1) owns keys key0 + I * key_stride .. + keys - 1 and
 *           stamps its values as writer writer0 + I, sequence from 1.
 *           write: "ready task=I" once it holds the map's fd, then, after
 *           the window, "report " and HT_TASK_REPORT's fields.
 *   window  read: blocks until the workers' window opens (or the module
 *           goes away), then HT_TASK_WINDOW's fields; end_ns is on
 *           CLOCK_MONOTONIC (the module's ktime_get_ns()).
 */
#ifndef HT_TASKS_PROTO_H
#define HT_TASKS_PROTO_H

#define HT_TASK_CONTRACT(X)						\
	X(map_id) X(value_size) X(percpu) X(possible_cpus) X(tasks)	\
	X(key0) X(key_stride) X(keys) X(writer0) X(keeps_full) X(verify)

#define HT_TASK_WINDOW(X)	X(start_ns) X(end_ns) X(abort)

/*
 * A task's counts: calls (one pass over a key), map ops by kind,
 * live (its successful inserts minus deletes), seq (the last stamp
 * sequence it wrote), failed ops by errno (HT_TASK_ERRNOS, the rest in
 * other/other_errno), what its checks found (corrupt, the first one as
 * bad = an HT_TASK_BADS code with the key, sequence wanted, CPU slot and
 * stamp seen; double_alloc, the first key), and how it ran: the CPU of
 * its last call, how often consecutive calls ran on different CPUs, its
 * voluntary and involuntary context switches (getrusage).
 */
#define HT_TASK_REPORT(X)						\
	X(task) X(pid) X(calls) X(update) X(lookup) X(delete) X(live)	\
	X(seq) X(other) X(other_errno) X(corrupt) X(double_alloc)	\
	X(double_key) X(bad) X(bad_key) X(bad_seq) X(bad_cpu)		\
	X(seen_key) X(seen_writer) X(seen_seq) X(cpu) X(migrations)	\
	X(nvcsw) X(nivcsw)

/* Errnos counted by name, as the module's stats do (kmod/stats.h). */
#define HT_TASK_ERRNOS(X)						\
	X(E2BIG) X(ENOENT) X(EEXIST) X(ENOMEM) X(EBUSY) X(EINVAL)

/* bad=: what a task's check saw first, the module's own words (stamp.c). */
#define HT_TASK_BADS(X)							\
	X(1, "stamp mismatch")						\
	X(2, "stored key missing")					\
	X(3, "key present though never stored")

#define HT_TP_ENUM(name)	HT_TC_##name,
enum ht_task_contract { HT_TASK_CONTRACT(HT_TP_ENUM) HT_TC_NR };
#undef HT_TP_ENUM
#define HT_TP_ENUM(name)	HT_TW_##name,
enum ht_task_window { HT_TASK_WINDOW(HT_TP_ENUM) HT_TW_NR };
#undef HT_TP_ENUM
/* The report's fields, then its errno counts (HT_TR_E2BIG, ...). */
#define HT_TP_ENUM(name)	HT_TR_##name,
enum ht_task_report {
	HT_TASK_REPORT(HT_TP_ENUM) HT_TASK_ERRNOS(HT_TP_ENUM) HT_TR_NR
};
#undef HT_TP_ENUM
#define HT_TR_ERR0		HT_TR_E2BIG
#define HT_TR_NR_ERRNOS		(HT_TR_NR - HT_TR_ERR0)

#define HT_TP_NAME(name)	#name,
static const char *const ht_task_contract_names[HT_TC_NR] = {
	HT_TASK_CONTRACT(HT_TP_NAME)
};
static const char *const ht_task_window_names[HT_TW_NR] = {
	HT_TASK_WINDOW(HT_TP_NAME)
};
static const char *const ht_task_report_names[HT_TR_NR] = {
	HT_TASK_REPORT(HT_TP_NAME) HT_TASK_ERRNOS(HT_TP_NAME)
};
#undef HT_TP_NAME

#define HT_TP_BAD(code, what)	[code] = what,
static const char *const ht_task_bad_names[] = {
	[0] = 0, HT_TASK_BADS(HT_TP_BAD)
};
#undef HT_TP_BAD
#define HT_TASK_NR_BADS	(sizeof(ht_task_bad_names) / sizeof(ht_task_bad_names[0]))

/* A line is at most this long (a report with every field at 2^64 fits). */
#define HT_TASK_LINE_MAX	1024

static inline int ht_tp_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Is @name the @len characters at @tok? */
static inline int ht_tp_name_is(const char *name, const char *tok, int len)
{
	int j;

	for (j = 0; j < len; j++)
		if (name[j] != tok[j])
			return 0;
	return !name[len];
}

/*
 * Parses @s, "name=N ..." with every name among @names[0..@n-1] (n <= 64),
 * each at most once, into @v (fields not given are left alone); *@seen
 * gets a bit per field given. Returns 0, or -(1 + offset) of the first
 * token that is not such a field (unknown, repeated, no '=', not a
 * decimal number, past 2^64 - 1).
 */
static inline int ht_tp_parse(const char *s, const char *const names[], int n,
			      unsigned long long v[], unsigned long long *seen)
{
	const char *p = s, *tok;
	unsigned long long x;
	int i, len;

	*seen = 0;
	for (;;) {
		while (ht_tp_space(*p))
			p++;
		if (!*p)
			return 0;
		tok = p;
		while (*p && *p != '=' && !ht_tp_space(*p))
			p++;
		len = (int)(p - tok);
		for (i = 0; i < n; i++)
			if (names[i] && ht_tp_name_is(names[i], tok, len))
				break;
		if (*p != '=' || i == n || (*seen & (1ULL << i)))
			return -(int)(1 + (tok - s));
		p++;
		if (*p < '0' || *p > '9')
			return -(int)(1 + (tok - s));
		for (x = 0; *p >= '0' && *p <= '9'; p++) {
			if (x > (~0ULL - (unsigned long long)(*p - '0')) / 10)
				return -(int)(1 + (tok - s));
			x = x * 10 + (unsigned long long)(*p - '0');
		}
		if (*p && !ht_tp_space(*p))
			return -(int)(1 + (tok - s));
		v[i] = x;
		*seen |= 1ULL << i;
	}
}

/* Every one of @n fields given? */
static inline int ht_tp_all(unsigned long long seen, int n)
{
	return seen == (n == 64 ? ~0ULL : (1ULL << n) - 1);
}

#endif /* HT_TASKS_PROTO_H */
