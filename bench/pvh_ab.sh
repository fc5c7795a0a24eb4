#!/bin/bash
# The PVH boot against the bzImage under TCG (issue 27, booting walls):
# does booting the distro kernel's vmlinux through PVH (--pvh auto: no
# decompression in the guest, and no KASLR: x86 randomizes the kernel's
# text in the bzImage's decompressor, which a PVH entry skips) move the
# module's or bpftrace's figures, and if so, is it the boot path or the
# layout? Three sides, each a boot per cell (--restore off), interleaved:
# repeat k with the bzImage, then PVH, then the bzImage with nokaslr, for
# k = 1..N (bench/lib/ab.sh). Then the per-phase split (bench/boot_split.sh)
# and `compare`: bzImage against PVH, bzImage with nokaslr against PVH
# (the path alone), bzImage against bzImage with nokaslr (the layout alone).
# Usage: bench/pvh_ab.sh [run options...]
#   default: --workload full_update --duration 3; PVH_AB_REPEAT (5)
#   PVH_AB_CPUS="16 96"; PVH_AB_OUT=DIR (default bench/out/pvh-ab-DATE)
# Run it alone: a neighbour's load is measured too (the load is printed).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib/relpath.sh"
. "$root/bench/lib/ab.sh"
ht=$root/harness/htab-torture
out=${PVH_AB_OUT:-$root/bench/out/pvh-ab-$(date +%Y%m%d-%H%M%S)}
reps=${PVH_AB_REPEAT:-5}
cpus=${PVH_AB_CPUS:-16 96}
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--workload full_update --duration 3)
mkdir -p "$out" || exit 2
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cells: ${args[*]} --restore off --boot-per-cell --repeat $reps, interleaved bzimage/pvh/nokaslr, vCPUs $cpus"
ab_interleave_sides "$out" "$reps" "$cpus" 3 bzimage "--pvh off" pvh "--pvh auto" \
	nokaslr "--pvh off --boot-opt nokaslr" --restore off "${args[@]}" || exit 2
echo
runs=()
for n in $cpus; do runs+=("$out/bzimage-v$n" "$out/pvh-v$n" "$out/nokaslr-v$n"); done
"$root/bench/boot_split.sh" "${runs[@]}"
echo
ab_boot_paths "${runs[@]}"
for n in $cpus; do
	for pair in "bzimage pvh" "nokaslr pvh" "bzimage nokaslr"; do
		read -r a b <<< "$pair"
		echo
		echo "compare at $n vCPUs (A = $a, B = $b; repeats interleaved):"
		"$ht" compare "$out/$a-v$n" "$out/$b-v$n"
	done
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); runs in $(root_rel "$out") (TCG results are emulated)"
