/*
 * The boot's phases on the host's clock, from the console as it arrives.
 * Under TCG the guest's printk clock nearly stops while secondary CPUs come
 * up, so only the host's clock splits a boot (issue 15).
 */
#ifndef HT_BOOT_MARKS_H
#define HT_BOOT_MARKS_H

enum boot_mark {
	BM_FIRST_LINE,	/* the first complete console line */
	BM_LAST_AP,	/* x86's "#N" for the last AP (N = vCPUs - 1), shown at loglevel 5 */
	BM_SMP_UP,	/* "smp: Brought up" (pr_info: loglevel >= 7 only) */
	/*
	 * "mtrr: your CPUs had inconsistent ...": a warning, so shown at
	 * loglevel 5, from a subsys_initcall (after SMP); QEMU's TCG -cpu max
	 * gives every boot of 6.1 it (with lpj= the "#N" lines are one pr_info
	 * line, hidden: this is then the only mark near SMP up).
	 */
	BM_AFTER_SMP,
	BM_INIT,	/* the initramfs init's "htab-init: up at" */
	BM_CPUS_ONLINE,	/* init's "htab-init: CPUs online" (after onlining any offline ones) */
	BM_MODULES,	/* init's "htab-init: modules loaded" (the initramfs's virtio/9p modules) */
	BM_RESTORED,	/* init's "htab-init: restored at" (--restore on: awake, reseeded) */
	BM_POWER_OFF,	/* "reboot: Power down" */
	BM_NR,
};

extern const char *const boot_mark_keys[BM_NR];

/*
 * Which mark one console line sets, as a bit mask of (1 << enum boot_mark)
 * (BM_FIRST_LINE is the caller's: any line). vcpus names the last AP.
 */
unsigned boot_marks_of_line(const char *line, int vcpus);
#endif
