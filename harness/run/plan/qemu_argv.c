/*
 * The QEMU command line of one cell, built as an argv list, one function per
 * concern (virtme-ng style), so --dry-run prints exactly what would run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/plan/guest_mem.h"
#include "run/plan/qemu_argv.h"

int qemu_mem_mb(int vcpus)
{
	return 512 + 32 * (vcpus < GUEST_MEM_VCPUS_CAP ? vcpus : GUEST_MEM_VCPUS_CAP);
}

int guest_mem_mb(int base_mb, int vcpus, long long map_bytes, int noise_mb)
{
	return (base_mb > 0 ? base_mb : qemu_mem_mb(vcpus)) + map_mem_mb(map_bytes) + noise_mb;
}

static int scaled(int dflt, int factor, int max)
{
	return dflt * factor < max ? dflt * factor : max;
}

void guest_detectors(enum accel_mode accel, int vcpus, int host_cpus, struct guest_detectors *d)
{
	int cores = host_cpus > 0 ? host_cpus : vcpus;

	d->overcommit = (vcpus + cores - 1) / cores;
	if (d->overcommit < 1)
		d->overcommit = 1;
	d->on_cmdline = accel == ACCEL_TCG;
	d->watchdog_thresh = WATCHDOG_THRESH_DEFAULT;
	d->rcu_stall_timeout = RCU_STALL_TIMEOUT_DEFAULT;
	if (!d->on_cmdline)
		return;
	d->watchdog_thresh = scaled(WATCHDOG_THRESH_DEFAULT, d->overcommit, WATCHDOG_THRESH_MAX);
	d->rcu_stall_timeout = scaled(RCU_STALL_TIMEOUT_DEFAULT, d->overcommit,
				      RCU_STALL_TIMEOUT_MAX);
}

static int add_machine_accel(struct strv *a, const struct qemu_cfg *c)
{
	int r = 0;

	r |= strv_push(a, "-machine");
	r |= strv_push(a, "pc");
	r |= strv_push(a, "-accel");
	if (c->accel == ACCEL_KVM) {
		r |= strv_push(a, "kvm");
		r |= strv_push(a, "-cpu");
		r |= strv_push(a, "host");
	} else {
		/* One host thread per vCPU; -cpu max so the guest sees every feature TCG has. */
		r |= strv_push(a, "tcg,thread=multi");
		r |= strv_push(a, "-cpu");
		r |= strv_push(a, "max");
	}
	return r;
}

static bool observes(const struct qemu_cfg *c)
{
	return c->observe && c->restore != QR_NONE;
}

int qemu_cfg_mem_mb(const struct qemu_cfg *c)
{
	return guest_mem_mb(c->mem_base_mb, c->vcpus, c->map_bytes, c->noise_mb) +
	       (observes(c) ? OBSERVE_MEM_MB : 0);
}

static int add_cpus_memory(struct strv *a, const struct qemu_cfg *c)
{
	int r = 0;

	r |= strv_push(a, "-smp");
	r |= strv_pushf(a, "%d", c->vcpus);
	r |= strv_push(a, "-m");
	r |= strv_pushf(a, "%d", qemu_cfg_mem_mb(c));
	return r;
}

/* Guest runs always end: no reboot, no display, nothing implicit. */
static int add_lifecycle(struct strv *a)
{
	int r = 0;

	r |= strv_push(a, "-nodefaults");
	r |= strv_push(a, "-no-reboot");
	r |= strv_push(a, "-display");
	r |= strv_push(a, "none");
	return r;
}

