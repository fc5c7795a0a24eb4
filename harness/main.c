/*
 * htab-torture: the host side of the kit. Boots test VMs that stress the BPF
 * hash map's element allocator and records one verdict per matrix cell.
 * Subcommands: run (report, compare and merge read what run writes); stats
 * summarises any samples the way compare does (the bench scripts use it);
 * scan classifies any console file the way run classifies a cell's; repro
 * writes a script that boots one cell again; bisect finds the first bad
 * step of a patch series, running run rounds per step.
 */
#include <stdio.h>
#include <string.h>

#include "bisect/bisect.h"
#include "compare/compare.h"
#include "run/merge.h"
#include "report/report.h"
#include "repro/repro.h"
#include "run/run.h"
#include "scan/scan.h"
#include "stats/stats_cli.h"

static void usage(FILE *f)
{
	fputs("usage: htab-torture COMMAND [OPTIONS]\n"
	      "commands:\n"
	      "  run      boot the matrix of cells and write OUT/<cell>/cell.json, OUT/summary.json\n"
	      "  report   RUN_DIR: summary.csv/.json, report.txt, report.html + plots/\n"
	      "  merge    OUT DIR...: join the shards of one plan (run --shard I/N) into one run\n"
	      "  compare  RUN_A RUN_B, or RUN across its kernels: %change with Welch p and ratio CI\n"
	      "  stats    NDJSON samples by group: mean ± sd, ratio to a base with Welch p and CI\n"
	      "  scan     FILE...: each console's first kernel report as run titles it, or clean\n"
	      "  repro    CELL_DIR: a script that boots that cell again and says if it reproduced\n"
	      "  bisect   --series DIR | --kernel-tree DIR --range G..B: the first bad patch or\n"
	      "           commit, repeating flaky steps\n"
	      "run 'htab-torture COMMAND --help' for its options\n", f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "merge"))
		return cmd_merge(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "stats"))
		return cmd_stats(argc - 1, argv + 1);
	if (!strcmp(argv[1], "scan"))
		return cmd_scan(argc - 1, argv + 1);
	if (!strcmp(argv[1], "repro"))
		return cmd_repro(argc - 1, argv + 1);
	if (!strcmp(argv[1], "bisect"))
		return cmd_bisect(argc - 1, argv + 1);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "error: unknown command '%s': must be one of run, report, merge, compare, stats, scan, repro, bisect\n", argv[1]);
	return 2;
}
