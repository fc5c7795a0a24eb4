# Guest job of make seed-003 (a --job-script, sourced by run-job.sh): one
# bench/libbpf/batch_dump run, the seed's BM_DumpHashMap/N table on a
# 50K-entry hash map, N = 1 … 39000, SEED003_DUMPS timed dumps per N (the
# mean is this boot's one sample per N; bench/seed-003.sh compares boots).
# No module: the cell's verdict is batch_dump's exit status (0 = every dump
# returned exactly N entries).
dir=$(dirname "$JOB_SCRIPT")/../libbpf
log "seed-003: batch_dump -r 20 on $(uname -r)"
"$dir/batch_dump" -r 20 > "$cell/batch_dump.out" 2> "$cell/batch_dump.err"
rc=$?
log "seed-003: batch_dump exit $rc"
sync
return $rc
