#!/bin/bash
# bench/driver, bench/observer, bench/verify and bench/attach re-summarising fabricated guest
# runs (BENCH_REUSE=1, no VM): their tables keep their layout and take their
# means, ratios and bootstrap CIs from `htab-torture stats` (bench/timing has
# its own test, test_bench_timing).
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir bench_reuse)

cell_files() {	# CELL: what every bench reads beside the module results
	echo 0 > "$1/exit_status"
	printf 'before 1.00 1 1 1/1 1\nafter  2.00 1 1 1/1 1\n' > "$1/host_load.txt"
	: > "$1/dmesg.txt"
}
has() {	# what output want
	[[ $2 == *"$3"* ]] || fail "$1 lacks '$3': $2"
	echo "ok: $1 has '$3'"
}

# driver: per round and CPU, module 0.7 (time_ops=0) and 0.5 (time_ops=1) of the
# driver; the module before (BEFORE_REV) 0.35 of it: mod0 / before = 2
c=$d/driver/cell; mkdir -p "$c"
for r in 1 2 3; do
	for cpu in 0 1; do echo $((100000 * (r + cpu + 1))); done > "$d/drv"
	for p in mod0:0.7 mod1:0.5 before:0.35; do
		jq -s --argjson k "${p#*:}" '{kernel_release: "k", per_cpu: to_entries | map({cpu: .key, ops_per_sec: (.value * $k)})}' "$d/drv" > "$c/r${r}_${p%%:*}.json"
	done
	jq -r 'to_entries[] | "\(.key):hash_map_full_perf \(.value) events per sec"' <(jq -s . "$d/drv") > "$c/r${r}_drv.out"
done
cell_files "$c"
out=$(BENCH_REUSE=1 "$ROOT/bench/driver/run.sh" 2 3 3 "$d/driver") || fail "bench/driver exited $?"
has driver "$out" "full_update_driver (bpf_loop)                   350000 ± 100000"
has driver "$out" "0     210000 ± 70000        150000 ± 50000        105000 ± 35000        300000 ± 100000"
has driver "$out" "1     280000 ± 70000        200000 ± 50000        140000 ± 35000        400000 ± 100000"
has driver "$out" "ratio module time_ops=0 / full_update_driver (bpf_loop): 0.7 (95% bootstrap CI "
has driver "$out" "paired per round 0.7 ± 0"
has driver "$out" "ratio module time_ops=1 (default sampling) / full_update_driver (bpf_loop): 0.5 (95% bootstrap CI "
has driver "$out" "ratio module time_ops=0 / module time_ops=0 at 8c28c5e^: 2 (95% bootstrap CI "

# observer: plain 600000 + 1000 r, kprobe 80000 + 1000 r, fentry 100000 + 1000 r;
# one pop per op; round 4's fentry run lost its @calls, so round 4 is dropped
c=$d/observer/cell; mkdir -p "$c"
for r in 1 2 3 4; do
	for m in plain kprobe fentry; do
		case $m in plain) e=600000 ;; kprobe) e=80000 ;; fentry) e=100000 ;; esac
		e=$((e + r * 1000)) ops=$(((e + r * 1000) * 4))
		jq -n --argjson e "$e" --argjson ops "$ops" \
			'{kernel_release: "k", totals: {ops: $ops}, per_cpu: [{ops_per_sec: $e}, {ops_per_sec: $e}]}' > "$c/r${r}_$m.json"
		[ "$m" = plain ] || [ "$r$m" = 4fentry ] ||
			echo "{\"type\": \"map\", \"data\": {\"@calls\": $((ops + 20001))}}" > "$c/r${r}_$m.ndjson"
	done
done
cell_files "$c"
out=$(BENCH_REUSE=1 "$ROOT/bench/observer/run.sh" 2 4 2 "$d/observer") || fail "bench/observer exited $?"
has observer "$out" "rounds   3 of 4"
has observer "$out" "plain    602000 ± 1000               1"
has observer "$out" "traced/plain (95% bootstrap CI)"
kp=$(grep '^kprobe ' <<< "$out" | tr -s ' ')
[[ $kp == "kprobe 82000 ± 1000 0.136 ("*") 1 "* ]] || fail "kprobe line: $kp"
echo "ok: kprobe line $kp"
has observer "$out" "fentry/kprobe throughput: 1.244 (95% bootstrap CI "
has observer "$out" "over 3 rounds"

# verify: verify=1 is 0.95 of verify=0 each round
c=$d/verify/cell; mkdir -p "$c"
for r in 1 2 3; do
	for w in full_update lookup; do
		for v in 0 1; do
			jq -n --arg w "$w" --argjson v "$v" --argjson r "$r" '{kernel_release: "k",
				params: {workload: $w, verify: $v}, per_cpu: [{ops_per_sec: ((100000 + $r * 1000) * (1 - $v * 0.05))}]}' \
				> "$c/r${r}_${w}_v$v.json"
		done
	done
done
cell_files "$c"
out=$(WORKLOADS="full_update lookup" BENCH_REUSE=1 "$ROOT/bench/verify/run.sh" 1 3 3 "$d/verify") ||
	fail "bench/verify exited $?"
has verify "$out" "ratio 1/0 (95% bootstrap CI)"
for w in full_update lookup; do
	line=$(grep "^$w " <<< "$out" | tr -s ' ')
	[[ $line == "$w 102000 ± 1000 96900 ± 950 0.95 (0.9"*" .. 0.9"*")" ]] || fail "verify line: $line"
	echo "ok: verify line $line"
done

# attach: per engine, the first runs cold and after a preread, the second
# runs, the preread; a warm-up (round 0) counts in none of them
a=$d/attach; mkdir -p "$a/warmup-v16"
echo '{"kernel_release": "k"}' > "$a/warmup-v16/cell.json"
echo "2026-12-05T00:00:00Z 1.00 1.00 1.00" > "$a/started.txt"
echo "2.00 1.00 1.00" > "$a/load_after.txt"
{
	echo '{"run": 1, "live_s": 99, "vcpus": 16, "engine": "bpftrace", "mode": "cold", "round": 0}'
	for r in 1 2 3; do
		for m in cold preread; do
			[ $m = preread ] && echo '{"preread_s": 2.'$((r + 1))', "preread_kib": 204288, "vcpus": 16, "engine": "bpftrace", "mode": "preread", "round": '$r'}'
			v=$((r + 4)); [ $m = preread ] && v=$(( r == 3 ? 5 : 4 ))
			echo '{"run": 1, "live_s": '$v', "vcpus": 16, "engine": "bpftrace", "mode": "'$m'", "round": '$r'}'
			echo '{"run": 2, "live_s": 3, "vcpus": 16, "engine": "bpftrace", "mode": "'$m'", "round": '$r'}'
		done
	done
} > "$a/samples.ndjson"
out=$(BENCH_REUSE=1 "$ROOT/bench/attach/run.sh" 16 3 "$a") || fail "bench/attach exited $?"
has attach "$out" "load 1.00 1.00 1.00 -> 2.00 1.00 1.00"
has attach "$out" "| 16 | bpftrace | 6 (5-7) | 4 (4-5) | 3 (3-3) | 2.3 (2.2-2.4) (204288) | 0.72 ["
has attach "$out" "| 16 | aot | - | - | - | - (-) | - |"
