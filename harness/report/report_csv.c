/* summary.csv: one row per cell, units in the header ("ops_per_sec [ops/s]"). */
#include <math.h>
#include <stdlib.h>

#include "lib/csv.h"
#include "report/report_out.h"

#define MAX_OPS 16

static void header(struct csv *c, const char **ops, size_t nops)
{
	static const char *const fixed[] = {
		"cell", "workload", "kernel", "noise", "fault", "vcpus [count]", "repeat [index]",
		"accel", "verdict", "signature_or_notes", "ops [ops]", "ops_per_sec [ops/s]",
		"ev_per_sec_per_cpu [ev/s]", "duration [s]", "pop_count [calls]",
		"pop_p50 [ns]", "pop_p90 [ns]", "pop_p99 [ns]", "pop_max [ns]",
		"has_module_json", "has_bpftrace",
	};
	char buf[128];

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		csv_str(c, fixed[i]);
	for (size_t i = 0; i < nops; i++) {
		static const char *const what[] = { "count [ops]", "p50 [ns]", "p99 [ns]" };

		for (size_t k = 0; k < 3; k++) {
			snprintf(buf, sizeof(buf), "%s_%s", ops[i], what[k]);
			csv_str(c, buf);
		}
	}
	csv_end_row(c);
}

static void row(struct csv *c, const struct rep_cell *cell, const char **ops, size_t nops)
{
	const struct rep_hist *pop = rep_cell_pop(cell);
	struct hist_stats st = { 0, NAN, NAN, NAN, NAN };
	char *notes = rep_cell_notes(cell);
	bool mod = cell->has_module;

	if (pop)
		hist_summarize(&pop->h, &st);
	csv_str(c, cell->id);
	csv_str(c, cell->workload);
	csv_str(c, cell->kernel);
	csv_str(c, cell->noise);
	csv_str(c, cell->fault);
	csv_int(c, cell->vcpus);
	csv_int(c, cell->repeat);
	csv_str(c, cell->accel);
	csv_str(c, cell->verdict);
	csv_str(c, notes);
	csv_num(c, mod ? cell->ops : NAN, "%.0f");
	csv_num(c, mod ? cell->ops_per_sec : NAN, "%.1f");
	csv_num(c, mod ? cell->evs_per_cpu : NAN, "%.1f");
	csv_num(c, mod ? cell->duration_s : NAN, "%.3f");
	csv_num(c, pop ? (double)st.count : NAN, "%.0f");
	csv_num(c, st.p50, "%.0f");
	csv_num(c, st.p90, "%.0f");
	csv_num(c, st.p99, "%.0f");
	csv_num(c, st.max, "%.0f");
	csv_int(c, cell->has_module);
	csv_int(c, cell->has_bpftrace);
	for (size_t i = 0; i < nops; i++) {
		const struct rep_hist *h = rep_find_hist(cell->lat, cell->nlat, NULL, ops[i]);

		csv_num(c, h ? (double)h->h.count : NAN, "%.0f");
		csv_num(c, h ? hist_percentile(&h->h, 50) : NAN, "%.0f");
		csv_num(c, h ? hist_percentile(&h->h, 99) : NAN, "%.0f");
	}
	csv_end_row(c);
	free(notes);
}

int rep_write_csv(const struct rep_run *r, const char *path)
{
	const char *ops[MAX_OPS];
	size_t nops = rep_ops(r, ops, MAX_OPS), len;
	char *buf;
	FILE *f = rep_mem_open(&buf, &len);
	struct csv c;

	if (!f)
		return -1;
	csv_init(&c, f);
	header(&c, ops, nops);
	for (size_t i = 0; i < r->n; i++)
		row(&c, &r->cells[i], ops, nops);
	return rep_mem_commit(f, &buf, &len, path);
}
