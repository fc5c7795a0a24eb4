// SPDX-License-Identifier: GPL-2.0
/*
 * The map under test: created in-kernel through kern_sys_bpf() or
 * adopted by id, plus the bulk fill and delete-all used by setup and
 * by the verdict.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/delay.h>
#include <linux/fdtable.h>
#include <linux/log2.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "htab_torture.h"

/* Exported by kernel/bpf/syscall.c (for light skeletons) but in no header. */
int kern_sys_bpf(int cmd, union bpf_attr *attr, unsigned int size);

/*
 * Both paths go through a file descriptor of insmod's own table; we take
 * our own reference with bpf_map_get() and close the fd at once, so
 * nothing is left in the calling process.
 */
static struct bpf_map *ht_map_from_fd(int fd)
{
	struct bpf_map *map = bpf_map_get(fd);

	close_fd(fd);
	return map;
}

static int ht_map_create(void)
{
	union bpf_attr attr;
	struct bpf_map *map;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = ht.map_type;
	attr.key_size = sizeof(u32);
	attr.value_size = ht.value_size;
	attr.max_entries = ht.max_entries;
	attr.map_flags = ht.prealloc ? 0 : BPF_F_NO_PREALLOC;
	strscpy(attr.map_name, "htab_torture", sizeof(attr.map_name));

	fd = kern_sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	if (fd < 0) {
		pr_err("BPF_MAP_CREATE %s max_entries=%u value_size=%u prealloc=%d failed: %d\n",
		       ht.map_type_name, ht.max_entries, ht.value_size,
		       ht.prealloc, fd);
		return fd;
	}
	map = ht_map_from_fd(fd);
	if (IS_ERR(map))
		return PTR_ERR(map);
	ht.map = map;
	return 0;
}

static int ht_map_adopt(u32 id)
{
	union bpf_attr attr;
	struct bpf_map *map;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_id = id;
	fd = kern_sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr, sizeof(attr));
	if (fd < 0) {
		pr_err("map_id=%u: BPF_MAP_GET_FD_BY_ID failed: %d%s\n", id, fd,
		       fd == -ENOENT ? " (no such map)" : "");
		/* -ENOENT would read "Unknown symbol in module" in insmod */
		return fd == -ENOENT ? -EINVAL : fd;
	}
	map = ht_map_from_fd(fd);
	if (IS_ERR(map))
		return PTR_ERR(map);
	ht.map = map;

	switch (map->map_type) {
	case BPF_MAP_TYPE_HASH:
		ht.map_type_name = "hash";
		break;
	case BPF_MAP_TYPE_PERCPU_HASH:
		ht.map_type_name = "percpu_hash";
		break;
	case BPF_MAP_TYPE_LRU_HASH:
		ht.map_type_name = "lru_hash";
		break;
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		ht.map_type_name = "lru_percpu_hash";
		break;
	default:
		pr_err("map_id=%u: map type %d is not a hash map (valid: hash percpu_hash lru_hash lru_percpu_hash)\n",
		       id, map->map_type);
		return -EINVAL;
	}
	if (map->key_size != sizeof(u32)) {
		pr_err("map_id=%u: key_size %u, need 4 (u32 keys)\n",
		       id, map->key_size);
		return -EINVAL;
	}
	/*
	 * What the verdict could not check: per-CPU LRU lists (no common
	 * free list, other eviction bounds), values programs cannot write,
	 * values too small for the stamp.
	 */
	if (map->map_flags & (BPF_F_NO_COMMON_LRU | BPF_F_RDONLY_PROG)) {
		pr_err("map_id=%u: map_flags 0x%x has %s%s: the verdict cannot check such a map (valid: no BPF_F_NO_COMMON_LRU, no BPF_F_RDONLY_PROG)\n",
		       id, map->map_flags,
		       map->map_flags & BPF_F_NO_COMMON_LRU ? "BPF_F_NO_COMMON_LRU " : "",
		       map->map_flags & BPF_F_RDONLY_PROG ? "BPF_F_RDONLY_PROG" : "");
		return -EINVAL;
	}
	if (map->value_size < HT_STAMP_MIN_VALUE) {
		pr_err("map_id=%u: value_size %u, need >= %zu for the value stamp\n",
		       id, map->value_size, HT_STAMP_MIN_VALUE);
		return -EINVAL;
	}
	ht.map_type = map->map_type;
	ht.lru = map->map_type == BPF_MAP_TYPE_LRU_HASH ||
		 map->map_type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
	ht.percpu = map->map_type == BPF_MAP_TYPE_PERCPU_HASH ||
		    map->map_type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
	ht.prealloc = !(map->map_flags & BPF_F_NO_PREALLOC);
	ht.max_entries = map->max_entries;
	ht.value_size = map->value_size;
	ht.map_id = id;
	pr_info("map_id=%u adopted: %s max_entries=%u value_size=%u prealloc=%d (map_type/max_entries/value_size/prealloc parameters ignored)\n",
		id, ht.map_type_name, ht.max_entries, ht.value_size,
		ht.prealloc);
	return 0;
}

