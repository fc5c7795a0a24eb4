/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who calls the map: the caller kinds of htab_torture.ko, one line each,
 * the only list of them. HT_CALLERS(X) expands X(name) per kind, in the
 * order they are listed (callers= description, --help, the error naming
 * the valid ones, the results' callers[]). From it the module builds its
 * table (kmod/callers.c) and the harness its valid --callers kinds
 * (harness/run/plan/cli.c).
 *
 *   kthread  one bound kthread per selected CPU runs the workload (the
 *            default, and always there: the workload is theirs)
 *   nmi      an NMI on every worker CPU, sent by the previous worker
 *            CPU's hrtimer, inserts, checks and deletes a key of its own
 *   irq      that hrtimer's callback (hardirq) does the same with keys of
 *            its own
 *   task     tasks_per_cpu user-space tasks per worker CPU, unbound and
 *            preemptible (vm-images/guest/tasks.c, started by the runner),
 *            call the map through the bpf() syscall on keys of their own
 *            (protocol: kmod/tasks_proto.h)
 *
 * A callers= value joins kinds with '+' (kthread+nmi+irq), kthread first.
 * Plain preprocessor, no kernel types or includes, so host C can include it.
 */
#ifndef HT_CALLERS_H
#define HT_CALLERS_H

#define HT_CALLERS(X)			\
	X(kthread)			\
	X(nmi)				\
	X(irq)				\
	X(task)

/* The one kind every value holds, and the default value. */
#define HT_CALLERS_DEFAULT	"kthread"

/* tasks_per_cpu=-1 (its default, kmod/params.h) with task: tasks per worker CPU. */
#define HT_TASKS_PER_CPU_DEFAULT	4

#endif /* HT_CALLERS_H */
