/*
 * A matrix cell planned (cell_plan.h): directory name per FORMAT.md,
 * timeouts scaled by vCPUs and accelerator, the insmod line, guest RAM
 * and the QEMU command line, each derived here once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/plan/cell_plan.h"
#include "run/plan/matrix.h"
#include "run/plan/noise.h"
#include "run/plan/snapshot_key.h"

#define BOOT_PROBE_S 20

/*
 * Budgets. TCG boots cost ~3 s per vCPU on 2 host cores (150 s @96);
 * bpftrace needs 15-50 s to attach under TCG (LLVM start-up over 9p).
 */
void cell_plan_timeouts(const struct run_ctx *c, struct cell_plan *p)
{
	const struct run_opts *o = c->o;
	bool tcg = c->accel != ACCEL_KVM && !c->target_host;
	int nbt = (int)c->bt_paths.n;
	int boot = c->target_host ? 10 : tcg ? 60 + 3 * p->vcpus : 30 + p->vcpus / 2;
	int attach = nbt ? (tcg ? 60 + 15 * (nbt - 1) : 30 + 5 * (nbt - 1)) : 0;
	int longest_quiet, aot;

	/* KASAN's shadow checks make every boot ~4x as long (kernels.c) */
	if (p->k && p->k->kasan && !c->target_host)
		boot *= 4;
	p->boot_budget_s = boot;
	/* Noise on every vCPU slows bpftrace's start-up under TCG. */
	if (attach && tcg && strcmp(p->noise, "none"))
		attach *= 2;
	p->attach_timeout_s = attach ? attach : 60;
	p->run_timeout_s = c->duration_s + (tcg ? 60 + p->vcpus : 30);
	/*
	 * + 30: rmmod, bpftrace printing its maps, dmesg, poweroff; + aot: the
	 * runner compiling the programs later cells load, each stopped at
	 * aot_compile_s (bpftrace --aot took 2.6-4.2 s a script under TCG
	 * at 4-48 vCPUs, once 92 s at 48 right after a module run; one cut
	 * short is compiled by a later cell). Below the quiet limit: the
	 * runner says nothing while it compiles.
	 */
	p->aot_compile_s = nbt && !o->bt_aot_off ? (tcg ? 60 : 20) : 0;
	aot = nbt * (p->aot_compile_s ? p->aot_compile_s + 5 : 0);
	p->timeout_s = o->timeout_s ? o->timeout_s
				       : boot + attach + p->run_timeout_s + 30 + aot;
	/* The longest silence a healthy guest has: booting, attaching or stressing. */
	longest_quiet = boot;
	if (attach > longest_quiet)
		longest_quiet = attach;
	if (c->duration_s + 30 > longest_quiet)
		longest_quiet = c->duration_s + 30;
	p->quiet_s = 60 + longest_quiet;
	if (p->quiet_s > p->timeout_s)
		p->quiet_s = p->timeout_s;
	/*
	 * Before the runner, only the kernel and init speak. Their longest
	 * silence in a healthy TCG boot is a few seconds (96 vCPUs: 7 s to
	 * the first line, 11 s of initcalls); a stalled one (every vCPU in
	 * asm_exc_int3, or silent after "tsc: Unable to calibrate") is booted
	 * again (verdict_boot_retry), so it waits half the boot budget, not
	 * the whole quiet budget (264 s at 48 vCPUs). A save boot is not a
	 * cell: --timeout does not shorten its limit (snapshot_save).
	 */
	p->save_quiet_s = tcg && boot / 2 > 60 ? boot / 2 : tcg ? 60 : 0;
	p->boot_quiet_s = p->save_quiet_s && p->save_quiet_s < p->quiet_s ? p->save_quiet_s
									  : p->quiet_s;
	/*
	 * That wait is the larger part of what a stall costs (126 s at 64
	 * vCPUs). The stall has a shape QEMU can see (hang_boot_stalled), so
	 * a first attempt silent for BOOT_PROBE_S is looked at, and again
	 * each BOOT_PROBE_S after: one in that shape ends then, as the quiet
	 * budget would end it, and is booted again. The longest silence of a
	 * healthy boot here is 11 s (96 vCPUs, XZ).
	 */
	p->boot_probe_s = tcg && BOOT_PROBE_S < p->boot_quiet_s ? BOOT_PROBE_S : 0;
	p->save_probe_s = BOOT_PROBE_S < p->save_quiet_s ? BOOT_PROBE_S : 0;
}

