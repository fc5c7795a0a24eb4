# Guest job for bench/batch (sourced by run-job.sh through JOB_SCRIPT):
# bench/libbpf/batch_dump with $BATCH_ARGS, output kept in the cell dir.
log "bench_batch: batch_dump $BATCH_ARGS"
"$LIBBPF_DIR/batch_dump" $BATCH_ARGS > "$cell/batch_dump.out" 2> "$cell/batch_dump.err"
rc=$?
sync
return $rc
