#!/bin/bash
# A smaller guest against the default RAM (issue 27, restored walls): a
# restore faults in the whole guest RAM, and at 96 vCPUs the default
# (512 + 32 MB a vCPU) is ~10x what such a guest uses (bench/RESULTS.md,
# "Where a restore's time goes"). Does --guest-mem MB restore faster, and
# does it move any figure? Restored cells (the default), a boot per cell,
# repeat k with the default RAM then with --guest-mem MB, for k = 1..N
# (bench/lib/ab.sh); then the per-phase split (bench/boot_split.sh) and
# `compare` (A = default RAM, B = --guest-mem MB).
# GUEST_MEM_AB_CAP=SIZE adds a third side, "capped": the default RAM with
# `--boot-opt mem=SIZE` (give the small side's whole RAM, e.g. 1921M), so the
# guest's kernel lays itself out in what the small guest has while QEMU and
# the host keep the default's RAM. A figure that moves with "small" but not
# with "capped" comes from QEMU or the host; one that moves with both, from
# the guest's layout.
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
cap=${GUEST_MEM_AB_CAP:-}
sides=(auto "--guest-mem auto" small "--guest-mem $mb")
names=(auto small)
if [ -n "$cap" ]; then
	case $cap in
	*[!0-9MG]* | [MG]* | *[MG]?*) echo "GUEST_MEM_AB_CAP=$cap: a size such as 1921M or 2G" >&2; exit 2 ;;
	esac
	sides+=(capped "--guest-mem auto --boot-opt mem=$cap")
	names+=(capped)
fi
mkdir -p "$out" || exit 2
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cells: ${args[*]} --boot-per-cell --repeat $reps, interleaved ${names[*]} (default RAM / --guest-mem $mb${cap:+ / default RAM with mem=$cap}), vCPUs $cpus"
AB_NOTE='^snapshot .*saved' ab_interleave_sides "$out" "$reps" "$cpus" "${#names[@]}" "${sides[@]}" \
	"${args[@]}" || exit 2
echo
runs=()
for n in $cpus; do
	for s in "${names[@]}"; do runs+=("$out/$s-v$n"); done
done
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
	[ -z "$cap" ] || {
		echo
		echo "compare at $n vCPUs (A = default RAM, B = default RAM with mem=$cap):"
		"$ht" compare "$out/auto-v$n" "$out/capped-v$n"
		echo
		echo "compare at $n vCPUs (A = default RAM with mem=$cap, B = --guest-mem $mb):"
		"$ht" compare "$out/capped-v$n" "$out/small-v$n"
	}
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); runs in $(root_rel "$out") (TCG results are emulated)"
