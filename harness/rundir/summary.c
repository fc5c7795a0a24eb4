/*
 * OUT/summary.json and the end-of-run table. The table has a units row;
 * repeated cells get a mean ± stddev row so a reader sees the spread.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundir/axes.h"
#include "rundir/coverage.h"
#include "rundir/summary.h"
#include "lib/numfmt.h"
#include "lib/util.h"

int summary_write(const char *out_dir, json_t *cells)
{
	char path[4096];
	json_t *root = json_pack("{s:O}", "cells", cells);
	char *dump = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	int err = -1;

	snprintf(path, sizeof(path), "%s/summary.json", out_dir);
	if (dump) {
		size_t n = strlen(dump);
		char *d = realloc(dump, n + 2);

		if (d) {
			dump = d;
			strcpy(dump + n, "\n");
			err = write_file_atomic(path, dump, n + 1);
		}
	}
	if (err)
		fprintf(stderr, "error: cannot write %s\n", path);
	free(dump);
	json_decref(root);
	return err;
}

json_t *summary_collect(const char *out_dir, json_t *manifest)
{
	json_t *cells = json_array(), *c;
	size_t i;

	json_array_foreach(json_object_get(manifest, "cells"), i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));
		char path[4096];
		json_t *j;

		if (!id)
			continue;
		snprintf(path, sizeof(path), "%s/%s/cell.json", out_dir, id);
		if (!file_exists(path))
			continue;
		j = json_load_file(path, 0, NULL);
		if (j)
			json_array_append_new(cells, j);
	}
	return cells;
}

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "?";
}

#define ROW_B "%14s %14s %10s %10s  %s\n"

/*
 * The axes' columns (axes.h): a fixed width, or (0) only when some cell is
 * not at the axis's default, as wide as its longest value or its name. The
 * accelerator follows vCPUs.
 */
static void column_widths(json_t *cells, int w[AX_NR])
{
	size_t i;
	json_t *c;

	for (int a = 0; a < AX_NR; a++) {
		w[a] = axes[a].column;
		if (w[a])
			continue;
		json_array_foreach(cells, i, c) {
			char *v = axis_from_json(a, c);
			int l = v ? (int)strlen(v) : 0;

			if (!axis_is_default(a, v) && l > w[a])
				w[a] = l;
			free(v);
		}
		if (w[a] && w[a] < (int)strlen(axes[a].name))
			w[a] = (int)strlen(axes[a].name);
	}
}

/* An axis's text in a cell: its value, else the default, else "?". */
static char *axis_text(json_t *c, int a)
{
	char *v = axis_from_json(a, c);

	return v ? v : strdup(axes[a].dflt ? axes[a].dflt : "?");
}

/* head: the header's texts (names), else the cell's values. */
static void print_axes(FILE *f, json_t *c, const int w[AX_NR], const char *const *head,
		       const char *accel)
{
	for (int a = 0; a < AX_NR; a++) {
		char *v;

		if (w[a] <= 0)
			continue;
		v = head ? NULL : axis_text(c, a);
		fprintf(f, "%-*s ", w[a], head ? head[a] : v ? v : "?");
		free(v);
		if (a == AX_VCPUS)
			fprintf(f, "%-5s ", accel);
	}
}

static void print_cell(FILE *f, json_t *c, const int w[AX_NR])
{
	json_t *pop = json_object_get(c, "pop_ns");
	char ops[32], per[32], p50[32], p99[32], verdict[300];
	const char *sig = str(c, "signature");

	num_text(ops, sizeof(ops), num(c, "ops_per_sec"), 0);
	num_text(per, sizeof(per), num(c, "ops_per_sec_per_cpu"), 0);
	num_text(p50, sizeof(p50), num(pop, "p50"), 0);
	num_text(p99, sizeof(p99), num(pop, "p99"), 0);
	snprintf(verdict, sizeof(verdict), "%s%s%s", str(c, "verdict"),
		 *sig && strcmp(sig, "?") ? ": " : "", strcmp(sig, "?") ? sig : "");
	print_axes(f, c, w, NULL, str(c, "accel"));
	fprintf(f, ROW_B, ops, per, p50, p99, verdict);
}

/* Same values of every axis (a value neither has is equal). */
static bool same_config(json_t *a, json_t *b)
{
	bool same = true;

	for (int x = 0; x < AX_NR && same; x++) {
		char *va = axis_text(a, x), *vb = axis_text(b, x);

		same = va && vb && !strcmp(va, vb);
		free(va);
		free(vb);
	}
	return same;
}