/*
 * The insmod line: the axes every cell names (workload=), the run's own
 * (duration, CPUs on this machine), the axes a cell has away from their
 * default (map_type=, prealloc=, max_entries=, fault=), then --modparam verbatim (the module parses and
 * validates them; insmod refuses a bad one; the last word wins).
 */
static int plan_modparams(const struct run_ctx *c, const struct cell_plan *p, struct strv *mp)
{
	const struct run_opts *o = c->o;
	int r = 0;

	for (int a = 0; a < AX_NR; a++)
		if (axes[a].guest == AXG_MODPARAM && !axes[a].dflt)
			r |= strv_pushf(mp, "%s=%s", axes[a].guest_key, p->ax[a]);
	r |= strv_pushf(mp, "duration_ms=%d", c->duration_s * 1000);
	/* On this machine --cpus N means the first N CPUs (the guest has exactly N). */
	if (c->target_host && p->vcpus < c->host_cpus)
		r |= strv_pushf(mp, "cpus=0-%d", p->vcpus - 1);
	for (int a = 0; a < AX_NR; a++)
		if (axes[a].guest == AXG_MODPARAM && axes[a].dflt && !axis_is_default(a, p->ax[a]))
			r |= strv_pushf(mp, "%s=%s", axes[a].guest_key, p->ax[a]);
	if (o->tasks_per_cpu && callers_has_kind(p->ax[AX_CALLERS], "task"))
		r |= strv_pushf(mp, "tasks_per_cpu=%d", o->tasks_per_cpu);
	for (size_t i = 0; i < o->modparams.n; i++)
		r |= strv_push(mp, o->modparams.v[i]);
	return r;
}

const struct kernel_res *kernel_find(const struct run_ctx *c, const char *label)
{
	for (int i = 0; i < c->nkernels; i++)
		if (!strcmp(c->kernels[i].label, label))
			return &c->kernels[i];
	return NULL;
}

int cell_plan_boot_index(const struct run_ctx *c, int repeat)
{
	return c->o->restore && c->o->restore_boots > 1 ? repeat % c->o->restore_boots : 0;
}

/* The QEMU configuration of a planned cell booting on its own. */
static void plan_qemu_cfg(const struct run_ctx *c, const struct cell_plan *p, struct qemu_cfg *q)
{
	*q = (struct qemu_cfg){
		.qemu = c->qemu, .accel = c->accel, .vcpus = p->vcpus,
		.runner = c->runner, .cell_dir = p->dir, .host_cpus = c->host_cpus,
		.map_bytes = map_footprint_bytes(&p->map, p->vcpus),
		.noise_mb = noise_mem_mb(noise_find(p->pc->noise), p->vcpus),
		.mem_base_mb = c->o->guest_mem_mb,
		.kernel_image = p->k->boot_image[0] ? p->k->boot_image : p->k->image,
		.initrd = p->k->initrd, .lpj = p->k->lpj, .boot_opts = &c->o->boot_opts,
		.restore = p->restored ? QR_RESTORE : QR_NONE,
		.boot_index = cell_plan_boot_index(c, p->repeat),
		.observe = c->observe,
	};
}

char *cell_plan_snapshot_key(const struct run_ctx *c, const struct cell_plan *p, struct qemu_cfg *q)
{
	char files[64];

	plan_qemu_cfg(c, p, q);
	/* Observers live in the snapshot: what they run is part of what it is. */
	snprintf(files, sizeof(files), "%s%s%s", p->k->snap_files, c->observe ? " observers " : "",
		 c->observe ? c->observe_id : "");
	return snapshot_key(q, files);
}

