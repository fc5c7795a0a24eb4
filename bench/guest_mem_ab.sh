#!/bin/bash
# A smaller guest against the default RAM (issue 27, restored walls): a
# restore faults in the whole guest RAM, and at 96 vCPUs the default
# (512 + 32 MB a vCPU) is ~10x what such a guest uses (bench/RESULTS.md,
# "Where a restore's time goes"). Does --guest-mem MB restore faster, and
# does it move any figure? Restored cells (the default), a boot per cell,
# repeat k with the default RAM then with --guest-mem MB, for k = 1..N
# (bench/lib/ab.sh); then the per-phase split (bench/boot_split.sh) and
# `compare` (A = default RAM, B = --guest-mem MB).
# Usage: bench/guest_mem_ab.sh [run options...]
#   default: --workload full_update --duration 3; GUEST_MEM_AB_MB (1536)
#   GUEST_MEM_AB_REPEAT (5), GUEST_MEM_AB_CPUS="48 96"
#   GUEST_MEM_AB_OUT=DIR (default bench/out/guest-mem-ab-DATE)
# Run it alone: a neighbour's load is measured too (the load is printed).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib/relpath.sh"
. "$root/bench/lib/ab.sh"
ht=$root/harness/htab-torture
out=${GUEST_MEM_AB_OUT:-$root/bench/out/guest-mem-ab-$(date +%Y%m%d-%H%M%S)}
mb=${GUEST_MEM_AB_MB:-1536}
reps=${GUEST_MEM_AB_REPEAT:-5}
cpus=${GUEST_MEM_AB_CPUS:-48 96}
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--workload full_update --duration 3)
mkdir -p "$out" || exit 2
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cells: ${args[*]} --boot-per-cell --repeat $reps, interleaved default RAM / --guest-mem $mb, vCPUs $cpus"
AB_NOTE='^snapshot .*saved' ab_interleave "$out" "$reps" "$cpus" auto "--guest-mem auto" \
	small "--guest-mem $mb" "${args[@]}" || exit 2
echo
runs=()
for n in $cpus; do runs+=("$out/auto-v$n" "$out/small-v$n"); done
"$root/bench/boot_split.sh" "${runs[@]}"
echo
echo "guest RAM and restore (QEMU start -> restored, host s) per cell:"
for r in "${runs[@]}"; do
	echo "  $(basename "$r"): $(jq -r '"\(.memory_mb) MB \(.boot_phases.restored_s)"' "$r"/*/cell.json |
		sort -k3 -n | awk '{ m = $1; t = t " " $3 } END { print m " MB," t " s" }')"
done
for n in $cpus; do
	echo
	echo "compare at $n vCPUs (A = default RAM, B = --guest-mem $mb; repeats interleaved):"
	"$ht" compare "$out/auto-v$n" "$out/small-v$n"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); runs in $(root_rel "$out") (TCG results are emulated)"
