/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workloads of htab_torture.ko, one line each: the only list of them.
 * HT_WORKLOADS(X) expands X(name) per workload, in the order they are listed
 * (workload= description, --help, the error naming the valid ones). From it:
 * the module declares and tables its ht_wl_<name> (htab_torture.h,
 * htab_torture_main.c), kmod/Kbuild links wl_<name>.o, and the harness
 * (harness/run/plan/cli.c) builds its valid --workload names and --help line.
 * Adding a workload: kmod/wl_<name>.c defining ht_wl_<name>, and its line here.
 *
 * Plain preprocessor, no kernel types or includes, so host C can include it.
 * kmod/Kbuild reads the X(name) lines with sed: keep one per line.
 */
#ifndef HT_WORKLOADS_H
#define HT_WORKLOADS_H

#define HT_WORKLOADS(X)			\
	X(full_update)			\
	X(overwrite)			\
	X(batch_add_batch_del)		\
	X(add_del_on_diff_cpu)		\
	X(lookup)			\
	X(churn)			\
	X(add_many_del_one)

#endif /* HT_WORKLOADS_H */