/* --restore on: where the guest this cell restores is saved (snapshot.h). */
static int plan_snapshot(const struct run_ctx *c, struct cell_plan *p)
{
	char cache[PATH_MAX], *key;
	struct qemu_cfg q;

	key = cell_plan_snapshot_key(c, p, &q);
	if (!key)
		return -1;
	snapshot_cache_dir(c->root, cache, sizeof(cache));
	snapshot_dir_of(cache, key, p->snap_dir, sizeof(p->snap_dir));
	snprintf(p->snap_state, sizeof(p->snap_state), "%s/state", p->snap_dir);
	free(key);
	return 0;
}

int cell_plan_make(const struct run_ctx *c, const struct plan_cell *pc, struct cell_plan *p)
{
	const struct noise_profile *np = noise_find(pc->noise);
	int boot = cell_plan_boot_index(c, pc->repeat);
	struct qemu_cfg q;
	int mem_mb;

	memset(p, 0, sizeof(*p));
	p->pc = pc;
	p->vcpus = pc->vcpus;
	p->repeat = pc->repeat;
	for (int a = 0; a < AX_NR; a++)
		p->ax[a] = pc->ax[a] || axes[a].null_default ? pc->ax[a] : axes[a].dflt;
	map_shape_of_cell(c->o, pc->ax, &p->map);
	p->k = kernel_find(c, pc->kernel);
	snprintf(p->id, sizeof(p->id), "%s", pc->id);
	if (!p->k || !np)
		return -1;
	if (snprintf(p->dir, sizeof(p->dir), "%s/%s", c->out, p->id) >=
	    (int)sizeof(p->dir))
		return -1;
	p->restored = c->o->restore;	/* where the guest comes from: plan_snapshot below */
	plan_qemu_cfg(c, p, &q);
	mem_mb = qemu_cfg_mem_mb(&q);	/* the -m of its command line */
	/* Cells share a boot of the same guest: kernel, vCPUs, RAM, and the saved boot (if not 0). */
	snprintf(p->group, sizeof(p->group), "%s/%d/%d", pc->kernel, pc->vcpus, mem_mb);
	if (boot)
		snprintf(p->group + strlen(p->group), sizeof(p->group) - strlen(p->group), "/b%d", boot);
	cell_plan_timeouts(c, p);
	p->crash_grace_s = c->o->crash_grace_s;
	p->noise_cmd = noise_cmd(np, p->vcpus, p->timeout_s);
	if (!p->noise_cmd || plan_modparams(c, p, &p->modparams))
		return -1;
	if (c->target_host) {
		int r = strv_push(&p->argv, "/bin/sh");

		r |= strv_push(&p->argv, c->runner);
		r |= strv_push(&p->argv, p->dir);
		return r;
	}
	guest_detectors(c->accel, p->vcpus, c->host_cpus, &p->detectors);
	if (c->o->restore && plan_snapshot(c, p))
		return -1;
	p->mem_mb = mem_mb;
	return qemu_argv_build(&q, &p->argv);
}

int cell_plan_boot_argv(const struct run_ctx *c, const struct cell_plan *p, const char *name,
			struct strv *argv)
{
	char logs[PATH_MAX];
	struct qemu_cfg q;

	if (snprintf(logs, sizeof(logs), "%s/" BOOTS_DIR "/%s", c->out, name) >= (int)sizeof(logs))
		return -1;
	plan_qemu_cfg(c, p, &q);
	q.cell_dir = c->out;
	q.log_dir = logs;
	q.group = name;
	strv_free(argv);
	return qemu_argv_build(&q, argv);
}

void cell_plan_free(struct cell_plan *p)
{
	strv_free(&p->modparams);
	strv_free(&p->argv);
	free(p->noise_cmd);
	p->noise_cmd = NULL;
}
