#!/bin/bash
# Boot once per (kernel, vCPUs) against a boot per cell (issue 15, item 2):
# the same matrix run twice, one after the other, --boot-per-cell first,
# then in shared boots (the default). For each: bench/matrix_wall.sh's
# wall, split and boot-once bound (wall / (one boot + every cell's attach +
# stress + teardown)); then bench/boot_split.sh's per-phase table (a shared
# boot's later cells on rows of their own: their "runner" is the wait after
# being sent, not a boot) and `compare` of the module's metrics, per cell
# against shared (the A/B: shared boots must not move them).
# Usage: bench/boot_once.sh [run options...]
#   default: --cpus 16 --workload full_update,overwrite,churn --repeat 3
#   BOOT_ONCE_OUT=DIR (default bench/out/boot-once-DATE)
#   BOOT_ONCE_ORDER="shared per-cell" runs them the other way round (a drift
#   of the host between the two runs then shows as the opposite sign)
# Run it alone: a neighbour's load is measured too (the load is printed).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib/relpath.sh"
out=${BOOT_ONCE_OUT:-$root/bench/out/boot-once-$(date +%Y%m%d-%H%M%S)}
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--cpus 16 --workload full_update,overwrite,churn --repeat 3)
mkdir -p "$out" || exit 2
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "matrix: ${args[*]}"
for mode in ${BOOT_ONCE_ORDER:-per-cell shared}; do
	extra=()
	[ "$mode" = per-cell ] && extra=(--boot-per-cell)
	echo
	echo "=== $mode ($(date -u +%T) UTC, load $(cut -d' ' -f1 /proc/loadavg))"
	"$root/bench/matrix_wall.sh" --out "$out/$mode" "${args[@]}" "${extra[@]}" 2> "$out/$mode.err" |
		sed -n '/^wall time of the run/,$p'
	[ -s "$out/$mode/summary.json" ] || { echo "boot_once: $mode made no summary ($out/$mode.err)" >&2; exit 2; }
done
echo
"$root/bench/boot_split.sh" "$out/per-cell" "$out/shared"
echo
echo "compare (A = per-cell, B = shared):"
"$root/harness/htab-torture" compare "$out/per-cell" "$out/shared"
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); runs in $(root_rel "$out") (TCG results are emulated)"
