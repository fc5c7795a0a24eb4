#!/bin/bash
# bench/batch — seed 003: time of one full bpf_map_lookup_batch() dump of a
# 50K-entry preallocated hash map holding N entries, N = 1 … 39000, printed as
# the seed's BM_DumpHashMap/N table (bench/libbpf/batch_dump, in one guest).
# Time = mean wall ns per dump, CPU = mean process CPU ns, Time sd = stddev.
# Usage: bench/batch/run.sh [VCPUS=2] [OUT] [batch_dump args... (default -r 50)]
. "$(dirname "$0")/../lib/guest.sh"
vcpus=${1:-2} out=${2:-$BENCH_ROOT/bench/out/batch}
shift 2 2>/dev/null
args=${*:--r 50}
cell=$out/cell
[ -n "${BENCH_REUSE:-}" ] || boot_guest "$vcpus" "$cell" "$BENCH_ROOT/bench/batch/job.sh" 600 \
	BATCH_ARGS="$args" LIBBPF_DIR="$BENCH_ROOT/bench/libbpf"
rc=$?
[ $rc -eq 0 ] || { echo "bench/batch: guest exit $rc; see $cell/console.log $cell/batch_dump.err" >&2; exit 1; }
echo "# bench/batch: $(date -u -r "$cell/exit_status" +%FT%TZ), host $(nproc) cores, accel $(guest_accel), $vcpus vCPUs, QEMU -cpu max, $(host_load "$cell")" | tee "$out/summary.txt"
tee -a "$out/summary.txt" < "$cell/batch_dump.out"
