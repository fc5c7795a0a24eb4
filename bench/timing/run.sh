#!/bin/bash
# bench/timing — what does the module's per-op timing cost? time_ops=1 reads
# ktime twice around a timed map op and adds it to a log2 histogram;
# time_sample=N times one op in N. One guest, REPEATS interleaved rounds of
# the same workload under each setting; prints per-CPU ops/s (mean ± sd over
# rounds) and each setting's ratio to time_ops=0 (goal >= 0.95), and the
# guest's clocksource, which sets the price of a ktime read.
# Usage: bench/timing/run.sh [VCPUS=4] [REPEATS=5] [DURATION_S=3] [WORKLOAD=full_update] [OUT]
# SETTINGS="0/1 1/1 1/16 1/64" (time_ops/time_sample) by default.
# GUEST_APPEND="clocksource=hpet" tries another clocksource.
# BENCH_REUSE=1 re-summarises OUT's last guest run without booting.
. "$(dirname "$0")/../lib/guest.sh"
vcpus=${1:-4} reps=${2:-5} dur=${3:-3} wl=${4:-full_update} out=${5:-$BENCH_ROOT/bench/out/timing}
settings=${SETTINGS:-0/1 1/1 1/16 1/64}
entries=10000
cell=$out/cell
[ -n "${BENCH_REUSE:-}" ] || boot_guest "$vcpus" "$cell" "$BENCH_ROOT/bench/timing/job.sh" \
	$((120 + reps * (dur + 2) * 4 * 8)) REPEATS="$reps" DURATION="$dur" ENTRIES="$entries" \
	WORKLOAD="$wl" SETTINGS="$settings"
rc=$?
[ $rc -eq 0 ] || { echo "bench/timing: guest exit $rc; see $cell/console.log $cell/guest.log" >&2; exit 1; }
cs=$(sed -n 's/.*clocksource: Switched to clocksource \([a-z_-]*\).*/\1/p' "$cell/dmesg.txt" | tail -n 1)
echo "# bench/timing: $(date -u -r "$cell/exit_status" +%FT%TZ), host $(nproc) cores, accel $(guest_accel), $vcpus vCPUs, kernel $(jq -r .kernel_release "$cell/r1_t0s1.json"), clocksource ${cs:-?}${GUEST_APPEND:+, guest cmdline +\"$GUEST_APPEND\"}, $(host_load "$cell")" | tee "$out/summary.txt"
echo "# workload $wl, map hash prealloc max_entries $entries value 16 B; $reps interleaved rounds of $dur s each" | tee -a "$out/summary.txt"
for f in "$cell"/r*_t*s*.json; do
	b=$(basename "$f" .json); r=${b%%_*}
	jq -c --argjson r "${r#r}" '{s: "time_ops=\(.params.time_ops) time_sample=\(.params.time_sample)",
		rep: $r, evs: ((.per_cpu | map(.ops_per_sec) | add) / (.per_cpu | length))}' "$f"
done > "$out/samples.ndjson"
jq -rs -L "$BENCH_ROOT/bench/lib" 'include "stats";
	def ev(s): map(select(.s == s)) | sort_by(.rep) | map(.evs);
	ev("time_ops=0 time_sample=1") as $a
	| "setting                    ops/s per CPU (mean ± sd)   ratio to time_ops=0 (95% CI, delta method)   paired per round   goal >= 0.95",
	  "units                      map ops/s per kthread       ratio                                        ratio",
	  (. as $rows | map(.s) | unique | sort_by(. != "time_ops=0 time_sample=1")[] as $s | $rows | ev($s) as $b
	   | ratio_ci($b; $a) as $q | paired($b; $a) as $p
	   | "\($s | col(27))\("\($b | mean | r0) ± \($b | sd | r0)" | col(28))"
	   + if $s == "time_ops=0 time_sample=1" then "1" else
	     "\("\($q.ratio | f(3)) (\($q.lo | f(3)) .. \($q.hi | f(3)))" | col(45))\("\($p.mean | f(3)) ± \($p.sd | f(3))" | col(19))\(if $q.ratio >= 0.95 then "met" else "NOT met" end)" end)
	' "$out/samples.ndjson" | tee -a "$out/summary.txt"
