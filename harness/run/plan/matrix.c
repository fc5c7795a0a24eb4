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
#include "run/plan/matrix.h"

/*
 * An axis's values, borrowed: the option's list, vCPUs from cpus[] (as text
 * the plan keeps); none given: the default alone, or no value (no cells)
 * for an axis without one.
 */
static const char **axis_values(const struct run_opts *o, int a, struct plan *p, size_t *n)
{
	size_t cnt = a == AX_VCPUS ? (size_t)o->ncpus : o->axv[a].n;
	const char **v = calloc(cnt ? cnt : 1, sizeof(*v));

	if (!v)
		return NULL;
	*n = cnt || !axes[a].dflt ? cnt : 1;
	v[0] = axes[a].dflt;
	for (size_t i = 0; i < cnt; i++) {
		if (a != AX_VCPUS) {
			v[i] = o->axv[a].v[i];
		} else if (!strv_pushf(&p->strings, "%d", o->cpus[i])) {
			v[i] = p->strings.v[p->strings.n - 1];
		} else {
			free(v);
			return NULL;
		}
	}
	return v;
}

/*
 * Crossings of the axes that are no cell: the kernel refuses an LRU map
 * without preallocation (htab_map_alloc_check(): EINVAL), so
 * `--map-type hash,lru_hash --prealloc 1,0` means the three others; the
 * module refuses interrupt callers on an LRU or unpreallocated map and
 * task callers on an LRU map (callers_map_possible), so `--callers
 * kthread,kthread+nmi --map-type hash,lru_hash` runs nmi callers on hash.
 */
static bool cell_possible(const struct plan_cell *c, struct plan *p)
{
	const char *why;

	if (c->ax[AX_MAP_TYPE] && !strncmp(c->ax[AX_MAP_TYPE], "lru", 3) &&
	    c->ax[AX_PREALLOC] && !strcmp(c->ax[AX_PREALLOC], "0")) {
		p->left_out++;
		return false;
	}
	if (!callers_map_possible(c->ax[AX_CALLERS], c->ax[AX_MAP_TYPE], c->ax[AX_PREALLOC], &why)) {
		p->left_out_callers++;
		return false;
	}
	return true;
}

int plan_build(const struct run_opts *o, struct plan *p)
{
	const char **vals[AX_NR] = { 0 };
	size_t nval[AX_NR];
	int order[AX_NR], idx[AX_NR] = { 0 };
	size_t total = (size_t)o->repeat, k = 0;
	int err = -1;

	memset(p, 0, sizeof(*p));
	for (int a = 0; a < AX_NR; a++) {
		if (!(vals[a] = axis_values(o, a, p, &nval[a])))
			goto cleanup;
		total *= nval[a];
		order[a] = a;
	}
	/* The loops nest in the table's nest order, outermost first. */
	for (int i = 1; i < AX_NR; i++)
		for (int j = i; j > 0 && axes[order[j]].nest < axes[order[j - 1]].nest; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	p->cells = calloc(total ? total : 1, sizeof(*p->cells));
	if (!p->cells)
		goto cleanup;
	for (int r = 0; r < o->repeat && total; r++) {
		memset(idx, 0, sizeof(idx));
		do {
			struct plan_cell *c = &p->cells[k];
			int l;

			c->index = k++;
			c->repeat = r;
			for (int a = 0; a < AX_NR; a++) {
				c->ax[a] = vals[a][idx[a]];
				if (axes[a].null_default && axis_is_default(a, c->ax[a]))
					c->ax[a] = NULL;
			}
			c->vcpus = atoi(c->vcpus_text);
			cell_id_format(c->id, sizeof(c->id), c->ax, r);
			if (!cell_possible(c, p)) {
				memset(c, 0, sizeof(*c));
				k--;
			}
			/* The innermost loop turns first. */
			for (l = AX_NR - 1; l >= 0; l--) {
				int a = order[l];

				if (++idx[a] < (int)nval[a])
					break;
				idx[a] = 0;
			}
			if (l < 0)
				break;
		} while (1);
	}
	p->n = k;
	err = 0;
cleanup:
	for (int a = 0; a < AX_NR; a++)
		free(vals[a]);
	return err;
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
