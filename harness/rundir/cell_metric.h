/*
 * The metrics of one cell by name, as compare tests them and bisect decides
 * on them: what a cell measured, its unit and which way is better.
 */
#ifndef HT_CELL_METRIC_H
#define HT_CELL_METRIC_H
#include <stddef.h>

#include "rundir/run_load.h"

/*
 * The metric's value in cell c; NAN when the cell did not measure it or
 * the name is none of: module.ops_per_sec, module.ops_per_sec_per_cpu,
 * bpftrace.pop.p50|p99, module.<op>.p50|p99, coverage.<key>,
 * memory.avg_mib|peak_mib.
 */
double rep_cell_metric(const struct rep_cell *c, const char *name);
/* Its unit ("ops/s", "ns", "%", "MiB"); NULL for a name that is no metric. */
const char *rep_metric_unit(const char *name);
/* +1 higher is better (ops/s, coverage), -1 lower is (ns, MiB), 0 no metric. */
int rep_metric_direction(const char *name);
/* The names rep_cell_metric knows, as a help text ("module.ops_per_sec, …"). */
void rep_metric_names(char *buf, size_t size);
#endif
