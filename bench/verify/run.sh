#!/bin/bash
# bench/verify — what do the stamp checks cost? verify=1 looks a key up
# before each replace/delete of a key with one writer and compares the
# stamp of every lookup hit; verify=0 skips those (stamping and the
# end-of-run checks stay). One guest, REPEATS interleaved rounds of each
# workload under both; prints per-CPU ops/s (mean ± sd over rounds) and the
# ratio verify=1 / verify=0 with its 95 % CI. time_ops=0: no timing cost.
# Usage: bench/verify/run.sh [VCPUS=4] [REPEATS=5] [DURATION_S=3] [OUT]
# WORKLOADS="full_update overwrite batch_add_batch_del lookup churn" by default.
. "$(dirname "$0")/../lib/guest.sh"
vcpus=${1:-4} reps=${2:-5} dur=${3:-3} out=${4:-$BENCH_ROOT/bench/out/verify}
wls=${WORKLOADS:-full_update overwrite batch_add_batch_del lookup churn}
cell=$out/cell
n=$(wc -w <<< "$wls")
[ -n "${BENCH_REUSE:-}" ] || boot_guest "$vcpus" "$cell" "$BENCH_ROOT/bench/verify/job.sh" \
	$((120 + reps * n * 2 * (dur + 3) * 2)) REPEATS="$reps" DURATION="$dur" WORKLOADS="$wls"
rc=$?
[ $rc -eq 0 ] || { echo "bench/verify: guest exit $rc; see $cell/console.log $cell/guest.log" >&2; exit 1; }
first=$(ls "$cell"/r1_*_v0.json | head -n 1)
echo "# bench/verify: $(date -u -r "$cell/exit_status" +%FT%TZ), host $(nproc) cores, accel $(guest_accel), $vcpus vCPUs, kernel $(jq -r .kernel_release "$first"), $(host_load "$cell")" | tee "$out/summary.txt"
echo "# map hash prealloc max_entries 4096 value 16 B, time_ops=0; $reps interleaved rounds of $dur s each" | tee -a "$out/summary.txt"
for f in "$cell"/r*_v*.json; do
	b=$(basename "$f" .json); r=${b%%_*}
	jq -c --argjson r "${r#r}" '{w: .params.workload, v: .params.verify, rep: $r,
		evs: ((.per_cpu | map(.ops_per_sec) | add) / (.per_cpu | length))}' "$f"
done > "$out/samples.ndjson"
jq -rs -L "$BENCH_ROOT/bench/lib" 'include "stats";
	def ev(w; v): map(select(.w == w and .v == v)) | sort_by(.rep) | map(.evs);
	"workload              verify=0 ops/s per CPU   verify=1 ops/s per CPU   ratio 1/0 (95% CI, delta method)",
	"units                 map ops/s per kthread    map ops/s per kthread    ratio",
	(. as $rows | map(.w) | unique[] as $w | $rows | ev($w; 0) as $a | ev($w; 1) as $b
	 | ratio_ci($b; $a) as $q
	 | "\($w | col(22))\("\($a | mean | r0) ± \($a | sd | r0)" | col(25))\("\($b | mean | r0) ± \($b | sd | r0)" | col(25))\($q.ratio | f(3)) (\($q.lo | f(3)) .. \($q.hi | f(3)))")
	' "$out/samples.ndjson" | tee -a "$out/summary.txt"
