#!/bin/bash
# How much of a matrix's wall time is measurement? Runs the default matrix
# (vCPUs 16,32,48,64,96, full_update, distro kernel, no noise; extra
# arguments go to `htab-torture run`, e.g. --cpus 2,4 for a quick look) and
# prints, from each cell's timings (cell.json, FORMAT.md):
#   wall time of the whole run, the sum of measurement windows (stress_s),
#   their ratio, and where the rest went: boot / attach / stress / teardown /
#   shutdown — on the host's clock (cell.json host_timings: boot includes QEMU
#   start-up) when the run has them, else the guest's (timings; under TCG with
#   many vCPUs the guest clock lags, and shutdown absorbs the difference).
# Usage: bench/matrix_wall.sh [--out DIR] [run options...]
#        bench/matrix_wall.sh --from RUN_DIR   (figures of a finished run)
# Target: the ratio shrinking run over run; <= 1.5 under KVM.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
ht=$root/harness/htab-torture
. "$root/bench/lib/relpath.sh"
out= from=
args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift ;;
	--from) from=$2; shift ;;
	*) args+=("$1") ;;
	esac
	shift
done
if [ -n "$from" ]; then
	out=$from
else
	out=${out:-$root/bench/out/matrix-wall-$(date +%Y%m%d-%H%M%S)}
	t0=$(date +%s.%N)
	"$ht" run --out "$out" "${args[@]}"
	rc=$?
	[ $rc -eq 2 ] && exit 2
	t1=$(date +%s.%N)
	# Kept beside the run, so --from prints the same figures later.
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", b - a }' > "$out/bench_wall_s"
fi
s=$out/summary.json
[ -s "$s" ] || { echo "matrix_wall: no $s" >&2; exit 2; }
wall=$(cat "$out/bench_wall_s" 2>/dev/null || jq '[.cells[].timings.wall_s // 0] | add' "$s")
echo "run: $(root_rel "$out")"
echo "host: $(nproc) CPUs, accel $(jq -r '.cells[0].accel' "$s"), $(jq '.cells | length' "$s") cells, duration $(jq '.cells[0].duration_s' "$s") s each"
echo
printf '%-34s %8s %8s %8s %8s %8s %8s %8s  %s\n' cell wall boot attach stress teardown shutdown ratio verdict
printf '%-34s %8s %8s %8s %8s %8s %8s %8s  %s\n' "" s s s s s s "wall/stress" ""
T=timings
[ "$(jq '[.cells[] | has("host_timings")] | all' "$s")" = true ] && T=host_timings
echo "phase split on the $([ $T = timings ] && echo "guest's clock (timings)" || echo "host's clock (host_timings)")"
jq -r --arg T "$T" '.cells[] | .[$T] as $t | [.cell, $t.wall_s, $t.boot_s, $t.attach_s, $t.stress_s,
	$t.teardown_s, $t.shutdown_s, .verdict] | @tsv' "$s" |
while IFS=$'\t' read -r id w b a st t sh v; do
	r=$(awk -v w="$w" -v s="$st" 'BEGIN { if (s + 0 > 0) printf "%.1f", w / s; else print "-" }')
	printf '%-34s %8s %8s %8s %8s %8s %8s %8s  %s\n' "$id" "$w" "$b" "$a" "$st" "$t" "$sh" "$r" "$v"
done
jq -r --arg T "$T" --argjson wall "$wall" '
	def sum(k): [.cells[] | .[$T][k] // 0] | add;
	(sum("stress_s")) as $m | (sum("wall_s")) as $cw |
	"",
	"wall time of the run:        \($wall) s",
	"sum of measurement windows:  \($m * 10 | round / 10) s (stress_s, module load to results)",
	"ratio wall / measurement:    \(if $m > 0 then ($wall / $m * 100 | round / 100) else "-" end)",
	"sum of cell wall times:      \($cw * 10 | round / 10) s (> wall time when cells ran in parallel)",
	"split of the cells'"'"' time:",
	(["boot_s", "attach_s", "stress_s", "teardown_s", "shutdown_s"][] as $k |
		"  \($k | sub("_s$"; ""))\t\(sum($k) * 10 | round / 10) s\t\(if $cw > 0 then (sum($k) / $cw * 1000 | round / 10) else 0 end)%"),
	# Boots: a cell of its own boot, or the first of a shared one, paid one
	# (cell.json boot; a run from before shared boots: every cell).
	([.cells[] | select((.boot.mode // "own") == "own" or .boot.cell_in_boot == 1)]) as $b |
	([$b[] | .[$T].boot_s // 0] | add / ($b | length)) as $mb |
	((sum("attach_s") + sum("stress_s") + sum("teardown_s"))) as $work |
	"",
	"boots:                       \($b | length) for \(.cells | length) cells (mean boot \($mb * 10 | round / 10) s, QEMU start to runner)",
	"one boot + every cell'"'"'s attach + stress + teardown: \(($mb + $work) * 10 | round / 10) s",
	"ratio wall / that:           \(if $mb + $work > 0 then ($wall / ($mb + $work) * 100 | round / 100) else "-" end) (1 = one boot, no other overhead)"
' "$s" | expand -t 14
