/*
 * The report's seed and memory sections. A run made by a seed target
 * (bench/seed-00N.sh set manifest.json "seed") shows that target's table,
 * RUN/seed.txt: the seed's published figures beside ours. Cells that
 * sampled their map's cgroup (cell.json "memory", vm-images/guest/memcg-job.sh)
 * get one row each: memory.current mean ± sd over the run and memory.peak.
 */
#ifndef HT_REPORT_SEED_H
#define HT_REPORT_SEED_H
#include <stdio.h>

#include "rundir/run_load.h"

void rep_seed_text(FILE *f, const struct rep_run *r);
void rep_seed_html(FILE *f, const struct rep_run *r);
#endif
