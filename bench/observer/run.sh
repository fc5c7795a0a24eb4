#!/bin/bash
# bench/observer — what does watching __pcpu_freelist_pop with bpftrace cost
# the workload it watches? One guest, REPEATS interleaved rounds of
# htab_torture.ko full_update (time_ops=0) with no tracing, with the kit's
# kprobe+kretprobe script, and with the kfunc/kretfunc (fentry/fexit) form.
# Prints per-CPU ops/s (mean ± sd over rounds), traced/plain throughput
# ratios with their bootstrap CI (`htab-torture stats`), and the cost per
# probe hit:
#   cost = (1/ops_traced - 1/ops_plain) / pops_per_op   [per CPU, in ns]
# pops_per_op = (bpftrace @calls - setup pops) / module ops, where setup pops
# = 2 * max_entries + 1 (the fill, the end-of-test reinsertion, one refused
# extra insert: measured constant); it comes out 1 (one pop per update).
# Usage: bench/observer/run.sh [VCPUS=2] [REPEATS=10] [DURATION_S=2] [OUT]
# BENCH_REUSE=1 re-summarises OUT's last guest run without booting.
. "$(dirname "$0")/../lib/guest.sh"
vcpus=${1:-2} reps=${2:-10} dur=${3:-2} out=${4:-$BENCH_ROOT/bench/out/observer}
entries=10000
cell=$out/cell
kp=$BENCH_ROOT/bpftrace/__pcpu_freelist_pop.bt
fe=$BENCH_ROOT/bpftrace/__pcpu_freelist_pop_fentry.bt
[ -e "$fe" ] || fe=$BENCH_ROOT/bench/observer/__pcpu_freelist_pop_fentry.bt
[ -n "${BENCH_REUSE:-}" ] || boot_guest "$vcpus" "$cell" "$BENCH_ROOT/bench/observer/job.sh" \
	$((300 + reps * (dur * 3 + 120))) REPEATS="$reps" DURATION="$dur" ENTRIES="$entries" \
	KPROBE_BT="$kp" FENTRY_BT="$fe" LIBBPF_DIR="$BENCH_ROOT/bench/libbpf"
rc=$?
[ $rc -eq 0 ] || { echo "bench/observer: guest exit $rc; see $cell/console.log $cell/guest.log" >&2; exit 1; }
cs=$(sed -n 's/.*clocksource: Switched to clocksource \([a-z_-]*\).*/\1/p' "$cell/dmesg.txt" | tail -n 1)
echo "# bench/observer: $(date -u -r "$cell/exit_status" +%FT%TZ), host $(nproc) cores, accel $(guest_accel), $vcpus vCPUs, kernel $(jq -r .kernel_release "$cell/r1_plain.json"), clocksource ${cs:-?}, $(bpftrace --version), $(host_load "$cell")" | tee "$out/summary.txt"
echo "# full_update time_ops=0, map hash prealloc max_entries $entries, $reps interleaved rounds of $dur s; kprobe: $(basename "$kp"), fentry: $(basename "$fe")" | tee -a "$out/summary.txt"
for f in "$cell"/r*_{plain,kprobe,fentry}.json; do
	b=$(basename "$f" .json); r=${b%%_*}; m=${b#*_}
	calls=null
	[ -e "$cell/$b.ndjson" ] && calls=$(jq -s 'map(select(.type == "map" and .data["@calls"] != null) | .data["@calls"]) | first // null' "$cell/$b.ndjson")
	jq -c --argjson r "${r#r}" --arg m "$m" --argjson calls "$calls" \
		'{m: $m, rep: $r, ops: .totals.ops, calls: $calls,
		  evs: ((.per_cpu | map(.ops_per_sec) | add) / (.per_cpu | length))}' "$f"
done > "$out/samples.ndjson"
# a round counts only if both traced runs reported their @calls
counted='group_by(.rep) | map(select(map(select(.m != "plain" and .calls == null)) | length == 0)) | flatten'
all=$(jq -s 'map(.rep) | unique | length' "$out/samples.ndjson")
ok=$(jq -s "$counted | map(.rep) | unique | length" "$out/samples.ndjson")
# the numbers: htab-torture stats (compare's ratio of means, Welch p, bootstrap
# CI): traced against plain, fentry against kprobe, and per traced mode its
# pops/op and cost per probe hit, round by round
jq -sc "$counted"' | .[] | {group: .m, rep, value: .evs}' "$out/samples.ndjson" |
	"$HT_BIN" stats --json --base plain > "$out/stats.json" || exit 1
jq -sc "$counted"' | .[] | select(.m != "plain") | {group: .m, rep, value: .evs}' "$out/samples.ndjson" |
	"$HT_BIN" stats --json --base kprobe > "$out/stats_fentry_kprobe.json" || exit 1
jq -sc --argjson entries "$entries" "$counted"' | group_by(.rep)[] | map(select(.m == "plain"))[0] as $p
	| .[] | select(.m != "plain") | ((.calls - (2 * $entries + 1)) / .ops) as $ppo
	| {group: "\(.m) pops/op", rep, value: $ppo},
	  {group: "\(.m) cost", rep, value: ((1 / .evs - 1 / $p.evs) * 1e9 / $ppo)}' "$out/samples.ndjson" |
	"$HT_BIN" stats --json > "$out/stats_probe_cost.json" || exit 1
jq -r --slurpfile fk "$out/stats_fentry_kprobe.json" --slurpfile pc "$out/stats_probe_cost.json" \
	--argjson all "$all" --argjson ok "$ok" '
	def f(d): if . == null then "-" else . * pow(10; d) | round / pow(10; d) end;
	def col(n): tostring | . + " " * (n - length);
	def ms: "\(.mean | round) ± \(.sd | round)";
	def byname: map({key: .group, value: .}) | from_entries;
	(.groups | byname) as $R | ($pc[0].groups | byname) as $C | ($fk[0].groups | byname).fentry as $q
	| (.ci_level * 100 | round) as $level
	| "mode     ops/s per CPU (mean ± sd)   traced/plain (\($level)% bootstrap CI)  pops/op   cost per probe hit (mean ± sd over rounds)",
	  "rounds   \($ok) of \($all) (a round without both traced runs\u0027 @calls is dropped)",
	  "units    map updates/s per kthread   ratio                            count     ns (entry+return probe pair)",
	  "plain    \($R.plain | ms | col(28))1",
	  (("kprobe", "fentry") as $m | $R[$m] as $t
	   | "\($m)   \($t | ms | col(28))\("\($t.ratio | f(3)) (\($t.ratio_ci[0] | f(3)) .. \($t.ratio_ci[1] | f(3)))" | col(33))\($C["\($m) pops/op"].mean | f(4) | col(10))\($C["\($m) cost"] | ms)"),
	  "fentry/kprobe throughput: \($q.ratio | f(3)) (\($level)% bootstrap CI \($q.ratio_ci[0] | f(3)) .. \($q.ratio_ci[1] | f(3)), Welch p \($q.welch.p | if . < 0.001 then "< 0.001" else "= \(f(3))" end)); paired per round \($q.paired.mean | f(3)) ± \($q.paired.sd | f(3)) over \($q.paired.n) rounds"
	' "$out/stats.json" | tee -a "$out/summary.txt"
for m in kprobe fentry; do
	c=$(jq -s 'map(select(.type == "map" and .data["@calls"] != null) | .data["@calls"]) | first // 0' "$cell/bpfprog_$m.ndjson" 2>/dev/null)
	echo "# pops seen by the $m script during 1 s of full_update_driver (updates from a BPF program): ${c:-0}" | tee -a "$out/summary.txt"
done
