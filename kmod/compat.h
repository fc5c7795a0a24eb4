/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernel lines the module is built for (6.1,
 * 6.12, PREEMPT_RT, a user's own tree), in one place. Where the kernel's
 * own files can tell, Kbuild probes them (kmod/Kbuild: HT_BPF_NS);
 * a version number decides only what no header or symbol list shows.
 */
#ifndef _HTAB_TORTURE_COMPAT_H
#define _HTAB_TORTURE_COMPAT_H

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/stringify.h>
#include <linux/version.h>
#include <asm/ibt.h>

/*
 * bpf_map_get() and kern_sys_bpf() moved into symbol namespace
 * BPF_INTERNAL in 6.12; Kbuild reads the namespace from the tree's
 * Module.symvers. MODULE_INFO with a string works whichever form
 * MODULE_IMPORT_NS() takes (an identifier to 6.12, a string from 6.13).
 */
#ifdef HT_BPF_NS
#define HT_IMPORT_BPF_NS() MODULE_INFO(import_ns, __stringify(HT_BPF_NS))
#else
#define HT_IMPORT_BPF_NS()
#endif

/*
 * A kprobe on sym+0 of a kernel built with CONFIG_X86_KERNEL_IBT lands
 * past the function's ENDBR64 (ENDBR_INSN_SIZE bytes; 0 without IBT).
 * The bytes there are ENDBR64 or, where objtool found no indirect caller
 * and boot sealed it, the poison NOP; is_endbr() accepts both.
 */
static inline bool ht_is_endbr_at(const void *addr)
{
	return HAS_KERNEL_IBT && is_endbr(*(const u32 *)addr);
}

/*
 * Whether an indirect call to addr would trap: the CPU enforces IBT
 * (never under QEMU TCG, which has no CET) and the ENDBR at addr was
 * sealed.
 */
static inline bool ht_indirect_call_traps(const void *addr)
{
#if HAS_KERNEL_IBT
	return cpu_feature_enabled(X86_FEATURE_IBT) &&
	       *(const u32 *)addr == gen_endbr_poison();
#else
	return false;
#endif
}

/*
 * The per-CPU free target of an LRU map's local lists
 * (kernel/bpf/bpf_lru_list.c, private to it, so no probe can read it):
 * LOCAL_FREE_TARGET (128) up to 6.11; from 6.12 (Debian's 6.12.117, and
 * 6.16 upstream) clamp(max_entries / ncpus / 2, 1, 128).
 */
static inline u64 ht_lru_local_free_target(u64 max_entries, unsigned int ncpus)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	return clamp_t(u64, div_u64(max_entries, ncpus) / 2, 1, 128);
#else
	return 128;
#endif
}

#endif
