#!/bin/bash
# bench/observer — what does watching __pcpu_freelist_pop with bpftrace cost
# the workload it watches? One guest, REPEATS interleaved rounds of
# htab_torture.ko full_update (time_ops=0) with no tracing, with the kit's
# kprobe+kretprobe script, and with the kfunc/kretfunc (fentry/fexit) form.
# Prints per-CPU ops/s (mean ± sd over rounds), traced/plain throughput
# ratios, and the cost per probe hit:
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
jq -rs -L "$BENCH_ROOT/bench/lib" --argjson entries "$entries" 'include "stats";
	# a round counts only if both traced runs reported their @calls
	(group_by(.rep) | map(select(map(select(.m != "plain" and .calls == null)) | length == 0)
		| .[0].rep)) as $ok
	| (map(.rep) | unique | length) as $all
	| map(select(.rep as $r | $ok | index($r)))
	| def ev(m): map(select(.m == m)) | sort_by(.rep) | map(.evs);
	ev("plain") as $p
	| "mode     ops/s per CPU (mean ± sd)   traced/plain (95% CI)     pops/op   cost per probe hit (mean ± sd over rounds)",
	  "rounds   \($ok | length) of \($all) (a round without both traced runs\u0027 @calls is dropped)",
	  "units    map updates/s per kthread   ratio                     count     ns (entry+return probe pair)",
	  "plain    \("\($p | mean | r0) ± \($p | sd | r0)" | col(28))1",
	  (("kprobe", "fentry") as $m | ev($m) as $t
	   | (map(select(.m == $m)) | sort_by(.rep) | map((.calls - (2 * $entries + 1)) / .ops)) as $ppo
	   | ratio_ci($t; $p) as $q
	   | [range(0; $t | length) | (1 / $t[.] - 1 / $p[.]) * 1e9 / $ppo[.]] as $cost
	   | "\($m)   \("\($t | mean | r0) ± \($t | sd | r0)" | col(28))\("\($q.ratio | f(3)) (\($q.lo | f(3)) .. \($q.hi | f(3)))" | col(26))\($ppo | mean | f(4) | col(10))\($cost | mean | r0) ± \($cost | sd | r0)"),
	  (paired(ev("fentry"); ev("kprobe")) as $pp | ratio_ci(ev("fentry"); ev("kprobe")) as $q
	   | "fentry/kprobe throughput: \($q.ratio | f(3)) (95% CI \($q.lo | f(3)) .. \($q.hi | f(3))); paired per round \($pp.mean | f(3)) ± \($pp.sd | f(3)) (95% CI \($pp.lo | f(3)) .. \($pp.hi | f(3))) over \(ev("fentry") | length) rounds")
	' "$out/samples.ndjson" | tee -a "$out/summary.txt"
for m in kprobe fentry; do
	c=$(jq -s 'map(select(.type == "map" and .data["@calls"] != null) | .data["@calls"]) | first // 0' "$cell/bpfprog_$m.ndjson" 2>/dev/null)
	echo "# pops seen by the $m script during 1 s of full_update_driver (updates from a BPF program): ${c:-0}" | tee -a "$out/summary.txt"
done
