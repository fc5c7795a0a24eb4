#!/bin/bash
# bench/timing — what does the module's per-op timing (time_ops=1: two
# ktime_get_ns() per map op into a log2 histogram) cost? One guest, REPEATS
# interleaved rounds of the same workload with time_ops=1 and time_ops=0;
# prints per-CPU ops/s of each (mean ± sd over rounds) and the ratio
# time_ops=1 / time_ops=0 (goal >= 0.95), plus the guest's clocksource,
# which sets the price of ktime_get_ns().
# Usage: bench/timing/run.sh [VCPUS=4] [REPEATS=5] [DURATION_S=3] [WORKLOAD=full_update] [OUT]
# GUEST_APPEND="clocksource=tsc tsc=reliable" tries another clocksource.
# BENCH_REUSE=1 re-summarises OUT's last guest run without booting.
. "$(dirname "$0")/../lib/guest.sh"
vcpus=${1:-4} reps=${2:-5} dur=${3:-3} wl=${4:-full_update} out=${5:-$BENCH_ROOT/bench/out/timing}
entries=10000
cell=$out/cell
[ -n "${BENCH_REUSE:-}" ] || boot_guest "$vcpus" "$cell" "$BENCH_ROOT/bench/timing/job.sh" \
	$((120 + reps * dur * 2 * 8)) REPEATS="$reps" DURATION="$dur" ENTRIES="$entries" WORKLOAD="$wl"
rc=$?
[ $rc -eq 0 ] || { echo "bench/timing: guest exit $rc; see $cell/console.log $cell/guest.log" >&2; exit 1; }
cs=$(sed -n 's/.*clocksource: Switched to clocksource \([a-z_-]*\).*/\1/p' "$cell/dmesg.txt" | tail -n 1)
echo "# bench/timing: $(date -u +%FT%TZ), host $(nproc) cores, accel $(guest_accel), $vcpus vCPUs, kernel $(jq -r .kernel_release "$cell/r1_t0.json"), clocksource ${cs:-?}${GUEST_APPEND:+, guest cmdline +\"$GUEST_APPEND\"}, $(host_load "$cell")"
echo "# workload $wl, map hash prealloc max_entries $entries value 8 B; $reps interleaved rounds of $dur s each"
for f in "$cell"/r*_t?.json; do
	b=$(basename "$f" .json); r=${b%%_*}
	jq -c --argjson r "${r#r}" '{t: .params.time_ops, rep: $r, evs: ((.per_cpu | map(.ops_per_sec) | add) / (.per_cpu | length))}' "$f"
done > "$out/samples.ndjson"
jq -rs -L "$BENCH_ROOT/bench/lib" 'include "stats";
	(map(select(.t == 0)) | sort_by(.rep) | map(.evs)) as $a
	| (map(select(.t == 1)) | sort_by(.rep) | map(.evs)) as $b
	| ratio_ci($b; $a) as $q | paired($b; $a) as $p
	| "setting       ops/s per CPU (mean ± sd over rounds)",
	  "units         map ops/s per kthread",
	  "time_ops=0    \($a | mean | r0) ± \($a | sd | r0)",
	  "time_ops=1    \($b | mean | r0) ± \($b | sd | r0)",
	  "ratio time_ops=1 / time_ops=0: \($q.ratio | f(3)) (95% CI \($q.lo | f(3)) .. \($q.hi | f(3)), delta method); paired per round \($p.mean | f(3)) ± \($p.sd | f(3)); goal >= 0.95: \(if $q.ratio >= 0.95 then "met" else "NOT met" end)"
	' "$out/samples.ndjson" | tee "$out/summary.txt"
