/* The report's seed table and map memory sections (report_seed.h). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "report/report_out.h"
#include "report/report_seed.h"

/* manifest.json "seed" (owned), or NULL for a run no seed target made. */
static char *seed_id(const struct rep_run *r)
{
	char path[4200];
	json_t *m, *s;
	char *id = NULL;

	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	m = json_load_file(path, 0, NULL);
	s = json_object_get(m, "seed");
	if (json_is_string(s))
		id = strdup(json_string_value(s));
	json_decref(m);
	return id;
}

static char *seed_table(const struct rep_run *r)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/seed.txt", r->dir);
	return read_file(path, NULL);
}

static double mem_num(const struct rep_cell *c, const char *k)
{
	json_t *cj = c->cell_json ? c->cell_json : c->summary_cell;
	json_t *v = json_object_get(json_object_get(cj, "memory"), k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int any_memory(const struct rep_run *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (!isnan(mem_num(&r->cells[i], "peak_mib")))
			return 1;
	return 0;
}

void rep_seed_text(FILE *f, const struct rep_run *r)
{
	char *id = seed_id(r), *t = id ? seed_table(r) : NULL;

	if (id) {
		fprintf(f, "Seed %s (made by make seed-%s; the seed's figures beside ours)\n\n", id, id);
		if (t)
			fputs(t, f);
		else
			fprintf(f, "  no seed.txt: bench/seed-%s.sh %s prints the table and writes it\n", id,
				r->dir);
		fputc('\n', f);
	}
	if (any_memory(r)) {
		fputs("Map memory (its cgroup v2: memory.current mean ± sd over the run, memory.peak)\n", f);
		fprintf(f, "  %-52s %10s %8s %10s %8s\n", "cell", "avg MiB", "sd", "peak MiB", "samples");
		for (size_t i = 0; i < r->n; i++) {
			const struct rep_cell *c = &r->cells[i];

			if (isnan(mem_num(c, "peak_mib")))
				continue;
			fprintf(f, "  %-52s %10.2f %8.2f %10.2f %8.0f\n", c->id, mem_num(c, "avg_mib"),
				mem_num(c, "sd_mib"), mem_num(c, "peak_mib"), mem_num(c, "samples"));
		}
		fputc('\n', f);
	}
	free(t);
	free(id);
}

void rep_seed_html(FILE *f, const struct rep_run *r)
{
	char *id = seed_id(r), *t = id ? seed_table(r) : NULL;

	if (id) {
		fputs("<h2>Seed ", f);
		rep_html_esc(f, id);
		fputs("</h2>\n<p>The run of <code>make seed-", f);
		rep_html_esc(f, id);
		fputs("</code>: the seed's published figures beside ours.</p>\n", f);
		if (t) {
			fputs("<pre class=seed>", f);
			rep_html_esc(f, t);
			fputs("</pre>\n", f);
		} else {
			fputs("<p class=missing>No seed.txt: <code>bench/seed-", f);
			rep_html_esc(f, id);
			fputs(".sh RUN</code> prints the table and writes it.</p>\n", f);
		}
	}
	if (any_memory(r)) {
		fputs("<h2>Map memory</h2>\n<p>The map's cgroup v2: memory.current mean ± sd over the "
		      "run, memory.peak (MiB).</p>\n<table><tr><th>cell</th><th>avg</th><th>sd</th>"
		      "<th>peak</th><th>samples</th></tr>\n", f);
		for (size_t i = 0; i < r->n; i++) {
			const struct rep_cell *c = &r->cells[i];

			if (isnan(mem_num(c, "peak_mib")))
				continue;
			fputs("<tr><td>", f);
			rep_html_esc(f, c->id);
			fprintf(f, "</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.0f</td></tr>\n",
				mem_num(c, "avg_mib"), mem_num(c, "sd_mib"), mem_num(c, "peak_mib"),
				mem_num(c, "samples"));
		}
		fputs("</table>\n", f);
	}
	free(t);
	free(id);
}
