/* Map footprint and guest RAM (see guest_mem.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/plan/guest_mem.h"
#include "run/plan/qemu_argv.h"

#define MIB (1024LL * 1024)

static void set_ll(long long *v, const char *s)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(s, &end, 10);
	if (!errno && end != s && !*end && x > 0)
		*v = x;
}

void map_shape_apply(struct map_shape *m, const char *kv)
{
	const char *eq = strchr(kv, '=');
	size_t kl = eq ? (size_t)(eq - kv) : 0;

	if (!eq)
		return;
	if (kl == 8 && !strncmp(kv, "map_type", kl)) {
		snprintf(m->map_type, sizeof(m->map_type), "%s", eq + 1);
	} else if (kl == 8 && !strncmp(kv, "prealloc", kl)) {
		m->prealloc = strcmp(eq + 1, "0") != 0;
	} else if (kl == 11 && !strncmp(kv, "max_entries", kl)) {
		set_ll(&m->max_entries, eq + 1);
	} else if (kl == 10 && !strncmp(kv, "value_size", kl)) {
		set_ll(&m->value_size, eq + 1);
	}
}

void map_shape_of_cell(const struct run_opts *o, const char *const *ax, struct map_shape *m)
{
	char kv[64];

	snprintf(m->map_type, sizeof(m->map_type), "%s", MAP_DEFAULT_TYPE);
	m->prealloc = 1;
	m->max_entries = MAP_DEFAULT_MAX_ENTRIES;
	m->value_size = MAP_DEFAULT_VALUE_SIZE;
	/* The insmod line's order (cell.c plan_modparams): the last word wins. */
	for (int a = 0; ax && a < AX_NR; a++)
		if (axes[a].guest == AXG_MODPARAM && !axis_is_default(a, ax[a])) {
			snprintf(kv, sizeof(kv), "%s=%s", axes[a].guest_key, ax[a]);
			map_shape_apply(m, kv);
		}
	for (size_t i = 0; i < o->modparams.n; i++)
		map_shape_apply(m, o->modparams.v[i]);
}

bool map_is_percpu(const struct map_shape *m)
{
	return strstr(m->map_type, "percpu") != NULL;
}

long long map_footprint_bytes(const struct map_shape *m, int vcpus)
{
	long long value = (m->value_size + 7) / 8 * 8;
	long long elems = m->max_entries + (m->prealloc ? vcpus : 0);

	if (map_is_percpu(m))
		value *= vcpus;
	return elems * (MAP_ELEM_OVERHEAD + value);
}

int map_mem_mb(long long footprint_bytes)
{
	return (int)((MAP_SAFETY_FACTOR * footprint_bytes + MIB - 1) / MIB);
}

long host_guest_limit_mb(const char *meminfo)
{
	const char *p = meminfo ? strstr(meminfo, "MemTotal:") : NULL;

	return p ? strtol(p + 9, NULL, 10) / 1024 / 2 : -1;
}

int guest_mem_check(const struct map_shape *m, int base_mb, int vcpus, int noise_mb, long limit_mb,
		    char *err, size_t errlen)
{
	long long fp = map_footprint_bytes(m, vcpus);
	long long mb = guest_mem_mb(base_mb, vcpus, fp, noise_mb);
	char noise[64] = "";

	if (limit_mb < 0 || mb <= limit_mb)
		return 0;
	if (noise_mb)
		snprintf(noise, sizeof(noise), ", %d MiB of it the noise's", noise_mb);
	snprintf(err, errlen,
		 "the map needs %lld MiB (map_type=%s prealloc=%d max_entries=%lld value_size=%lld at %d vCPUs, x%d for safety), guest RAM %lld MiB%s; the limit is %ld MiB (half of this host's MemTotal)",
		 (fp + MIB - 1) / MIB, m->map_type, m->prealloc, m->max_entries, m->value_size,
		 vcpus, MAP_SAFETY_FACTOR, mb, noise, limit_mb);
	return -1;
}