/* mean ± sample stddev of ops/s over PASS cells of one configuration. */
static void print_spread(FILE *f, json_t *cells, size_t first, bool *done, const int w[AX_NR])
{
	json_t *c0 = json_array_get(cells, first), *c;
	double sum = 0, sq = 0, v;
	int n = 0, npass = 0, total = 0;
	size_t i;
	char ops[64], verdict[32];

	json_array_foreach(cells, i, c) {
		if (i < first || !same_config(c0, c))
			continue;
		done[i] = true;
		total++;
		if (strcmp(str(c, "verdict"), "PASS"))
			continue;
		npass++;
		v = num(c, "ops_per_sec");
		if (isnan(v))
			continue;
		sum += v;
		sq += v * v;
		n++;
	}
	if (total < 2)
		return;
	if (n >= 2) {
		double mean = sum / n, sd = sqrt(fmax(0, (sq - n * mean * mean) / (n - 1)));

		snprintf(ops, sizeof(ops), "%.0f±%.0f", mean, sd);
	} else {
		snprintf(ops, sizeof(ops), "-");
	}
	snprintf(verdict, sizeof(verdict), "%d/%d PASS", npass, total);
	print_axes(f, c0, w, NULL, str(c0, "accel"));
	fprintf(f, ROW_B, ops, "", "", "", verdict);
}

/*
 * Coverage cells (cell.json "coverage"): one line each, lines%/branches% of
 * every file of the coverage list (rundir/coverage.h), or the error.
 */
static void print_coverage(FILE *f, json_t *cells)
{
	size_t i, hdr = 0;
	json_t *c;
	char l[32], b[32];

	json_array_foreach(cells, i, c) {
		json_t *cov = json_object_get(c, "coverage");
		const char *err = json_string_value(json_object_get(cov, "error"));

		if (!cov)
			continue;
		if (!hdr++)
			fprintf(f, "\ncoverage (workload snapshot: lines%%/branches%% hit):\n");
		fprintf(f, "  %s", str(c, "cell"));
		if (err)
			fprintf(f, "  error: %s", err);
		for (size_t m = 0; !err && m < cov_nmetrics; m++) {
			const struct cov_metric *x = &cov_metrics[m];

			if (x->kind != COV_LINES)
				continue;
			num_text(l, sizeof(l), num(cov, x->name), 1);
			snprintf(b, sizeof(b), "-");
			for (size_t k = 0; k < cov_nmetrics; k++)
				if (cov_metrics[k].kind == COV_BRANCHES && !strcmp(cov_metrics[k].file, x->file))
					num_text(b, sizeof(b), num(cov, cov_metrics[k].name), 1);
			fprintf(f, "  %s %s/%s", x->file, l, b);
		}
		fputc('\n', f);
	}
}

/*
 * Cells that sampled their map's cgroup (cell.json "memory", the memcg job):
 * one line each, memory.current mean ± stddev over the run and memory.peak.
 */
static void print_memory(FILE *f, json_t *cells)
{
	size_t i, hdr = 0;
	json_t *c;
	char avg[32], sd[32], peak[32];

	json_array_foreach(cells, i, c) {
		json_t *m = json_object_get(c, "memory");

		if (!m)
			continue;
		if (!hdr++)
			fprintf(f, "\nmap memory (its cgroup: memory.current mean ± stddev over the run, memory.peak):\n");
		num_text(avg, sizeof(avg), num(m, "avg_mib"), 2);
		num_text(sd, sizeof(sd), num(m, "sd_mib"), 2);
		num_text(peak, sizeof(peak), num(m, "peak_mib"), 2);
		fprintf(f, "  %s  avg %s ± %s MiB, peak %s MiB (%d samples)\n", str(c, "cell"), avg, sd,
			peak, (int)json_integer_value(json_object_get(m, "samples")));
	}
}

void summary_print(FILE *f, json_t *cells)
{
	size_t i, n = json_array_size(cells);
	bool tcg = false, repeats = false, *done = calloc(n ? n : 1, sizeof(bool));
	json_t *c;
	int w[AX_NR];
	const char *names[AX_NR], *blank[AX_NR];

	column_widths(cells, w);
	for (int a = 0; a < AX_NR; a++) {
		names[a] = a == AX_VCPUS ? "vCPUs" : axes[a].name;
		blank[a] = "";
	}
	print_axes(f, NULL, w, names, "accel");
	fprintf(f, ROW_B, "ops/s total", "ops/s per CPU", "pop p50", "pop p99", "verdict");
	print_axes(f, NULL, w, blank, "");
	fprintf(f, ROW_B, "ops/s", "ops/s/CPU", "ns", "ns", "");
	json_array_foreach(cells, i, c) {
		print_cell(f, c, w);
		tcg |= !strcmp(str(c, "accel"), "tcg");
		repeats |= json_integer_value(json_object_get(c, "repeat")) > 0;
	}
	if (repeats && done) {
		fprintf(f, "\nover repeats (mean ± stddev of PASS cells):\n");
		json_array_foreach(cells, i, c)
			if (!done[i])
				print_spread(f, cells, i, done, w);
	}
	print_coverage(f, cells);
	print_memory(f, cells);
	if (tcg)
		fprintf(f, "(tcg: emulated, not hardware figures)\n");
	free(done);
}

int summary_exit_code(json_t *cells)
{
	size_t i;
	json_t *c;

	json_array_foreach(cells, i, c) {
		const char *v = str(c, "verdict");

		if (strcmp(v, "PASS") && strcmp(v, "SKIP"))
			return 1;
	}
	return 0;
}
