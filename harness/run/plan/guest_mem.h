/*
 * Guest RAM that follows the map a cell creates: the map's parameters as
 * the module will see them (the insmod line's order: the cell's own values,
 * then --modparam), its estimated footprint, and the limit of what this host
 * can give one guest.
 */
#ifndef HT_GUEST_MEM_H
#define HT_GUEST_MEM_H
#include <stdbool.h>
#include <stddef.h>
#include "run/plan/cli.h"
#include "../kmod/params.h"

/* The module's defaults (kmod/params.h) for what is not given. */
#define MAP_DEFAULT_TYPE HT_PARAM_DEFAULT(map_type)
#define MAP_DEFAULT_MAX_ENTRIES HT_PARAM_DEFAULT(max_entries)
#define MAP_DEFAULT_VALUE_SIZE HT_PARAM_DEFAULT(value_size)
/* struct htab_elem (hash node, LRU/freelist node, hash) plus the u32 key. */
#define MAP_ELEM_OVERHEAD 64
#define MAP_SAFETY_FACTOR 2

struct map_shape {
	char map_type[32];
	int prealloc;
	long long max_entries, value_size;
};

/*
 * The map of one cell: the module's defaults, then the cell's axis values
 * that are module parameters (map_type, prealloc, max_entries; ax NULL:
 * none) and o->modparams, the order of its insmod line.
 */
void map_shape_of_cell(const struct run_opts *o, const char *const *ax, struct map_shape *m);
/* Applies one key=value (unknown keys and unparsable values are left to the module). */
void map_shape_apply(struct map_shape *m, const char *kv);
bool map_is_percpu(const struct map_shape *m);
/*
 * Bytes the map holds at most with vcpus CPUs: (max_entries, plus one extra
 * element per CPU when preallocated) x (MAP_ELEM_OVERHEAD + value_size
 * rounded up to 8, times vcpus for per-CPU map types).
 */
long long map_footprint_bytes(const struct map_shape *m, int vcpus);
/* What guest RAM adds for the map: MAP_SAFETY_FACTOR x footprint, whole MiB, rounded up. */
int map_mem_mb(long long footprint_bytes);
/* MemTotal / 2 from a /proc/meminfo text, in MiB; -1 when it has none. */
long host_guest_limit_mb(const char *meminfo);
/*
 * 0 when a guest of vcpus with this map and noise_mb of noise (noise.h) on
 * base_mb (--guest-mem; 0: the formula) fits under limit_mb, else -1 and a
 * one-line message in err naming the footprint, the map and the limit.
 */
int guest_mem_check(const struct map_shape *m, int base_mb, int vcpus, int noise_mb, long limit_mb,
		    char *err, size_t errlen);
#endif
