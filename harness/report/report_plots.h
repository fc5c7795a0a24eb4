/*
 * The report's figures: for each, RUN/plots/NAME.dat (the numbers), NAME.gp
 * (the gnuplot script) and, once gnuplot ran, NAME.png.
 *   scaling_<wl>_evs       ev/s per CPU vs vCPUs, one line per kernel, mean ± stddev
 *   scaling_<wl>_pop       __pcpu_freelist_pop p50 and p99 vs vCPUs
 *   pophist_<wl>_<kernel>  pop log2 histogram, one line per vCPU count (overlaid)
 *   lat_<wl>_<kernel>_v<N>_module / _bpftrace  per-op latency histograms
 */
#ifndef HT_REPORT_PLOTS_H
#define HT_REPORT_PLOTS_H
#include <stdbool.h>

#include "rundir/run_load.h"

enum plot_kind { PK_SCALING_EVS, PK_SCALING_POP, PK_POP_HIST, PK_LAT_MODULE, PK_LAT_BPFTRACE };

struct rep_plot {
	enum plot_kind kind;
	const char *workload, *series;	/* series NULL for scaling plots */
	int vcpus;			/* 0 unless a latency plot */
	char *name;			/* file stem under plots/ */
	bool ok;			/* png written */
	char why[256];			/* when !ok: no data, gnuplot failed, … */
};

struct rep_plots {
	struct rep_plot *v;
	size_t n;
	const char *terminal;		/* NULL: no gnuplot, data files only */
};

/* Writes every figure's files and renders them; failures are per plot. */
int rep_plots_make(const struct rep_run *r, struct rep_plots *p);
const struct rep_plot *rep_plot_find(const struct rep_plots *p, enum plot_kind kind,
				     const char *workload, const char *series, int vcpus);
void rep_plots_free(struct rep_plots *p);
#endif
