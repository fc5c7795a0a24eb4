/*
 * What a reader needs to trust the numbers: where the run ran (host,
 * accelerator — TCG is emulation), which kernels (release, image, sha256)
 * and which parameters. Built once as JSON; every output renders it.
 */
#ifndef HT_REPORT_ENV_H
#define HT_REPORT_ENV_H
#include <jansson.h>

#include "rundir/run_load.h"

/*
 * {"host": {...} | "…", "report_host": "…", "generated_at": "…",
 *  "accels": ["tcg"], "emulated": true,
 *  "kernels": [{"label", "release", "image", "sha256", "sha256_source"}],
 *  "params": {"key": ["v1", "v2"]}}   (distinct values across cells)
 */
json_t *rep_env_build(const struct rep_run *r);
/* sha256sum of a file via the coreutils tool; NULL when unreadable. */
char *rep_sha256_file(const char *path);
/* A parameter's values joined with ", " (malloc'd). */
char *rep_env_join(json_t *values);
#endif
