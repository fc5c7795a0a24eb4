#!/bin/bash
# bpftrace's start-up out of the critical path (issue 27, item 3): does a
# kprobe-form script loaded as an ahead-of-time program (--bpftrace-aot on,
# bpftrace-aotrt, no LLVM) start sooner than bpftrace compiling it, and does
# it move any figure? Per vCPU count (default 4 and 16): a warm-up cell
# with AOT on compiles the programs into a fresh cache (its compile time is
# printed), then repeat k with --bpftrace-aot off, then repeat k on, for
# k = 1..N (bench/lib/ab.sh). Then the per-phase split (bench/boot_split.sh:
# runner -> bpftrace attached is the start-up), which engine ran each cell,
# and `compare` (A = bpftrace, B = AOT).
# Usage: bench/bpftrace_aot_ab.sh [run options...]
#   default: --kernel fixed --workload full_update --duration 3 (a
#   source-built kernel has no BTF: its scripts run in the kprobe form, as
#   in bisect runs and on a user's own tree); BT_AOT_AB_REPEAT (5),
#   BT_AOT_AB_CPUS="4 16", BT_AOT_AB_OUT=DIR (bench/out/bpftrace-aot-ab-DATE).
#   At 48 and 96 vCPUs the kprobe form throttles full_update ~100x under TCG
#   (bench/RESULTS.md, "bpftrace ahead of time"): there pass --workload lookup,
#   which pops nothing, to time the start-up alone.
# Run it alone: a neighbour's load is measured too (the load is printed).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib/relpath.sh"
. "$root/bench/lib/ab.sh"
ht=$root/harness/htab-torture
out=${BT_AOT_AB_OUT:-$root/bench/out/bpftrace-aot-ab-$(date +%Y%m%d-%H%M%S)}
reps=${BT_AOT_AB_REPEAT:-5}
cpus=${BT_AOT_AB_CPUS:-4 16}
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--kernel fixed --workload full_update --duration 3)
mkdir -p "$out" || exit 2
export HTAB_BPFTRACE_AOT_CACHE=$out/aot
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cells: ${args[*]} --boot-per-cell --repeat $reps, interleaved bpftrace/aot, vCPUs $cpus"
for n in $cpus; do
	echo "=== warm-up, $n vCPUs: compile the programs ($(date -u +%T) UTC)"
	"$ht" run --cpus "$n" --bpftrace-preattach off --out "$out/warmup-v$n" "${args[@]}" > "$out/warmup-v$n.out" 2>&1
	[ $? -eq 2 ] && { tail -n 5 "$out/warmup-v$n.out" >&2; exit 2; }
	grep -h 'bpftrace --aot' "$out/warmup-v$n"/*/guest.log | sed 's/^/  /'
done
# Both sides start bpftrace in the cell: a preattached observer is neither.
ab_interleave "$out" "$reps" "$cpus" bpftrace "--bpftrace-aot off --bpftrace-preattach off" \
	aot "--bpftrace-aot on --bpftrace-preattach off" \
	"${args[@]}" || exit 2
echo
ab_engines "$out" "$cpus" bpftrace aot "A = bpftrace, B = AOT program"
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); runs in $(root_rel "$out") (TCG results are emulated)"
