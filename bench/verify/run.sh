#!/bin/bash
# bench/verify — what do the stamp checks cost? verify=1 looks a key up
# before each replace/delete of a key with one writer and compares the
# stamp of every lookup hit; verify=0 skips those (stamping and the
# end-of-run checks stay). One guest, REPEATS interleaved rounds of each
# workload under both; prints per-CPU ops/s (mean ± sd over rounds) and the
# ratio verify=1 / verify=0 with its 95 % bootstrap CI (`htab-torture
# stats`, as compare computes it). time_ops=0: no timing cost.
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
# the numbers: htab-torture stats per workload, verify=1 against verify=0
# (compare's ratio of means, Welch p, bootstrap CI)
wls_run=$(jq -rs 'map(.w) | unique[]' "$out/samples.ndjson")
for w in $wls_run; do
	jq -c --arg w "$w" 'select(.w == $w) | {group: "verify=\(.v)", rep, value: .evs}' "$out/samples.ndjson" |
		"$HT_BIN" stats --json --base verify=0 > "$out/stats_$w.json" || exit 1
done
{
	echo "workload              verify=0 ops/s per CPU   verify=1 ops/s per CPU   ratio 1/0 (95% bootstrap CI)"
	echo "units                 map ops/s per kthread    map ops/s per kthread    ratio"
	for w in $wls_run; do
		jq -r --arg w "$w" 'def f: if . == null then "-" else . * 1000 | round / 1000 end;
			def col(n): tostring | . + " " * (n - length);
			def ms: "\(.mean | round) ± \(.sd | round)";
			(.groups | map({key: .group, value: .}) | from_entries) as $G | $G["verify=1"] as $q
			| "\($w | col(22))\($G["verify=0"] | ms | col(25))\($q | ms | col(25))\($q.ratio | f) (\($q.ratio_ci[0] | f) .. \($q.ratio_ci[1] | f))"' \
			"$out/stats_$w.json"
	done
} | tee -a "$out/summary.txt"
