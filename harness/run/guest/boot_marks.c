/* Console lines that mark a boot phase (see boot_marks.h). */
#include <stdio.h>
#include <string.h>

#include "run/guest/boot_marks.h"

const char *const boot_mark_keys[BM_NR] = {
	"first_console_s", "last_ap_s", "smp_up_s", "after_smp_s", "init_s", "cpus_online_s", "modules_s",
	"restored_s", "power_off_s",
};

/* The text after a "[    1.234567] " printk timestamp, or the line itself. */
static const char *after_stamp(const char *l)
{
	const char *e;

	if (l[0] != '[' || !(e = strchr(l, ']')))
		return l;
	return e[1] == ' ' ? e + 2 : e + 1;
}

/*
 * x86's announce_cpu() prints "#N" for each AP as it starts it, continuing
 * one line ("  #1  #2" or ".... node  #0, CPUs:      #1"); at loglevel 5 the
 * continuations show (their default level), one a line under TCG. The last
 * AP's number is SMP (nearly) up: only that AP's own bring-up follows.
 */
static int ends_with_cpu(const char *t, int cpu)
{
	char want[16];
	size_t n = strlen(t), w;

	while (n && (t[n - 1] == '\r' || t[n - 1] == ' '))
		n--;
	w = (size_t)snprintf(want, sizeof(want), "#%d", cpu);
	if (n < w || memcmp(t + n - w, want, w))
		return 0;
	return n == w || t[n - w - 1] == ' ';
}

unsigned boot_marks_of_line(const char *line, int vcpus)
{
	const char *t = after_stamp(line);

	if (!strncmp(t, "smp: Brought up", 15))
		return 1u << BM_SMP_UP;
	if (vcpus > 1 && ends_with_cpu(t, vcpus - 1))
		return 1u << BM_LAST_AP;
	if (!strncmp(t, "mtrr: your CPUs had inconsistent", 32))
		return 1u << BM_AFTER_SMP;
	if (!strncmp(t, "htab-init: up at", 16))
		return 1u << BM_INIT;
	if (!strncmp(t, "htab-init: CPUs online", 22))
		return 1u << BM_CPUS_ONLINE;
	if (!strncmp(t, "htab-init: modules loaded", 25))
		return 1u << BM_MODULES;
	if (!strncmp(t, "htab-init: restored at", 22))
		return 1u << BM_RESTORED;
	if (!strncmp(t, "reboot: Power down", 18))
		return 1u << BM_POWER_OFF;
	return 0;
}
