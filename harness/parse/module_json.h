/* Reader for the module's results (debugfs htab_torture/results, copied to module.json). */
#ifndef HT_MODULE_JSON_H
#define HT_MODULE_JSON_H
#include <jansson.h>
#include <stdint.h>
#include "lib/histogram.h"

#define MOD_MAX_ERRNOS 16
#define MOD_MAX_LAT 8
/* The pseudo-op of latency_ns holding timing.clock_read_ns (the floor). */
#define MOD_CLOCK_READ "clock_read"

struct mod_latency {
	char op[32];		/* "update", "lookup", … */
	struct hist h;
	uint64_t sum;
};

/*
 * One caller kind of the module's callers[] (kthread: the workers; nmi,
 * irq: interrupt context). calls and in_context are -1 for kthread.
 */
#define MOD_MAX_CALLERS 8
struct mod_caller {
	char kind[16];
	uint64_t ops;
	int64_t calls, in_context, unexpected_errors;
	double calls_per_sec_per_cpu;
};

struct module_result {
	char status[32];	/* "done" */
	char result[32];	/* "SUCCESS" | "FAILURE" */
	char kernel_release[128];
	char first_failure[256];
	int nfailures;
	uint64_t duration_ns, ops;
	double ops_per_sec;
	int nr_cpus;		/* entries in per_cpu */
	struct { char name[32]; uint64_t count; } errors[MOD_MAX_ERRNOS];
	int nerrors;
	struct mod_latency lat[MOD_MAX_LAT];
	int nlat;
	int64_t unexpected_errors, warns;	/* from "verdict", -1 if absent */
	/* the verdict's own counters (kmod/README.md), -1 if absent (older modules) */
	int64_t corrupt, double_alloc, walk_bad, e2big_not_full;
	struct mod_caller callers[MOD_MAX_CALLERS];	/* empty from older modules */
	int ncallers;
	json_t *root;		/* whole document, for params and pass-through */
};

/* 0 ok; -1 with err filled (unreadable, not JSON, or missing status/result). */
int module_result_load(struct module_result *m, const char *path, char *err, size_t errlen);
int module_result_parse(struct module_result *m, json_t *root, char *err, size_t errlen);
void module_result_free(struct module_result *m);
/* The caller kind's entry, or NULL. */
const struct mod_caller *module_caller(const struct module_result *m, const char *kind);
const struct mod_latency *module_latency(const struct module_result *m, const char *op);
#endif
