#!/bin/bash
# bench/driver — does our in-kernel driver (htab_torture.ko full_update) push
# the seed-000 path as fast as the seed's own method (a BPF program running
# bpf_loop() map updates, here bench/libbpf/full_update_driver)?
# One guest, REPEATS interleaved rounds (bench/driver/job.sh); prints per-CPU
# events/s of each program (mean ± sd over rounds) and ours/theirs ratios
# with their bootstrap CI and paired per-round ratios (`htab-torture stats`).
#   module ev/s: update calls / kthread run time, per bound kthread (ktime),
#     each call under rcu_read_lock + migrate_disable, plus cond_resched and
#     ktime reads between batches (and 2 ktime reads per call if time_ops=1).
#   driver ev/s: updates / ns spent inside bpf_loop() on that CPU — excludes
#     the getpgid() syscall and tracepoint entry that start each program run.
# Usage: bench/driver/run.sh [VCPUS=4] [REPEATS=5] [DURATION_S=3] [OUT]
# BENCH_REUSE=1 re-summarises OUT's last guest run without booting.
. "$(dirname "$0")/../lib/guest.sh"
vcpus=${1:-4} reps=${2:-5} dur=${3:-3} out=${4:-$BENCH_ROOT/bench/out/driver}
entries=10000
cell=$out/cell
[ -n "${BENCH_REUSE:-}" ] || boot_guest "$vcpus" "$cell" "$BENCH_ROOT/bench/driver/job.sh" $((120 + reps * dur * 3 * 8)) \
	REPEATS="$reps" DURATION="$dur" ENTRIES="$entries" LIBBPF_DIR="$BENCH_ROOT/bench/libbpf"
rc=$?
[ $rc -eq 0 ] || { echo "bench/driver: guest exit $rc; see $cell/console.log $cell/guest.log" >&2; exit 1; }
# samples: {prog, rep, cpu, evs}
{
	for f in "$cell"/r*_mod?.json; do
		b=$(basename "$f" .json)
		r=${b%%_*}
		jq -c --arg p "${b#*_}" --argjson r "${r#r}" \
			'.per_cpu[] | {prog: $p, rep: $r, cpu, evs: .ops_per_sec}' "$f"
	done
	for f in "$cell"/r*_drv.out; do
		r=$(basename "$f" _drv.out); r=${r#r}
		sed -nE 's/^([0-9]+):hash_map_full_perf ([0-9]+) events per sec$/\1 \2/p' "$f" |
		while read -r c e; do echo "{\"prog\":\"drv\",\"rep\":$r,\"cpu\":$c,\"evs\":$e}"; done
	done
} > "$out/samples.ndjson"
kernel=$(jq -r .kernel_release "$cell"/r1_mod0.json)
echo "# bench/driver: $(date -u -r "$cell/exit_status" +%FT%TZ), host $(nproc) cores, accel $(guest_accel), $vcpus vCPUs, kernel $kernel, $(host_load "$cell")" | tee "$out/summary.txt"
echo "# map hash prealloc max_entries $entries value 16 B, full; updates of absent keys (all E2BIG); $reps interleaved rounds of $dur s each" | tee -a "$out/summary.txt"
# the numbers: htab-torture stats (compare's ratio of means, Welch p, bootstrap CI)
# over rounds (the mean over CPUs of a round), and per CPU over rounds
jq -sc 'group_by(.prog, .rep)[] | {group: .[0].prog, rep: .[0].rep, value: (map(.evs) | add / length)}' \
	"$out/samples.ndjson" | "$HT_BIN" stats --json --base drv > "$out/stats.json" || exit 1
jq -c '{group: "\(.prog) \(.cpu)", rep, value: .evs}' "$out/samples.ndjson" |
	"$HT_BIN" stats --json > "$out/stats_per_cpu.json" || exit 1
jq -r --slurpfile percpu "$out/stats_per_cpu.json" '
	def name: {mod0: "module full_update time_ops=0", mod1: "module full_update time_ops=1",
		drv: "full_update_driver (bpf_loop)"}[.];
	def f: if . == null then "-" else . * 1000 | round / 1000 end;
	def p: if . == null then "-" elif . < 0.001 then "< 0.001" else "= \(f)" end;
	def ms: "\(.mean | round) ± \(.sd | round)";
	def byname: map({key: .group, value: .}) | from_entries;
	(.groups | byname) as $R | ($percpu[0].groups | byname) as $C
	| ($C | keys | map(select(startswith("mod0 ")) | ltrimstr("mod0 ") | tonumber) | sort) as $cpus
	| "program                                per-CPU ev/s (mean ± sd over rounds)",
	  "units                                  updates/s per CPU",
	  (["mod0", "mod1", "drv"][] | "\(name | . + " " * (38 - length)) \($R[.] | ms)"),
	  "",
	  "per CPU (mean ± sd over rounds), updates/s",
	  "cpu   " + (["mod0", "mod1", "drv"] | map(. + " " * 18) | join("")),
	  ($cpus[] as $c | "\($c)     " + (["mod0", "mod1", "drv"] | map($C["\(.) \($c)"] | ms | . + " " * (22 - length)) | join(""))),
	  "",
	  (["mod0", "mod1"][] as $o | $R[$o] as $q
	   | "ratio ours/theirs, \($o | name) / full_update_driver: \($q.ratio | f) (\(.ci_level * 100 | round)% bootstrap CI \($q.ratio_ci[0] | f) .. \($q.ratio_ci[1] | f), Welch p \($q.welch.p | p)); paired per round \($q.paired.mean | f) ± \($q.paired.sd | f)")
	' "$out/stats.json" | tee -a "$out/summary.txt"