static int add_kernel(struct strv *a, const struct qemu_cfg *c)
{
	struct guest_detectors d;
	char detectors[96] = "", lpj[32] = "", boot[24] = "", *extra;
	const char *group;
	size_t len = 1;
	int r = 0;

	r |= strv_push(a, "-kernel");
	r |= strv_push(a, c->kernel_image);
	r |= strv_push(a, "-initrd");
	r |= strv_push(a, c->initrd);
	r |= strv_push(a, "-append");
	/*
	 * loglevel=5, not 4: WARN() and lockdep print at KERN_WARNING, and the
	 * console is the only record that survives a hung guest.
	 */
	/*
	 * Under TCG the guest picks HPET as clocksource, and every HPET read is
	 * an emulated MMIO access (~1 us): it made each ktime_get_ns() - the
	 * module's per-op timing and bpftrace's nsecs alike - cost more than the
	 * pop it timed. TCG's TSC is synchronised across vCPUs (it derives from
	 * QEMU's virtual clock), so trusting it is sound there. Measured at
	 * 2 vCPUs, full_update with per-op timing: 0.66-0.70M ops/s on HPET,
	 * 1.35-1.45M on TSC. Under KVM the guest's own choice (kvm-clock) stays.
	 */
	/*
	 * no_timer_check: on a loaded host a TCG guest can miss the boot-time
	 * IO-APIC timer check's window and panic ("IO-APIC + timer doesn't
	 * work!"); seen here while other guests and a kernel build ran.
	 */
	/*
	 * Emulation is not a kernel bug: see guest_detectors() (2 host cores
	 * running 16 TCG vCPUs gave soft lockups and RCU stalls on a correct
	 * kernel at the default thresholds).
	 */
	guest_detectors(c->accel, c->vcpus, c->host_cpus, &d);
	if (d.on_cmdline)
		snprintf(detectors, sizeof(detectors),
			 "watchdog_thresh=%d rcupdate.rcu_cpu_stall_timeout=%d ",
			 d.watchdog_thresh, d.rcu_stall_timeout);
	/*
	 * lpj=: the boot CPU's own value on this host (run/plan/lpj.h), so no AP
	 * calibrates its delay loop under emulation. --boot-opt words come last.
	 */
	if (c->lpj > 0)
		snprintf(lpj, sizeof(lpj), "lpj=%ld ", c->lpj);
	for (size_t i = 0; c->boot_opts && i < c->boot_opts->n; i++)
		len += strlen(c->boot_opts->v[i]) + 1;
	extra = calloc(1, len);
	if (!extra)
		return -1;
	for (size_t i = 0; c->boot_opts && i < c->boot_opts->n; i++) {
		strcat(extra, " ");
		strcat(extra, c->boot_opts->v[i]);
	}
	/* A saved guest's command line serves every restore: its group comes on htab.ctl. */
	group = c->restore == QR_NONE ? c->group : NULL;
	/* htab.boot=K: a boot of its own, so a snapshot (key) of its own; init ignores it. */
	if (c->boot_index > 0)
		snprintf(boot, sizeof(boot), " htab.boot=%d", c->boot_index);
	r |= strv_pushf(a, "console=ttyS0 panic=-1 panic_on_warn=0 quiet loglevel=5 no_timer_check "
			"%s%s%shtab.runner=%s%s%s%s%s%s%s%s",
			c->accel == ACCEL_TCG ? "clocksource=tsc tsc=reliable " : "", detectors, lpj,
			c->runner, group ? " htab.group=" : "", group ? group : "",
			c->restore != QR_NONE ? " htab.restore=1" : "", boot,
			observes(c) ? " htab.observe=" : "", observes(c) ? c->observe : "", extra);
	free(extra);
	return r;
}

static int add_9p(struct strv *a, const char *id, const char *path, const char *extra)
{
	char *p = qemu_escape(path);
	int r = 0;

	if (!p)
		return -1;
	r |= strv_push(a, "-fsdev");
	r |= strv_pushf(a, "local,id=%s,path=%s,security_model=none%s", id, p, extra);
	r |= strv_push(a, "-device");
	r |= strv_pushf(a, "virtio-9p-pci,fsdev=%s,mount_tag=%s", id, id);
	free(p);
	return r;
}

/* The guest runs the host's own bpftrace/insmod, so it sees the host root, read-only. */
static int add_host_root(struct strv *a)
{
	return add_9p(a, "hostroot", "/", ",readonly=on,multidevs=remap");
}

static int add_cell_dir(struct strv *a, const struct qemu_cfg *c)
{
	return add_9p(a, "cell", c->cell_dir, "");
}

/* Where the console, the ports and the FIFOs are: the log directory, else the share. */
static const char *logs_of(const struct qemu_cfg *c)
{
	return c->log_dir ? c->log_dir : c->cell_dir;
}

