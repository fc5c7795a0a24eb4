// SPDX-License-Identifier: GPL-2.0
/*
 * The cpus= parameter: "" or "-1" means every online CPU, otherwise a
 * cpulist ("0-3,8") whose CPUs must all be online.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/string.h>
#include "htab_torture.h"

int ht_cpus_parse(const char *list, struct cpumask *mask)
{
	int ret;

	if (!list || !*list || !strcmp(list, "-1")) {
		cpumask_copy(mask, cpu_online_mask);
		return 0;
	}
	ret = cpulist_parse(list, mask);
	if (ret == -ERANGE) {
		pr_err("cpus=%s names CPUs past nr_cpu_ids=%u; online CPUs: %*pbl\n",
		       list, nr_cpu_ids, cpumask_pr_args(cpu_online_mask));
		return -EINVAL;
	}
	if (ret) {
		pr_err("cpus=%s is not a valid cpulist (e.g. \"0-3,8\"); online CPUs: %*pbl\n",
		       list, cpumask_pr_args(cpu_online_mask));
		return -EINVAL;
	}
	if (cpumask_empty(mask)) {
		pr_err("cpus=%s selects no CPU; online CPUs: %*pbl\n",
		       list, cpumask_pr_args(cpu_online_mask));
		return -EINVAL;
	}
	if (!cpumask_subset(mask, cpu_online_mask)) {
		pr_err("cpus=%s names CPUs that are not online; online CPUs: %*pbl\n",
		       list, cpumask_pr_args(cpu_online_mask));
		return -EINVAL;
	}
	return 0;
}
