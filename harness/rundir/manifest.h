/*
 * A run directory's plan (its cells, in order) and manifest.json: the plan,
 * its parameters, every command line that ran it, and the rule for resuming
 * a run in the same directory.
 */
#ifndef HT_MANIFEST_H
#define HT_MANIFEST_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "lib/util.h"
#include "rundir/axes.h"

struct plan_cell {
	size_t index;		/* position in the whole (unsharded) plan */
	char id[192];
	int vcpus, repeat;
	/* Every axis's value (axes.h), borrowed from the options or the plan; fault is the
	   --fault value verbatim ("none" for none), test_action NULL for none. */
	AXIS_VALUES(axis_cstr);
};

struct plan {
	struct plan_cell *cells;
	size_t n;
	size_t left_out;	/* crossings the kernel refuses (plan_build): LRU, prealloc 0 */
	size_t left_out_callers;	/* crossings of callers and map the module refuses */
	struct strv strings;	/* values the plan made (vCPU counts as text) */
};

void plan_free(struct plan *p);

/*
 * Manifest. params: the run's shared parameters (anything that makes cells
 * comparable: duration, accel, target, bpftrace, modparams, kernel hashes …).
 */
json_t *manifest_build(const struct plan *p, json_t *params, int shard_i, int shard_n);
/*
 * Resume rule for a run directory that already has a manifest: the shared
 * parameters and the shard must be equal (else -1 and why in err); the plan
 * may grow (new axis values add cells, in order, after the old ones). On
 * success *merged is the manifest to write (old cells, then new ones; the
 * old "runs" history kept).
 */
int manifest_reconcile(json_t *old, json_t *want, json_t **merged, char *err, size_t errlen);
/* Append {"command": [...], "started": ISO time} to manifest.runs. */
void manifest_add_run(json_t *m, int argc, char **argv);
int manifest_write(const char *dir, json_t *m);
json_t *manifest_load(const char *dir, char *err, size_t errlen);
#endif
