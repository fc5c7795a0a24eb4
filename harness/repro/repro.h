/*
 * `htab-torture repro CELL_DIR`: a bash script that boots that one cell
 * again, as it was recorded, up to N times and says whether its verdict
 * and signature came back (harness/FORMAT.md, "repro").
 */
#ifndef HT_REPRO_H
#define HT_REPRO_H
/* 0 script written, 2 usage error or a cell directory it cannot read. */
int cmd_repro(int argc, char **argv);
#endif
