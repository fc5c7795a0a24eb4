#!/bin/bash
# Restored guests against cold boots (issues 15 and 27): does starting QEMU
# from a saved guest (--restore on) move the module's or bpftrace's figures?
# Per vCPU count (default 16, 48 and 96): the same cells in both modes, a
# boot per cell (--boot-per-cell: only the boot differs), interleaved: repeat
# k cold, then repeat k restored, for k = 1..N (`run --shard k/N` of a
# --repeat N plan picks repeat k), so a drift of the host's speed during
# the run falls on both sides alike. The snapshot is saved on a cold cache
# (HTAB_SNAPSHOT_CACHE is a fresh directory of the run) by the first
# restored repeat, so its save is timed too. The shards of each mode are
# joined with `htab-torture merge`; then the per-phase split
# (bench/boot_split.sh), each snapshot's save and `compare` (A = cold,
# B = restored): a significant metric means restore must not be used for
# that measurement.
# Usage: bench/restore_ab.sh [run options...]
#   default: --workload full_update --duration 3; RESTORE_AB_REPEAT (5)
#   RESTORE_AB_CPUS="16 48 96"; RESTORE_AB_OUT=DIR (default bench/out/restore-ab-DATE)
# Run it alone: a neighbour's load is measured too (the load is printed).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib/relpath.sh"
ht=$root/harness/htab-torture
out=${RESTORE_AB_OUT:-$root/bench/out/restore-ab-$(date +%Y%m%d-%H%M%S)}
reps=${RESTORE_AB_REPEAT:-5}
cpus=${RESTORE_AB_CPUS:-16 48 96}
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--workload full_update --duration 3)
case $reps in ''|*[!0-9]*|0|1) echo "restore_ab: RESTORE_AB_REPEAT=$reps: an integer >= 2" >&2; exit 2 ;; esac
mkdir -p "$out" || exit 2
export HTAB_SNAPSHOT_CACHE=$out/snapshots
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cells: ${args[*]} --boot-per-cell --repeat $reps, interleaved cold/restored, vCPUs $cpus"
for n in $cpus; do
	for k in $(seq 1 "$reps"); do
		for mode in cold restored; do
			r=$out/$mode-v$n-s$k
			extra=(--restore off)
			[ "$mode" = restored ] && extra=(--restore on)
			echo "=== $mode, $n vCPUs, repeat $k of $reps ($(date -u +%T) UTC, load $(cut -d' ' -f1 /proc/loadavg))"
			t0=$(date +%s.%N)
			"$ht" run --cpus "$n" --boot-per-cell --repeat "$reps" --shard "$k/$reps" \
				--out "$r" "${args[@]}" "${extra[@]}" > "$r.out" 2> "$r.err"
			rc=$?
			[ $rc -eq 2 ] && { tail -n 5 "$r.err" >&2; exit 2; }
			awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "wall %.1f s\n", b - a }'
			grep '^snapshot .*saved' "$r.err" || true
		done
	done
	for mode in cold restored; do
		shards=()
		for k in $(seq 1 "$reps"); do shards+=("$out/$mode-v$n-s$k"); done
		rm -rf "${out:?}/$mode-v$n"
		"$ht" merge "$out/$mode-v$n" "${shards[@]}" > /dev/null || exit 2
	done
done
echo
runs=()
for n in $cpus; do runs+=("$out/cold-v$n" "$out/restored-v$n"); done
"$root/bench/boot_split.sh" "${runs[@]}"
for n in $cpus; do
	echo
	echo "compare at $n vCPUs (A = cold boots, B = restored; repeats interleaved):"
	"$ht" compare "$out/cold-v$n" "$out/restored-v$n"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); runs in $(root_rel "$out") (TCG results are emulated)"
