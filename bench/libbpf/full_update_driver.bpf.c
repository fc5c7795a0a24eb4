// SPDX-License-Identifier: GPL-2.0
/*
 * full_update_driver.bpf.c - the kernel side of full_update_driver.
 *
 * Reproduces the worst case of seed 000: a preallocated hash map that is
 * full, hammered with updates of keys it does not hold. Each update has to
 * ask the per-CPU freelist for an element, finds none, and fails with E2BIG;
 * how long that "finds none" takes is what the benchmark measures.
 *
 * The hook is the getpgid() syscall-entry tracepoint: it needs no BTF and no
 * vmlinux.h, user space can fire it at will, and nothing else on a test guest
 * calls getpgid(), so the program runs only when the driver asks it to.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "full_update_driver.h"

#define E2BIG 7	/* <errno.h> is not usable with -target bpf */

/* Set by the loader before load; .rodata lets the verifier fold them. */
const volatile __u32 target_tgid = 0;
const volatile __u32 nr_loops = 1;
/* The loader fills keys [0, max_entries); keys from here on are absent. */
const volatile __u32 absent_key_base = 0;
/*
 * 1 = -m lookup (seed 004): each loop iteration looks up the next key of
 * this CPU's sweep 0 .. absent_key_base - 1 (all present), wrapping, as
 * map_perf_test's lru_hash_lookup test does; the map may be an LRU hash
 * (the loader sets its type), whose lookup the verifier inlines.
 */
const volatile __u32 lookup_mode = 0;

/* max_entries is set by the loader (-e); 1 is only a placeholder. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct full_update_value);
} full_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct full_update_stats);
} stats SEC(".maps");

struct loop_ctx {
	__u32 key;
	__u64 ok;
	__u64 e2big;
	__u64 other;
	int other_err;
};

static long update_absent_key(__u32 index, void *data)
{
	struct loop_ctx *lc = data;
	struct full_update_value value = { .index = index };
	/*
	 * int, not long: the verifier turns this helper into a direct call of
	 * htab_map_update_elem(), which returns int, so the upper half of R0
	 * is not sign-extended: -E2BIG arrives as 0xfffffff9 (seen in a 6.1
	 * guest). Comparing 32 bits is what the kernel's value means.
	 */
	int err;

	err = bpf_map_update_elem(&full_map, &lc->key, &value, BPF_ANY);
	if (!err)
		lc->ok++;
	else if (err == -E2BIG)
		lc->e2big++;
	else {
		lc->other++;
		lc->other_err = err;
	}
	return 0;
}

static long lookup_next_key(__u32 index, void *data)
{
	struct loop_ctx *lc = data;

	if (bpf_map_lookup_elem(&full_map, &lc->key))
		lc->ok++;
	else
		lc->other++;
	if (++lc->key >= absent_key_base)
		lc->key = 0;
	return 0;
}

SEC("tp/syscalls/sys_enter_getpgid")
int full_update(void *ctx)
{
	struct loop_ctx lc = {};
	struct full_update_stats *st;
	__u32 zero = 0;
	__u64 t0, t1;

	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	st = bpf_map_lookup_elem(&stats, &zero);
	if (!st)
		return 0;

	if (lookup_mode) {
		lc.key = st->cursor < absent_key_base ? st->cursor : 0;
		t0 = bpf_ktime_get_ns();
		bpf_loop(nr_loops, lookup_next_key, &lc, 0);
		t1 = bpf_ktime_get_ns();
		st->cursor = lc.key;
		st->prog_runs++;
		st->updates += nr_loops;
		st->lookup_hit += lc.ok;
		st->lookup_miss += lc.other;
		st->loop_ns += t1 - t0;
		return 0;
	}
	/* One absent key per CPU, as the seed does: the CPUs contend on the
	 * freelist, not on one hash bucket's lock. */
	lc.key = absent_key_base + bpf_get_smp_processor_id();
	t0 = bpf_ktime_get_ns();
	bpf_loop(nr_loops, update_absent_key, &lc, 0);
	t1 = bpf_ktime_get_ns();

	st->prog_runs++;
	st->updates += nr_loops;
	st->update_ok += lc.ok;
	st->update_e2big += lc.e2big;
	st->update_other += lc.other;
	st->loop_ns += t1 - t0;
	if (lc.other)
		st->other_err = lc.other_err;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
