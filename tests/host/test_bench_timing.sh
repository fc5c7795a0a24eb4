#!/bin/bash
# bench/timing/run.sh re-summarising a fabricated guest run (BENCH_REUSE=1, no
# VM): module results r<round>_t<time_ops>s<time_sample>.json with per-CPU
# ops/s chosen here, so the printed means, ratios, bootstrap CIs (from
# `htab-torture stats`, as compare computes them), paired ratios and goal
# verdicts are known.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir bench_timing)
cell=$d/out/cell
mkdir -p "$cell"

module() {	# round time_ops time_sample ops/s-of-each-CPU...
	local r=$1 t=$2 s=$3; shift 3
	jq -n --argjson t "$t" --argjson s "$s" --args '{kernel_release: "6.1.0-test-amd64",
		params: {workload: "full_update", time_ops: $t, time_sample: $s},
		per_cpu: ($ARGS.positional | to_entries | map({cpu: .key, ops_per_sec: (.value | tonumber)}))}' \
		"$@" > "$cell/r${r}_t${t}s${s}.json"
}
# per round, the mean over the two CPUs: time_ops=0 100000, 104000, 96000;
# time_ops=1 time_sample=1 exactly 0.9 of it each round; time_sample=64
# 99000, 101000, 97000 (per-round ratios 0.99, 0.971, 1.010: 0.991 ± 0.020)
module 1 0 1 90000 110000;  module 1 1 1 80000 100000;  module 1 1 64 99000 99000
module 2 0 1 100000 108000; module 2 1 1 93600 93600;   module 2 1 64 100000 102000
module 3 0 1 96000 96000;   module 3 1 1 86400 86400;   module 3 1 64 97000 97000
echo 0 > "$cell/exit_status"
echo "[    0.5] clocksource: Switched to clocksource tsc" > "$cell/dmesg.txt"
printf 'before 1.00 1 1 1/1 1\nafter  2.00 1 1 1/1 1\n' > "$cell/host_load.txt"

out=$(BENCH_REUSE=1 "$ROOT/bench/timing/run.sh" 2 3 3 full_update "$d/out") ||
	fail "bench/timing/run.sh exited $?"
echo "$out" > "$d/summary.txt"
for want in "clocksource tsc" "host load avg 1.00 -> 2.00" "kernel 6.1.0-test-amd64" \
	"ratio to time_ops=0 (95% bootstrap CI)"; do
	[[ $out == *"$want"* ]] || fail "summary lacks '$want' (see $d/summary.txt)"
	echo "ok: summary has '$want'"
done
line() { grep "^$1 " <<< "$out"; }
expect_eq "base line" "$(line "time_ops=0 time_sample=1")" \
	"time_ops=0 time_sample=1   100000 ± 4000               1"
# the ratios of means and the paired ratios are exact; the CIs are the stats subcommand's
stats=$("$HT" stats --json --base "time_ops=0 time_sample=1" "$d/out/samples.ndjson") ||
	fail "htab-torture stats exited $?"
ci() { jq -r --arg g "$1" '.groups[] | select(.group == $g)
	| .ratio_ci | map(. * 1000 | round / 1000 | tostring) | join(" .. ")' <<< "$stats"; }
expect_eq "time_sample=1 line" "$(line "time_ops=1 time_sample=1" | tr -s ' ')" \
	"time_ops=1 time_sample=1 90000 ± 3600 0.9 ($(ci "time_ops=1 time_sample=1")) 0.9 ± 0 NOT met"
expect_eq "time_sample=64 line" "$(line "time_ops=1 time_sample=64" | tr -s ' ')" \
	"time_ops=1 time_sample=64 99000 ± 2000 0.99 ($(ci "time_ops=1 time_sample=64")) 0.991 ± 0.02 met"
# the CI holds the ratio; the samples are one per setting and round
ci "time_ops=1 time_sample=1" | awk '{ exit !($1 <= 0.9 && $3 >= 0.9) }' ||
	fail "CI $(ci "time_ops=1 time_sample=1") does not hold 0.9"
echo "ok: the CI holds the ratio 0.9"
expect_eq "samples" "$(wc -l < "$d/out/samples.ndjson")" 9
# one statistics implementation: no bench computes an interval in jq
left=$(grep -rl 'include "stats"\|ratio_ci(' "$ROOT/bench" --include='*.sh' --include='*.jq')
[ -z "$left" ] || fail "benches that still compute intervals in jq: $left"
echo "ok: every bench takes its intervals from htab-torture stats"
