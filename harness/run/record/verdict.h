/* The verdict of one cell from what the guest, QEMU and the console left behind. */
#ifndef HT_VERDICT_H
#define HT_VERDICT_H
#include <stdbool.h>
#include "parse/console_scan.h"
#include "parse/module_json.h"

/* Exit statuses of vm-images/guest/run-job.sh. */
enum runner_exit { RX_PASS = 0, RX_FAIL = 1, RX_SETUP = 2, RX_SKIP = 3, RX_MODULE_TIMEOUT = 4 };

struct verdict_in {
	bool timed_out;			/* host-side timeout hit */
	bool quiet_timeout;		/* … because nothing grew for quiet_s */
	int timeout_s;
	int exit_status;		/* from the htab.ret port, -1 if none */
	int qemu_exit;			/* exit code, or -signal */
	const struct console_report *crash;	/* NULL: clean console */
	const struct module_result *mod;	/* NULL: no usable module.json */
	const char *mod_err;		/* why mod is NULL */
	const char *runner_reason;	/* the runner's last log line, "" if none */
	bool custom_job;		/* JOB_SCRIPT replaced the insmod sequence */
	int tcg_overcommit;		/* vCPUs per host core (rounded up) under TCG; 0 otherwise */
	const char *hang;		/* timed out: where its vCPUs were (hang.txt's title); NULL */
};

struct verdict_out {
	char verdict[16];	/* PASS FAIL CRASH TIMEOUT SKIP */
	char signature[256];	/* why, one line ("" for PASS) */
	bool under_overcommit;	/* a lockup/stall/hung task while TCG vCPUs outnumbered cores */
};

/*
 * Order: a kernel report wins (a hang caused by a lockup is a CRASH), then a
 * host timeout (TIMEOUT; its signature the hang report's title when the
 * guest's vCPUs were located, run/guest/hang.h), then a missing exit status (guest died without reporting),
 * then the runner's exit status, checked against module.json and sanity.
 * A lockup, RCU stall or hung task under TCG overcommit stays a CRASH, but
 * its signature says " (TCG overcommit N×)": emulation may explain it.
 */
void verdict_decide(const struct verdict_in *in, struct verdict_out *out);

/*
 * Whether to boot the cell once more instead of keeping this verdict: the
 * guest never reached its runner (@runner_started false: the kernel under
 * test had not been touched by the kit yet) under TCG, and it went silent
 * (a timeout: seen once at 2 vCPUs on 2 cores beside a kernel build, the
 * console silent from 6.6 s) or, with TCG vCPUs outnumbering the host's
 * cores, ended on a lockup/stall/hung-task report — an emulation stall
 * while booting (seen: "soft lockup in alg_test" during the crypto
 * self-tests at 8 vCPUs on 2 cores) — or on an "Oops: int3", a
 * stale text-poke breakpoint (seen: 6.12 booting at 16-96 vCPUs,
 * sched_clock_cpu+0x9). Any other Oops is the kernel's. Only on the first @attempt: a
 * second such boot is the cell's verdict, so a kernel that cannot boot is
 * still reported.
 */
bool verdict_boot_retry(const struct verdict_in *in, const struct verdict_out *out,
			bool runner_started, int attempt);
#endif
