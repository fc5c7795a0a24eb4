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

#endif
