/* `htab-torture stats`: a summary of NDJSON samples by group against a base (stats.h). */
#ifndef HT_STATS_CLI_H
#define HT_STATS_CLI_H
int cmd_stats(int argc, char **argv);
#endif
