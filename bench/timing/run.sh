#!/bin/bash
# bench/timing — what does the module's per-op timing cost? time_ops=1 reads
# ktime twice around a timed map op and adds it to a log2 histogram;
# time_sample=N times one op in N. One guest, REPEATS interleaved rounds of
# the same workload under each setting; prints per-CPU ops/s (mean ± sd over
# rounds) and each setting's ratio to time_ops=0 with its bootstrap CI and
# the paired per-round ratio (`htab-torture stats`; goal >= 0.95), and the
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
# samples: {group: setting, rep: round, value: mean over CPUs of per-CPU ops/s}
for f in "$cell"/r*_t*s*.json; do
	b=$(basename "$f" .json); r=${b%%_*}
	jq -c --argjson r "${r#r}" '{group: "time_ops=\(.params.time_ops) time_sample=\(.params.time_sample)",
		rep: $r, value: ((.per_cpu | map(.ops_per_sec) | add) / (.per_cpu | length))}' "$f"
done > "$out/samples.ndjson"
# the numbers: htab-torture stats, compare's ratio of means and bootstrap CI
"$HT_BIN" stats --json --base "time_ops=0 time_sample=1" "$out/samples.ndjson" > "$out/stats.json" || exit 1
jq -r 'def f: if . == null then "-" else . * 1000 | round / 1000 end;
	def col(n): tostring | . + " " * (n - length);
	"setting                    ops/s per CPU (mean ± sd)   ratio to time_ops=0 (\(.ci_level * 100 | round)% bootstrap CI)       paired per round   goal >= 0.95",
	"units                      map ops/s per kthread       ratio                                        ratio",
	(.groups | sort_by((.base | not), .group)[]
	 | "\(.group | col(27))\("\(.mean | round) ± \(.sd | round)" | col(28))"
	 + if .base then "1" else
	   "\("\(.ratio | f) (\(.ratio_ci[0] | f) .. \(.ratio_ci[1] | f))" | col(45))\("\(.paired.mean | f) ± \(.paired.sd | f)" | col(19))\(if .ratio >= 0.95 then "met" else "NOT met" end)" end)
	' "$out/stats.json" | tee -a "$out/summary.txt"
