#!/bin/bash
# Restored guests against cold boots (issue 15, item 3): does starting QEMU
# from a saved guest (--restore on) move the module's or bpftrace's figures?
# Per vCPU count (default 16 and 96): the same cells twice, a boot per cell
# both times (--boot-per-cell: only the boot differs), cold first, then
# restored (the snapshot saved on a cold cache: HTAB_SNAPSHOT_CACHE is a
# fresh directory of the run, so its save is timed too). Prints the
# per-phase split (bench/boot_split.sh), each snapshot's save and `compare`
# (A = cold, B = restored): a significant metric means restore must not be
# used for that measurement.
# Usage: bench/restore_ab.sh [run options...]
#   default: --workload full_update --repeat 5 --duration 3
#   RESTORE_AB_CPUS="16 96"; RESTORE_AB_OUT=DIR (default bench/out/restore-ab-DATE)
# Run it alone: a neighbour's load is measured too (the load is printed).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib/relpath.sh"
ht=$root/harness/htab-torture
out=${RESTORE_AB_OUT:-$root/bench/out/restore-ab-$(date +%Y%m%d-%H%M%S)}
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--workload full_update --repeat 5 --duration 3)
mkdir -p "$out" || exit 2
export HTAB_SNAPSHOT_CACHE=$out/snapshots
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cells: ${args[*]} --boot-per-cell, vCPUs ${RESTORE_AB_CPUS:-16 96}"
for n in ${RESTORE_AB_CPUS:-16 96}; do
	for mode in cold restored; do
		r=$out/$mode-v$n
		extra=()
		[ "$mode" = restored ] && extra=(--restore on)
		echo "=== $mode, $n vCPUs ($(date -u +%T) UTC, load $(cut -d' ' -f1 /proc/loadavg))"
		t0=$(date +%s.%N)
		"$ht" run --cpus "$n" --boot-per-cell --out "$r" "${args[@]}" "${extra[@]}" > "$r.out" 2> "$r.err"
		rc=$?
		[ $rc -eq 2 ] && { tail -n 5 "$r.err" >&2; exit 2; }
		awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "wall %.1f s\n", b - a }'
		grep '^snapshot .*saved' "$r.err" || true
	done
done
echo
runs=()
for n in ${RESTORE_AB_CPUS:-16 96}; do runs+=("$out/cold-v$n" "$out/restored-v$n"); done
"$root/bench/boot_split.sh" "${runs[@]}"
for n in ${RESTORE_AB_CPUS:-16 96}; do
	echo
	echo "compare at $n vCPUs (A = cold boots, B = restored):"
	"$ht" compare "$out/cold-v$n" "$out/restored-v$n"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); runs in $(root_rel "$out") (TCG results are emulated)"