/* -chardev BACKEND,id=ID,path=LOGS/NAME (file: that file; pipe: NAME.in/.out or NAME). */
static int add_chardev(struct strv *a, const char *backend, const char *id,
		       const struct qemu_cfg *c, const char *name)
{
	char *d = qemu_escape(logs_of(c));
	int r = 0;

	if (!d)
		return -1;
	r |= strv_push(a, "-chardev");
	r |= strv_pushf(a, "%s,id=%s,path=%s/%s", backend, id, d, name);
	free(d);
	return r;
}

static int add_console(struct strv *a, const struct qemu_cfg *c)
{
	int r = add_chardev(a, "file", "con", c, "console.log");

	r |= strv_push(a, "-serial");
	r |= strv_push(a, "chardev:con");
	return r;
}

/* The exit status comes back on its own port, never scraped from the console. */
static int add_exit_port(struct strv *a, const struct qemu_cfg *c)
{
	int r = 0;

	r |= strv_push(a, "-device");
	r |= strv_push(a, "virtio-serial-pci");
	r |= add_chardev(a, "file", "ret", c, "exit_status");
	r |= strv_push(a, "-device");
	r |= strv_push(a, "virtserialport,chardev=ret,name=htab.ret");
	return r;
}

/*
 * --restore (run/guest/snapshot.h): the htab.ctl port a restored guest reads its
 * orders from, vmgenid (a new generation ID at each restore: kernels with
 * CONFIG_VMGENID reseed on it), and the restore's incoming state.
 */
static int add_restore(struct strv *a, const struct qemu_cfg *c)
{
	int r = 0;

	if (c->restore == QR_NONE)
		return 0;
	r |= add_chardev(a, "pipe", "ctl", c, "ctl");
	r |= strv_push(a, "-device");
	r |= strv_push(a, "virtserialport,chardev=ctl,name=htab.ctl");
	r |= strv_push(a, "-device");
	r |= strv_push(a, "vmgenid,guid=auto");
	if (c->restore == QR_SAVE) {
		/*
		 * The save stops the guest before migrating it (snapshot.c):
		 * without the run state in the file, the restore starts it.
		 */
		r |= strv_push(a, "-global");
		r |= strv_push(a, "migration.store-global-state=off");
		return r;
	}
	r |= strv_push(a, "-incoming");
	r |= strv_pushf(a, "fd:%d", QEMU_STATE_FD);
	return r;
}

/*
 * A QMP monitor on every boot (FIFOs LOGS/qmp.in, qmp.out, made before QEMU
 * starts: boot_monitor_make()): the save migrates through it, and a guest
 * that went silent is asked there where its vCPUs are (run/guest/hang.h) before
 * it is killed. QEMU sends nothing on it until a client negotiates.
 */
static int add_monitor(struct strv *a, const struct qemu_cfg *c)
{
	int r = add_chardev(a, "pipe", "qmp", c, "qmp");

	r |= strv_push(a, "-mon");
	r |= strv_push(a, "chardev=qmp,mode=control");
	return r;
}

int qemu_argv_build(const struct qemu_cfg *c, struct strv *a)
{
	int r = 0;

	r |= strv_push(a, c->qemu ? c->qemu : "qemu-system-x86_64");
	r |= add_machine_accel(a, c);
	r |= add_cpus_memory(a, c);
	r |= add_lifecycle(a);
	r |= add_kernel(a, c);
	r |= add_host_root(a);
	r |= add_cell_dir(a, c);
	r |= add_console(a, c);
	r |= add_exit_port(a, c);
	r |= add_restore(a, c);
	r |= add_monitor(a, c);
	return r ? -1 : 0;
}

char *qemu_argv_join(const struct strv *a, const char *state)
{
	size_t len = 1, pos = 0;
	char *out;

	for (size_t i = 0; i < a->n; i++)
		len += 4 * strlen(a->v[i]) + 3;
	if (state)
		len += 4 * strlen(state) + 16;
	out = malloc(len);
	if (!out)
		return NULL;
	for (size_t i = 0; i < a->n; i++) {
		char *q = shell_quote(a->v[i]);

		if (!q) {
			free(out);
			return NULL;
		}
		pos += sprintf(out + pos, "%s%s", i ? " " : "", q);
		free(q);
	}
	if (state) {
		char *q = shell_quote(state);

		if (!q) {
			free(out);
			return NULL;
		}
		pos += sprintf(out + pos, " %d< %s", QEMU_STATE_FD, q);
		free(q);
	}
	out[pos] = '\0';
	return out;
}
