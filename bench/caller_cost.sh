#!/bin/bash
# What each caller kind costs the workers (issue 28): the kthread workers'
# ops/s per CPU with kthreads alone against each caller mix, in one shared
# boot per vCPU count. The plan runs repeats outermost, so within a boot
# every repeat runs each mix once in turn: the sides are interleaved, and a
# repeat pairs them. Per workload, `htab-torture stats --base kthread` gives
# each mix's ratio to kthreads alone (Welch p, bootstrap CI) and the mean of
# the per-repeat ratios. Each mix's own callers are counted apart from the
# workers (module.json callers[]), so the figure is what they take from the
# workers, not what they add. Prints the callers' own rates beside it.
#
# Usage: bench/caller_cost.sh [run options...]
#   default: --cpus 4 --workload full_update,churn --repeat 5 --duration 3
#   CALLER_COST_CALLERS (default kthread,kthread+nmi,kthread+irq,kthread+task),
#   CALLER_COST_OUT=DIR (default bench/out/caller-cost-DATE)
# Run it alone: a neighbour's load is measured too (the load is printed).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib/relpath.sh"
ht=$root/harness/htab-torture
out=${CALLER_COST_OUT:-$root/bench/out/caller-cost-$(date +%Y%m%d-%H%M%S)}
callers=${CALLER_COST_CALLERS:-kthread,kthread+nmi,kthread+irq,kthread+task}
case ,$callers, in
*,kthread,*) ;;
*) echo "caller-cost: CALLER_COST_CALLERS '$callers' must hold kthread (the base)" >&2; exit 2 ;;
esac
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--cpus 4 --workload full_update,churn --repeat 5 --duration 3)
mkdir -p "$(dirname "$out")" || exit 2
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cells: ${args[*]} --callers $callers --bpftrace none"
t0=$(date +%s)
"$ht" run "${args[@]}" --callers "$callers" --bpftrace none --out "$out" > "$out.out" 2> "$out.err"
rc=$?
[ $rc -eq 2 ] && { tail -n 5 "$out.err" >&2; exit 2; }
echo "wall $(( $(date +%s) - t0 )) s; verdicts: $(jq -r '.cells[].verdict' "$out/summary.json" | sort | uniq -c | xargs)"
accel=$(jq -r '[.cells[].accel] | unique | join("/")' "$out/summary.json")

# One sample per PASS cell: the workers' ops/s per CPU (totals: workers only).
samples=$(for c in "$out"/*/cell.json; do
	d=${c%/cell.json}
	[ "$(jq -r .verdict "$c")" = PASS ] && [ -f "$d/module.json" ] || continue
	jq -c --slurpfile m "$d/module.json" '{
		group: (.callers // "kthread"), rep: .repeat, vcpus: .vcpus, workload: .workload,
		value: ($m[0].totals.ops_per_sec / .vcpus),
		own: [$m[0].callers[] | select(.kind != "kthread") |
		      "\(.kind) \(.ops) ops" + (if .calls_per_sec_per_cpu then
		      ", \(.calls_per_sec_per_cpu) calls/s/CPU" else "" end)] | join("; ")}' "$c"
done)
for key in $(jq -r '"\(.vcpus)/\(.workload)"' <<< "$samples" | sort -u); do
	n=${key%%/*} wl=${key#*/}
	echo
	echo "=== $wl, $n vCPUs: workers' ops/s per CPU, each caller mix against kthread alone (accel $accel)"
	jq -c --argjson n "$n" --arg wl "$wl" 'select(.vcpus == $n and .workload == $wl) |
		{group, rep, value}' <<< "$samples" | "$ht" stats --base kthread || exit 2
	jq -r --argjson n "$n" --arg wl "$wl" 'select(.vcpus == $n and .workload == $wl and .own != "") |
		"  r\(.rep) \(.group): \(.own)"' <<< "$samples"
done
echo
note=
[[ $accel == *tcg* ]] && note=" (tcg: emulated, not hardware figures)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); run in $(root_rel "$out")$note"
