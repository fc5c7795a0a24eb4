/*
 * The coverage lists: the percentages a cell carries (cell.json, summary.json,
 * compare's metrics are all made from cov_metrics[]) and the allocator's
 * functions the report puts first (the other functions of the files follow).
 */
#include <math.h>
#include <stdio.h>

#include "rundir/coverage.h"

const struct cov_metric cov_metrics[] = {
	{ "percpu_freelist.lines_pct", "percpu_freelist.c", COV_LINES },
	{ "percpu_freelist.branches_pct", "percpu_freelist.c", COV_BRANCHES },
	{ "hashtab.lines_pct", "hashtab.c", COV_LINES },
	{ "hashtab.branches_pct", "hashtab.c", COV_BRANCHES },
	{ "bpf_lru_list.lines_pct", "bpf_lru_list.c", COV_LINES },
	{ "bpf_lru_list.branches_pct", "bpf_lru_list.c", COV_BRANCHES },
	{ "memalloc.lines_pct", "memalloc.c", COV_LINES },
	{ "memalloc.branches_pct", "memalloc.c", COV_BRANCHES },
};
const size_t cov_nmetrics = sizeof(cov_metrics) / sizeof(cov_metrics[0]);

const char *const cov_key_functions[] = {
	"___pcpu_freelist_pop", "___pcpu_freelist_pop_nmi",
	"___pcpu_freelist_push", "___pcpu_freelist_push_nmi",
	"__pcpu_freelist_pop", "__pcpu_freelist_push",
	"pcpu_freelist_pop", "pcpu_freelist_push",
	"alloc_htab_elem", "free_htab_elem",
	"htab_map_update_elem", "htab_map_delete_elem", "htab_lru_map_update_elem",
	"bpf_lru_pop_free", "bpf_lru_push_free",
};
const size_t cov_nkey_functions = sizeof(cov_key_functions) / sizeof(cov_key_functions[0]);

json_t *cov_figures(const struct cov_set *s, const char *kdir)
{
	json_t *j = json_pack("{s:s}", "snapshot", COV_MAIN_SNAPSHOT);

	if (kdir)
		json_object_set_new(j, "tree", json_string(kdir));

	for (size_t i = 0; i < cov_nmetrics; i++) {
		const struct cov_metric *m = &cov_metrics[i];
		const struct cov_file *f = s ? cov_set_find(s, m->file) : NULL;
		double p = f ? cov_pct(m->kind == COV_LINES ? &f->lines_c : &f->branches_c) : NAN;

		json_object_set_new(j, m->name, isnan(p) ? json_null() : json_real(p));
	}
	return j;
}
