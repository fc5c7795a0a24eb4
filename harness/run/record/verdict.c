/* The verdict of one cell (see verdict.h for the order of the rules). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "run/record/verdict.h"

/* A signature is one bounded line (verdict.h): those made here are cut by fmt_cut, marked. */
static void set(struct verdict_out *o, const char *v, const char *sig)
{
	snprintf(o->verdict, sizeof(o->verdict), "%s", v);
	snprintf(o->signature, sizeof(o->signature), "%s", sig);
}

/* An interrupt-context caller kind the cell asked for that made no calls, or NULL. */
static const char *idle_caller(const struct module_result *m)
{
	for (int i = 0; i < m->ncallers; i++)
		if (m->callers[i].calls == 0)
			return m->callers[i].kind;
	return NULL;
}

static void decide_module(const struct verdict_in *in, struct verdict_out *o)
{
	const struct module_result *m = in->mod;
	char sig[256];

	if (!m) {
		fmt_cut(sig, sizeof(sig), "no module results: %s",
			in->mod_err && *in->mod_err ? in->mod_err : "module.json missing");
		set(o, "FAIL", sig);
	} else if (strcmp(m->result, "SUCCESS")) {
		fmt_cut(sig, sizeof(sig), "module: %s%s%s", m->result,
			m->first_failure[0] ? ": " : "", m->first_failure);
		set(o, "FAIL", sig);
	} else if (m->ops == 0) {
		set(o, "FAIL", "sanity: module reported SUCCESS with no ops");
	} else if (idle_caller(m)) {
		snprintf(sig, sizeof(sig), "sanity: SUCCESS, but the %s callers made no calls",
			 idle_caller(m));
		set(o, "FAIL", sig);
	} else if (m->corrupt > 0 || m->double_alloc > 0 || m->walk_bad > 0) {
		snprintf(sig, sizeof(sig), "sanity: SUCCESS with %lld corrupt, %lld double allocations, %lld bad live stamps",
			 (long long)m->corrupt, (long long)m->double_alloc, (long long)m->walk_bad);
		set(o, "FAIL", sig);
	} else if (m->unexpected_errors > 0 || m->warns > 0) {
		snprintf(sig, sizeof(sig), "sanity: SUCCESS with %lld unexpected errors, %lld warns",
			 (long long)m->unexpected_errors, (long long)m->warns);
		set(o, "FAIL", sig);
	} else {
		set(o, "PASS", "");
	}
}

/* Reports that a vCPU waiting for a host core can set off: emulation may explain them. */
static bool waits_on_cpus(enum crash_kind k)
{
	return k == CK_SOFT_LOCKUP || k == CK_HARD_LOCKUP || k == CK_RCU_STALL || k == CK_HUNG_TASK;
}

void verdict_decide(const struct verdict_in *in, struct verdict_out *o)
{
	const char *why = in->runner_reason && *in->runner_reason ? in->runner_reason : "";
	char sig[256];

	o->under_overcommit = false;
	if (in->crash) {
		set(o, "CRASH", in->crash->signature);
		if (in->tcg_overcommit > 1 && waits_on_cpus(in->crash->kind)) {
			o->under_overcommit = true;
			fmt_cut(sig, sizeof(sig), "%s (TCG overcommit %d\u00d7)", in->crash->signature,
				in->tcg_overcommit);
			set(o, "CRASH", sig);
		}
		return;
	}
	if (in->timed_out && in->hang && *in->hang) {
		set(o, "TIMEOUT", in->hang);
		return;
	}
	if (in->timed_out) {
		snprintf(sig, sizeof(sig), in->quiet_timeout ? "no console output for %d s"
							     : "guest still running after %d s",
			 in->timeout_s);
		set(o, "TIMEOUT", sig);
		return;
	}
	switch (in->exit_status) {
	case -1:
		snprintf(sig, sizeof(sig), "lost connection to guest: qemu exited (%d) without an exit status",
			 in->qemu_exit);
		set(o, "CRASH", sig);
		return;
	case RX_PASS:
		/* A custom job's own exit status is its verdict, unless it ran the module. */
		if (in->custom_job && !in->mod) {
			set(o, "PASS", "");
			return;
		}
		decide_module(in, o);
		return;
	case RX_FAIL:
		decide_module(in, o);
		if (!strcmp(o->verdict, "PASS"))
			set(o, "FAIL", "runner exit 1 although module.json says SUCCESS");
		return;
	case RX_SETUP:
		snprintf(sig, sizeof(sig), "setup error%s%s", *why ? ": " : "", why);
		set(o, "FAIL", sig);
		return;
	case RX_SKIP:
		snprintf(sig, sizeof(sig), "skip%s%s", *why ? ": " : "", why);
		set(o, "SKIP", sig);
		return;
	case RX_MODULE_TIMEOUT:
		snprintf(sig, sizeof(sig), "module not done in RUN_TIMEOUT%s%s", *why ? ": " : "", why);
		set(o, "TIMEOUT", sig);
		return;
	default:
		snprintf(sig, sizeof(sig), "runner exit %d%s%s", in->exit_status, *why ? ": " : "", why);
		set(o, "FAIL", sig);
	}
}

/*
 * A CPU trapped on a text-poke breakpoint after the poke had finished:
 * "Oops: int3" with no probe of the kit's anywhere yet. Seen only while
 * booting 6.12 under multi-threaded TCG at 16-96 vCPUs on 2 cores
 * (sched_clock_cpu+0x9, the sched_clock_stable static key), never at
 * 2-4 vCPUs: a vCPU running code translated before the poke.
 */
static bool stale_text_poke(const struct console_report *r)
{
	return r && r->kind == CK_OOPS && strstr(r->line, "Oops: int3");
}

bool verdict_boot_retry(const struct verdict_in *in, const struct verdict_out *o,
			bool runner_started, int attempt)
{
	if (runner_started || attempt != 1 || in->tcg_overcommit < 1)
		return false;
	if (!strcmp(o->verdict, "TIMEOUT"))
		return true;
	return in->tcg_overcommit > 1 && !strcmp(o->verdict, "CRASH") &&
	       (o->under_overcommit || stale_text_poke(in->crash));
}
