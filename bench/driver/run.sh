#!/bin/bash
# bench/driver — does our in-kernel driver (htab_torture.ko full_update) push
# the seed-000 path as fast as the seed's own method (a BPF program running
# bpf_loop() map updates, here bench/libbpf/full_update_driver)?
# One guest, REPEATS interleaved rounds (bench/driver/job.sh); prints per-CPU
# events/s of each program (mean ± sd over rounds) and ours/theirs ratios.
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
jq -rs -L "$BENCH_ROOT/bench/lib" --argjson n "$reps" 'include "stats";
	def name: {mod0: "module full_update time_ops=0", mod1: "module full_update time_ops=1",
		drv: "full_update_driver (bpf_loop)"}[.];
	# per round: mean over CPUs of per-CPU ev/s
	(group_by(.prog) | map({key: .[0].prog, value: (group_by(.rep) | map(map(.evs) | mean))}) | from_entries) as $R
	| (group_by(.prog) | map({key: .[0].prog, value: (group_by(.cpu) | map({cpu: .[0].cpu, m: (map(.evs) | mean), s: (map(.evs) | sd)}))}) | from_entries) as $C
	| "program                                per-CPU ev/s (mean ± sd over rounds)",
	  "units                                  updates/s per CPU",
	  (["mod0", "mod1", "drv"][] | "\(name | . + " " * (38 - length)) \($R[.] | mean | r0) ± \($R[.] | sd | r0)"),
	  "",
	  "per CPU (mean ± sd over rounds), updates/s",
	  "cpu   " + (["mod0", "mod1", "drv"] | map(. + " " * 18) | join("")),
	  ($C.mod0 | keys[] as $i | "\($C.mod0[$i].cpu)     " + (["mod0", "mod1", "drv"] | map($C[.][$i] | "\(.m | r0) ± \(.s | r0)" | . + " " * (22 - length)) | join(""))),
	  "",
	  (["mod0", "mod1"][] as $o | ratio_ci($R[$o]; $R.drv) as $q | paired($R[$o]; $R.drv) as $p
	   | "ratio ours/theirs, \($o | name) / full_update_driver: \($q.ratio | f(3)) (95% CI \($q.lo | f(3)) .. \($q.hi | f(3)), delta method); paired per round \($p.mean | f(3)) ± \($p.sd | f(3)) (95% CI \($p.lo | f(3)) .. \($p.hi | f(3)))")
	' "$out/samples.ndjson" | tee -a "$out/summary.txt"
