#!/bin/bash
# Observers live in the snapshot (issue 27, item 3): does a restored cell
# that adopts the bpftrace its guest started before the save
# (--bpftrace-preattach on) reach its window sooner than one that starts
# its own, and does it move any figure? Per vCPU count (default 16 and 96):
# a warm-up cell of each side saves its snapshot (the one with observers
# also copies bpftrace into the guest; its save is timed in the log), then
# repeat k with --bpftrace-preattach off, then repeat k on, for k = 1..N
# (bench/lib/ab.sh). Then the per-phase split (bench/boot_split.sh: runner ->
# bpftrace attached is the start-up), which engine ran each cell, and
# `compare` (A = launched, B = preattached).
# Usage: bench/preattach_ab.sh [run options...]   (default: the default cell)
#   PREATTACH_AB_REPEAT (3), PREATTACH_AB_CPUS="16 96",
#   PREATTACH_AB_OUT=DIR (bench/out/preattach-ab-DATE).
# Run it alone: a neighbour's load is measured too (the load is printed).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib/relpath.sh"
. "$root/bench/lib/ab.sh"
ht=$root/harness/htab-torture
out=${PREATTACH_AB_OUT:-$root/bench/out/preattach-ab-$(date +%Y%m%d-%H%M%S)}
reps=${PREATTACH_AB_REPEAT:-3}
cpus=${PREATTACH_AB_CPUS:-16 96}
args=("$@")
mkdir -p "$out" || exit 2
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cells: ${args[*]} --boot-per-cell --repeat $reps, interleaved launched/preattached, vCPUs $cpus"
for n in $cpus; do
	for side in off on; do
		echo "=== warm-up, $n vCPUs, --bpftrace-preattach $side: its snapshot ($(date -u +%T) UTC)"
		t0=$(date +%s)
		"$ht" run --cpus "$n" --bpftrace-preattach "$side" --out "$out/warmup-$side-v$n" \
			"${args[@]}" > "$out/warmup-$side-v$n.out" 2>&1
		[ $? -eq 2 ] && { tail -n 5 "$out/warmup-$side-v$n.out" >&2; exit 2; }
		echo "  wall $(($(date +%s) - t0)) s"
		jq -r '.restore // empty | "  snapshot \(.snapshot): boot \(.boot_s * 10 | round / 10) s, save \(.save_s * 10 | round / 10) s, \(.state_bytes / 1e6 | round) MB"' \
			"$out/warmup-$side-v$n"/*/cell.json
	done
done
ab_interleave "$out" "$reps" "$cpus" launched "--bpftrace-preattach off" \
	preattached "--bpftrace-preattach on" "${args[@]}" || exit 2
echo
ab_engines "$out" "$cpus" launched preattached "A = launched, B = preattached"
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); runs in $(root_rel "$out") (TCG results are emulated)"
