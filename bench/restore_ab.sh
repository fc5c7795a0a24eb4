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
. "$root/bench/lib/ab.sh"
ht=$root/harness/htab-torture
out=${RESTORE_AB_OUT:-$root/bench/out/restore-ab-$(date +%Y%m%d-%H%M%S)}
reps=${RESTORE_AB_REPEAT:-5}
cpus=${RESTORE_AB_CPUS:-16 48 96}
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--workload full_update --duration 3)
mkdir -p "$out" || exit 2
export HTAB_SNAPSHOT_CACHE=$out/snapshots
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cells: ${args[*]} --boot-per-cell --repeat $reps, interleaved cold/restored, vCPUs $cpus"
# The restored side starts bpftrace in the cell as the cold one does: the
# observers preattached by default have their own A/B (preattach_ab.sh).
AB_NOTE='^snapshot .*saved' ab_interleave "$out" "$reps" "$cpus" cold "--restore off" \
	restored "--restore on --bpftrace-preattach off" \
	"${args[@]}" || exit 2
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
