#!/bin/bash
# Seed 004 (the verifier inlines the LRU hash map's lookup) beside our
# measurement, in one table. RUN_DIR is a `make seed-004` directory with two
# runs: RUN_DIR/bpf (boots of the `fixed` and `before-004` kernels, each the
# seed's size sweep from a BPF program: bench/seed-004/job.sh, lookup.tsv)
# and RUN_DIR/module (the module's `lookup` workload on `fixed`, one cell per
# map type and size: a max_entries sweep in one run). Per size 2^i + 1,
# i = 9 … 20: the seed's lookups/s before and after (bench/seed-tables.tsv,
# with its source) and their ratio; ours from the BPF program on an LRU map,
# per kernel mean ± sd over boots, and the ratio fixed/before-004 with a 95%
# bootstrap CI and Welch p (`htab-torture stats`); the hash map's lookups on
# fixed (inlined on both kernels: a reference); the module's lookups/s per
# worker on lru_hash and hash (a call through map->ops, never inlined, so the
# A/B does not apply to it). Sets "seed": "004" in both runs' manifests and
# writes the table to RUN_DIR/seed.txt and both runs' seed.txt.
# Usage: bench/seed-004.sh RUN_DIR
# Exit: 0 printed; 1 a kernel or the module has no PASS figure; 2 usage / bad RUN_DIR.
set -u
. "$(dirname "$0")/lib/seed.sh"
seed_open 004 module/summary.json "$@"
top=$run
[ -s "$top/bpf/summary.json" ] || { echo "seed-004: $top/bpf/summary.json: missing" >&2; exit 2; }

# kernel type size rate boot: every lookup.tsv line of the PASS boots
bpf=$(jq -r '.cells[] | select(.verdict == "PASS") | [.cell, .kernel] | @tsv' "$top/bpf/summary.json" |
	while IFS=$'\t' read -r id k; do
		awk -v k="$k" -v id="$id" 'NF == 3 { print k, $1, $2, $3, id }' "$top/bpf/$id/lookup.tsv" 2>/dev/null
	done)
# type size rate: the module's PASS cells
mod=$(jq -r '.cells[] | select(.verdict == "PASS" and .workload == "lookup") |
	"\(.map_type // "hash") \(.max_entries) \(.ops_per_sec_per_cpu)"' "$top/module/summary.json")
accel=$(jq -rs '[.[].cells[].accel] | unique | join(",")' "$top/bpf/summary.json" "$top/module/summary.json")
vb=$(jq -r '[.cells[].vcpus] | unique | join(",")' "$top/bpf/summary.json")
vm=$(jq -r '[.cells[].vcpus] | unique | join(",")' "$top/module/summary.json")
bv=$(jq -r '[.cells[] | "\(.kernel) \(.verdict)"] | group_by(.) | map("\(length) \(.[0])") | join(", ")' "$top/bpf/summary.json")
mv_=$(jq -r '[.cells[] | .verdict] | group_by(.) | map("\(length) \(.[0])") | join(", ")' "$top/module/summary.json")
mdur=$(jq -r '[.cells[].duration_s] | unique | join(",")' "$top/module/summary.json")
mrep=$(jq -r '[.cells[].repeat] | max + 1' "$top/module/summary.json")

seed_mark 004 "$top/bpf" "$top/module" "$top"
echo "== seed 004: lookups/s per LRU map size 2^i + 1, i = 9 … 20, the seed beside ours"
echo "seed: $src"
echo "      $machine; before/after the patch"
echo "ours: $shown"
echo "      bpf/: a BPF program (bench/libbpf/full_update_driver -m lookup, bpf_loop of lookups sweeping keys 0..size-1,"
echo "        1 s per size and map, one CPU) on $vb vCPUs, kernels before-004 (no LRU lookup inlining) and fixed; boots: $bv"
echo "      module/: htab_torture.ko workload lookup on fixed, $vm vCPUs, $mdur s x $mrep per size and map; cells: $mv_"
echo "accel: $accel$([ "$accel" = tcg ] && echo " (emulated: QEMU TCG on this host's $(nproc) cores; not hardware figures)")"
echo "lookups/s; ours: mean ± sd (n) over boots (bpf) or cells (module, per worker); ratio after/before = fixed/before-004"
echo
fmt='%-8s %9s %9s %6s | %-22s %-22s %-29s | %-20s | %-20s %-20s\n'
printf "$fmt" size "seed bef" "seed aft" ratio "bpf lru before-004" "bpf lru fixed" "ratio fixed/before-004 [CI] p" "bpf hash fixed" "module lru fixed" "module hash fixed"
# ms AWK-FILTER: mean ± sd (n) of the rates of $samples lines matching
ms() { awk -v want="$1" '$0 ~ want { c++; s += $NF; q += $NF * $NF }
	END { if (!c) { print "-"; exit }
		sd = c > 1 ? sqrt((q - s * s / c) / (c - 1)) : 0
		printf "%.0f ± %.0f (%d)", s / c, sd, c }'; }
rc=0
for i in 9 10 11 12 13 14 15 16 17 18 19 20; do
	n=$(( (1 << i) + 1 ))
	sb=$(awk -F '\t' -v r=$n '$1 == "004" && $7 == "before" && $8 == r { print $10 }' "$seeds")
	sa=$(awk -F '\t' -v r=$n '$1 == "004" && $7 == "after" && $8 == r { print $10 }' "$seeds")
	lb=$(awk -v n=$n '$1 == "before-004" && $2 == "lru_hash" && $3 == n { print $4 }' <<< "$bpf" | ms .)
	lf=$(awk -v n=$n '$1 == "fixed" && $2 == "lru_hash" && $3 == n { print $4 }' <<< "$bpf" | ms .)
	hf=$(awk -v n=$n '$1 == "fixed" && $2 == "hash" && $3 == n { print $4 }' <<< "$bpf" | ms .)
	ml=$(awk -v n=$n '$1 == "lru_hash" && $2 == n { print $3 }' <<< "$mod" | ms .)
	mh=$(awk -v n=$n '$1 == "hash" && $2 == n { print $3 }' <<< "$mod" | ms .)
	st=$(awk -v n=$n '$2 == "lru_hash" && $3 == n { printf "{\"group\": \"%s\", \"value\": %s}\n", $1, $4 }' <<< "$bpf" |
		./harness/htab-torture stats --json --base before-004 2>/dev/null |
		jq -r '.groups[] | select(.group == "fixed") |
			"\(.ratio * 1000 | round / 1000)x [\(.ratio_ci[0] * 1000 | round / 1000), \(.ratio_ci[1] * 1000 | round / 1000)] \(if .welch.p < 0.001 then "<0.001" else (.welch.p * 1000 | round / 1000 | tostring) end)"')
	[ "$lb" != - ] && [ "$lf" != - ] && [ "$ml" != - ] && [ "$mh" != - ] || rc=1
	printf "$fmt" $n "$sb" "$sa" "$(awk -v a="$sa" -v b="$sb" 'BEGIN { printf "%.3f", a / b }')" \
		"$lb" "$lf" "${st:-no interval}" "$hf" "$ml" "$mh"
done
echo
echo "Why TCG figures are not the seed's: the seed ran on a hardware machine, where the inlining saves two calls"
echo "against cache misses that grow with the map; under TCG every instruction is translated, a call or a cache miss"
echo "costs what the emulator makes it cost and all vCPUs share the host's cores, so absolute lookups/s and the size at"
echo "which the gain fades differ; the ratio within one run is what compares."
exit $rc
