/* The `report` subcommand: load a run directory, write every output file. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "report/report_env.h"
#include "report/report_out.h"

static void usage(FILE *f)
{
	fputs("usage: htab-torture report RUN_DIR\n"
	      "  Writes into RUN_DIR: summary.csv, summary.json (extended), report.txt,\n"
	      "  report.html and plots/ (gnuplot .dat/.gp/.png), report.junit.xml (JUnit\n"
	      "  XML for CI test views), report.ktap (KTAP version 1, as kselftest reads);\n"
	      "  with coverage cells also coverage/<workload>/ (genhtml's annotated source,\n"
	      "  merged per workload).\n", f);
}

int report_run_dir(const char *dir, bool quiet)
{
	struct rep_run r;
	struct rep_plots p = { 0 };
	struct rep_problems pb = { 0 };
	struct rep_coverage cov = { 0 };
	json_t *env = NULL;
	char path[4200];
	int ret = 1;

	if (rep_run_load(&r, dir)) {
		ret = 2;
		goto cleanup;
	}
	env = rep_env_build(&r);
	if (rep_plots_make(&r, &p) || rep_problems_build(&r, &pb) || rep_coverage_build(&r, &cov))
		goto cleanup;
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if (rep_write_csv(&r, path))
		goto cleanup;
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (rep_write_json(&r, env, &cov, path))
		goto cleanup;
	snprintf(path, sizeof(path), "%s/report.txt", dir);
	if (rep_write_txt(&r, env, &pb, &cov, path))
		goto cleanup;
	snprintf(path, sizeof(path), "%s/report.html", dir);
	if (rep_write_html(&r, env, &p, &pb, &cov, path))
		goto cleanup;
	snprintf(path, sizeof(path), "%s/report.junit.xml", dir);
	if (rep_write_junit(&r, env, path))
		goto cleanup;
	snprintf(path, sizeof(path), "%s/report.ktap", dir);
	if (rep_write_ktap(&r, path))
		goto cleanup;
	if (!quiet) {
		size_t ok = 0;

		for (size_t i = 0; i < p.n; i++)
			ok += p.v[i].ok;
		printf("report: %zu cells, %zu/%zu plots -> %s/report.html\n", r.n, ok, p.n, dir);
		for (size_t i = 0; i < p.n; i++)
			if (!p.v[i].ok && strncmp(p.v[i].why, "no data", 7))
				fprintf(stderr, "error: plot %s: %s\n", p.v[i].name, p.v[i].why);
		for (size_t i = 0; i < cov.errors.n; i++)
			fprintf(stderr, "error: coverage: %s\n", cov.errors.v[i]);
		for (size_t i = 0; i < cov.n; i++)
			if (!cov.v[i].html)
				fprintf(stderr, "error: coverage of %s: %s\n", cov.v[i].workload,
					cov.v[i].why);
	}
	ret = 0;
cleanup:
	rep_plots_free(&p);
	rep_problems_free(&pb);
	rep_coverage_free(&cov);
	json_decref(env);
	rep_run_free(&r);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		if (argc > 1 && argv[1][0] == '-')
			fprintf(stderr, "error: unknown option %s\n", argv[1]);
		usage(stderr);
		return 2;
	}
	return report_run_dir(argv[1], false);
}
