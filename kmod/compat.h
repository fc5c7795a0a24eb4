/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernel lines the module is built for (6.1,
 * 6.12, PREEMPT_RT, a user's own tree), in one place. Where the kernel's
 * own files can tell, Kbuild probes them (kmod/Kbuild: HT_BPF_NS,
 * HT_LRU_TARGET_FREE); a version number decides only what no file the
 * tree ships shows.
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
 * past the function's ENDBR64: register_kprobe() moves it ENDBR_INSN_SIZE
 * bytes on only after checking the ENDBR (or the NOP boot sealed it
 * into) is there, so an offset of ENDBR_INSN_SIZE means the entry is at
 * the symbol (0 without IBT).
 *
 * Whether an indirect call to addr would trap: the CPU enforces IBT
 * (never under QEMU's TCG, which has no CET) and addr does not begin
 * with an ENDBR64 (sealed at boot, or never there).
 */
static inline bool ht_indirect_call_traps(const void *addr)
{
#if HAS_KERNEL_IBT
	return cpu_feature_enabled(X86_FEATURE_IBT) &&
	       *(const u32 *)addr != gen_endbr();
#else
	return false;
#endif
}

/*
 * The per-CPU free target of an LRU map's local lists
 * (kernel/bpf/bpf_lru_list.c): LOCAL_FREE_TARGET (128), or, since the
 * fix against global starvation (6.16 upstream, backported to Debian's
 * 6.12.117), clamp(max_entries / ncpus / 2, 1, 128) in lru->target_free.
 * Kbuild reads which from the tree's own bpf_lru_list.c when it has the
 * source (HT_LRU_TARGET_FREE 1 or 0); headers-only trees (Debian's
 * linux-headers) do not ship it, and then the version decides: the
 * 6.12 line as Debian ships it has the clamp.
 */
#ifndef HT_LRU_TARGET_FREE
#define HT_LRU_TARGET_FREE (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))
#endif

static inline u64 ht_lru_local_free_target(u64 max_entries, unsigned int ncpus)
{
	if (HT_LRU_TARGET_FREE)
		return clamp_t(u64, div_u64(max_entries, ncpus) / 2, 1, 128);
	return 128;
}

/*
 * NMI callers (callers.c): an NMI IPI to one CPU and an NMI_LOCAL handler.
 * 6.1 and 6.12 alike export __register_nmi_handler, unregister_nmi_handler
 * and apic (GPL), and keep apic->send_IPI (6.12 adds static calls beside
 * it, for its own callers); so the way is the same on both lines, and only
 * a kernel without an x86 local APIC lacks it.
 */
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#define HT_HAVE_NMI_IPI 1
static inline void ht_send_nmi(int cpu)
{
	apic->send_IPI(cpu, NMI_VECTOR);
}
#else
#define HT_HAVE_NMI_IPI 0
#define NMI_LOCAL 0
#define NMI_DONE 0
#define NMI_HANDLED 1
#define register_nmi_handler(t, fn, fg, n) ((void)(fn), -EOPNOTSUPP)
#define unregister_nmi_handler(t, n) do { } while (0)
static inline void ht_send_nmi(int cpu)
{
}
#endif

#endif
