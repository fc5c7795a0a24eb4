/*
 * The matrix plan of a `run` (every axis value crossed, in a fixed order),
 * shard slicing and the scheduler's fit rule (see matrix.h). Pure functions
 * where it matters, so tests/unit/test_matrix.c can check each decision
 * without a VM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "rundir/cell_id.h"
#include "run/matrix.h"

int plan_build(const struct run_opts *o, struct plan *p)
{
	size_t nta = o->test_actions.n ? o->test_actions.n : 1;
	size_t nf = o->faults.n ? o->faults.n : 1;
	size_t total = (size_t)o->repeat * o->kernels.n * o->noises.n * nf * nta *
		       o->workloads.n * (size_t)o->ncpus;
	size_t k = 0;

	p->n = 0;
	p->cells = calloc(total ? total : 1, sizeof(*p->cells));
	if (!p->cells)
		return -1;
	for (int r = 0; r < o->repeat; r++)
		for (size_t kn = 0; kn < o->kernels.n; kn++)
			for (size_t ns = 0; ns < o->noises.n; ns++)
				for (size_t fi = 0; fi < nf; fi++)
				for (size_t ta = 0; ta < nta; ta++)
					for (size_t w = 0; w < o->workloads.n; w++)
						for (int v = 0; v < o->ncpus; v++) {
							struct plan_cell *c = &p->cells[k];
							const char *a = o->test_actions.n ? o->test_actions.v[ta] : NULL;

							if (a && !strcmp(a, "none"))
								a = NULL;
							c->index = k++;
							c->vcpus = o->cpus[v];
							c->repeat = r;
							c->workload = o->workloads.v[w];
							c->kernel = o->kernels.v[kn];
							c->noise = o->noises.v[ns];
							c->fault = o->faults.n ? o->faults.v[fi] : "none";
							c->test_action = a;
							cell_id_format(c->id, sizeof(c->id), c->vcpus, c->workload,
								       c->kernel, c->noise, r, c->fault, a);
						}
	p->n = k;
	return 0;
}

bool shard_selects(size_t index, int shard_i, int shard_n)
{
	if (shard_n <= 1)
		return true;
	return index % (size_t)shard_n == (size_t)(shard_i - 1);
}

bool sched_fits(const struct host_res *h, const struct sched_load *l, int vcpus, long mem_mb,
		int jobs)
{
	int cpu_cap;

	if (l->running == 0)
		return true;
	if (jobs > 0)
		return l->running < jobs;
	cpu_cap = h->cores > vcpus ? h->cores : vcpus;
	if (l->vcpus + vcpus > cpu_cap)
		return false;
	return (l->mem_mb + mem_mb) * 10 <= h->mem_avail_mb * 7;
}

void host_res_detect(struct host_res *h)
{
	char *mi = read_file("/proc/meminfo", NULL), *p;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	h->cores = n > 0 ? (int)n : 1;
	h->mem_avail_mb = 1024;
	if (mi && (p = strstr(mi, "MemAvailable:")))
		h->mem_avail_mb = strtol(p + 13, NULL, 10) / 1024;
	free(mi);
}
