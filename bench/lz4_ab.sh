#!/bin/bash
# Debian's 6.1 bzImage as shipped (XZ) against the same kernel with an LZ4
# decompressor (--lz4 auto, vm-images/lz4-bzimage/) under TCG: what the
# rewrap saves of a boot (bench/boot_split.sh: first console line, kernel
# to init, ...) and that nothing after the decompressor moves (`compare` on
# every module metric). Two sides, a boot per cell (--restore off),
# interleaved: repeat k with XZ, then with LZ4, for k = 1..N (bench/lib/ab.sh).
# Usage: bench/lz4_ab.sh [run options...]
#   default: --workload full_update --duration 3; LZ4_AB_REPEAT (5)
#   LZ4_AB_CPUS="16 96"; LZ4_AB_OUT=DIR (default bench/out/lz4-ab-DATE)
# Run it alone: a neighbour's load is measured too (the load is printed).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib/relpath.sh"
. "$root/bench/lib/ab.sh"
ht=$root/harness/htab-torture
out=${LZ4_AB_OUT:-$root/bench/out/lz4-ab-$(date +%Y%m%d-%H%M%S)}
reps=${LZ4_AB_REPEAT:-5}
cpus=${LZ4_AB_CPUS:-16 96}
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--workload full_update --duration 3)
mkdir -p "$out" || exit 2
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cells: ${args[*]} --restore off --boot-per-cell --repeat $reps, interleaved xz/lz4, vCPUs $cpus"
ab_interleave "$out" "$reps" "$cpus" xz "--lz4 off" lz4 "--lz4 auto" --restore off "${args[@]}" || exit 2
echo
runs=()
for n in $cpus; do runs+=("$out/xz-v$n" "$out/lz4-v$n"); done
"$root/bench/boot_split.sh" "${runs[@]}"
echo
ab_boot_paths "${runs[@]}"
for n in $cpus; do
	echo
	echo "compare at $n vCPUs (A = xz, B = lz4; repeats interleaved):"
	"$ht" compare "$out/xz-v$n" "$out/lz4-v$n"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); runs in $(root_rel "$out") (TCG results are emulated)"