int ht_map_open(u32 map_id)
{
	return map_id ? ht_map_adopt(map_id) : ht_map_create();
}

void ht_map_close(void)
{
	if (ht.map) {
		bpf_map_put(ht.map);
		ht.map = NULL;
	}
}

/*
 * Bytes the map will take: elements (struct htab_elem, 48 B, the key
 * rounded to 8, the value or, per-CPU, a pointer to one value per
 * possible CPU), the per-CPU extra elements of preallocated hash maps,
 * and the buckets. Close to hashtab.c's own sizing; used to refuse a map
 * the guest cannot hold before trying.
 */
u64 ht_map_footprint(void)
{
	u64 val = round_up(ht.value_size, 8), elem, n = ht.max_entries;

	elem = 48 + 8 + (ht.percpu ? 8 + val * num_possible_cpus() : val);
	if (ht.prealloc && !ht.lru && !ht.percpu)
		n += num_possible_cpus();
	return n * elem + roundup_pow_of_two(ht.max_entries) * 16;
}

/*
 * Insert keys 0..n-1, each value stamped as the controller's. Returns
 * the number of failed inserts, or -EINTR when the module is unloaded.
 */
int ht_map_fill(u32 n, u64 flags)
{
	return ht_map_fill_except(n, flags, NULL);
}

/*
 * Without preallocation an insert draws on bpf_mem_alloc's per-CPU caches
 * (refilled from irq_work) and, for a per-CPU value, on the percpu
 * allocator's atomic pool (refilled from a workqueue): one CPU filling in a
 * tight loop can outrun both and get -ENOMEM with memory to spare
 * (percpu_hash, prealloc=0, 4 vCPUs: 39 of 4096 keys of the verdict's
 * refill, a false "lost elements"). The controller may sleep: such an
 * insert is tried again after 1 ms, up to HT_FILL_ENOMEM_TRIES times, before
 * it counts as failed; the retries are reported (fill_enomem_retries).
 */
#define HT_FILL_ENOMEM_TRIES 100

static int ht_fill_one(u32 key, u64 flags)
{
	int ret, tries = 0;

	for (;;) {
		ret = ht_map_update_raw(key, ht.ctl_value, flags);
		if (ret != -ENOMEM || ht.prealloc || tries++ == HT_FILL_ENOMEM_TRIES ||
		    READ_ONCE(ht.abort))
			return ret;
		ht.fill_enomem_retries++;
		msleep(1);
	}
}

/* As ht_map_fill(), leaving out the keys @skip says (NULL: none). */
int ht_map_fill_except(u32 n, u64 flags, bool (*skip)(u32 key))
{
	int failed = 0;
	u32 key;

	for (key = 0; key < n; key++) {
		if (skip && skip(key))
			continue;
		ht_stamp_fill(ht.ctl_value, key, HT_WRITER_CTL, ++ht.ctl_seq);
		if (ht_fill_one(key, flags))
			failed++;
		if (!(key % 256)) {
			cond_resched();
			if (READ_ONCE(ht.abort))
				return -EINTR;
		}
	}
	return failed;
}

/*
 * Delete every element, whatever its key, by walking get_next_key from
 * the key just deleted (a missing key restarts at the first bucket, so
 * the walk cannot skip anything), calling @visit on each key first.
 * A map holds at most @limit elements: a walk that deletes more is
 * going round a corrupted chain, and stops with -ELOOP. Returns 0,
 * -EINTR on unload, -ELOOP, or -EIO on a failed delete.
 */
int ht_map_delete_all(u64 *deleted, u64 limit, void (*visit)(u32 key))
{
	struct bpf_map *map = ht.map;
	u32 key, next;
	u64 n = 0;
	int ret;

	rcu_read_lock();
	ret = map->ops->map_get_next_key(map, NULL, &key);
	rcu_read_unlock();
	while (!ret) {
		if (n >= limit) {
			*deleted = n;
			return -ELOOP;
		}
		if (visit)
			visit(key);
		rcu_read_lock();
		ret = map->ops->map_get_next_key(map, &key, &next);
		rcu_read_unlock();
		if (ht_map_delete_raw(key)) {
			*deleted = n;
			return -EIO;
		}
		n++;
		if (ret) {
			/* @key was the last one: look again from the start. */
			rcu_read_lock();
			ret = map->ops->map_get_next_key(map, NULL, &next);
			rcu_read_unlock();
		}
		key = next;
		if (!(n % 256)) {
			cond_resched();
			if (READ_ONCE(ht.abort)) {
				*deleted = n;
				return -EINTR;
			}
		}
	}
	*deleted = n;
	return 0;
}
