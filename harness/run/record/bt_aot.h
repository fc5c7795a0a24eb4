/* After a cell: the bpftrace programs its guest compiled go into the cache. */
#ifndef HTAB_RUN_RECORD_BT_AOT_H
#define HTAB_RUN_RECORD_BT_AOT_H

#include "run/plan/ctx.h"

/*
 * Copies CELL_DIR/bpftrace/aot/KEY (a program) and KEY.fail (why one could
 * not be compiled or did not run) into the cache (run/plan/bt_aot.h), where
 * later cells of the same kernel find them. The cell keeps its copies.
 */
void bt_aot_publish(const struct run_ctx *c, const char *cell_dir);

#endif
