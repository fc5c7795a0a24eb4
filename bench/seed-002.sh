#!/bin/bash
# Seed 002 (htab-mem: the hash map's ops/s and memory per scenario) beside
# our measurement, in one table. RUN_DIR is a run of `make seed-002`: the
# workloads overwrite, batch_add_batch_del and add_del_on_diff_cpu on a hash
# map, preallocated and not, repeated, each cell by vm-images/guest/memcg-job.sh
# (the map made from insmod in its own cgroup v2; cell.json "memory").
# The seed's figures are data in bench/seed-tables.tsv (seed 002 rows: patch,
# list, date, where quoted, the machine), never read from outside the repo.
# Units: the seed's op is one pass over 64 elements per producer (its
# op_count), so ours is the module's map ops/s per worker / 64; memory is
# memory.current sampled over the run (mean ± sd over time; ours: the mean
# over repeats of each run's mean and of each run's sd) and memory.peak
# (ours: mean ± sd over repeats).
# The ratio preallocated / non-preallocated, per scenario, of ops/s and of
# peak memory: the seed's from its tables (2) and (3) (6.1's non-preallocated
# map uses the bpf memory allocator), ours with a 95% bootstrap CI and Welch p
# (`htab-torture stats`).
# Also sets "seed": "002" in RUN/manifest.json and writes the table to RUN/seed.txt.
# Usage: bench/seed-002.sh RUN_DIR
# Exit: 0 printed; 1 no PASS cell of some scenario and map; 2 usage / bad RUN_DIR.
set -u
. "$(dirname "$0")/lib/seed.sh"
seed_open 002 summary.json "$@"
ht=./harness/htab-torture
scenarios="overwrite batch_add_batch_del add_del_on_diff_cpu"

# seed TABLE ROW COLUMN: "value sd" of a seed 002 figure.
seed() { awk -F '\t' -v t="$1" -v r="$2" -v c="$3" \
	'$1 == "002" && $7 == t && $8 == r && $9 == c { printf "%.2f %s\n", $10, ($11 == "" ? "-" : sprintf("%.2f", $11)); exit }' "$seeds"; }

# PASS cells of the run as TSV: workload prealloc ops/s/worker avg sd peak vcpus
cells=$(jq -r '.cells[] | select(.verdict == "PASS") |
	[.workload, (.prealloc // 1 | tostring), .ops_per_sec_per_cpu,
	 (.memory.avg_mib // "nan"), (.memory.sd_mib // "nan"), (.memory.peak_mib // "nan"),
	 .vcpus, .max_entries, .duration_s] | @tsv' "$sum")
accel=$(jq -r '[.cells[].accel] | unique | join(",")' "$sum")
vcpus=$(jq -r '[.cells[].vcpus] | unique | join(",")' "$sum")
meta=$(jq -r '[([.cells[].max_entries] | unique | join(",")), ([.cells[].duration_s] | unique | join(",")),
	([.cells[].repeat] | max + 1), ([.cells[].verdict] | group_by(.) | map("\(length) \(.[0])") | join(", "))] | @tsv' "$sum")
IFS=$'\t' read -r entries dur reps verdicts <<< "$meta"

# ours W P: "n ops_mean ops_sd avg_mean sd_mean peak_mean peak_sd" (k/s per worker, MiB)
ours() {
	awk -F '\t' -v w="$1" -v p="$2" '$1 == w && $2 == p {
		n++; o = $3 / 64 / 1000; so += o; qo += o * o; sa += $4; ss += $5; sp += $6; qp += $6 * $6 }
	END { if (!n) { print 0; exit }
		osd = n > 1 ? sqrt((qo - so * so / n) / (n - 1)) : 0
		psd = n > 1 ? sqrt((qp - sp * sp / n) / (n - 1)) : 0
		printf "%d %.2f %.2f %.2f %.2f %.2f %.2f\n", n, so / n, osd, sa / n, ss / n, sp / n, psd }' <<< "$cells"
}

seed_mark 002 "$run"
printf '== seed 002: htab-mem, per-producer ops/s and the map'"'"'s memory, the seed beside ours\n'
printf 'seed: %s\n      %s\n' "$src" "$machine"
printf 'ours: %s; %s vCPUs, hash map max_entries %s, value_size 16 (the module'"'"'s minimum), %s x %s s per scenario and map; cells: %s\n' \
	"$shown" "$vcpus" "$entries" "$reps" "$dur" "$verdicts"
printf 'accel: %s%s\n' "$accel" "$([ "$accel" = tcg ] && echo ' (emulated: QEMU TCG, the vCPUs share this host'"'"'s 2 cores; not hardware figures)')"
echo
fmt='%-20s %-44s %18s %18s %16s\n'
printf "$fmt" scenario "map (source)" "per-prod op k/s" "avg mem MiB" "peak mem MiB"
rc=0
for w in $scenarios; do
	for t in "no-ma (v6.0.19, non-preallocated, kmalloc + call_rcu)" "bpf ma (non-preallocated)" "preallocated"; do
		read -r o osd < <(seed "$t" "$w" per_prod_op)
		read -r a asd < <(seed "$t" "$w" avg_mem)
		read -r pk _ < <(seed "$t" "$w" peak_mem)
		printf "$fmt" "$w" "seed: ${t%% (*}" "$o ± $osd" "$a ± $asd" "$pk"
	done
	for p in 0 1; do
		read -r n o osd a asd pk pksd < <(ours "$w" "$p")
		m=$([ "$p" = 1 ] && echo "ours: preallocated" || echo "ours: non-preallocated (6.1: bpf ma)")
		if [ "$n" = 0 ]; then
			printf "$fmt" "$w" "$m" "no PASS cell" "-" "-"
			rc=1
			continue
		fi
		printf "$fmt" "$w" "$m (n=$n)" "$o ± $osd" "$a ± $asd" "$pk ± $pksd"
	done
done
echo
echo "ratio preallocated / non-preallocated (seed: its table (2) / (3); ours: mean ratio, 95% bootstrap CI, Welch p):"
for w in $scenarios; do
	for col in ops peak; do
		if [ $col = ops ]; then c=per_prod_op f=3 label="per-prod ops/s"; else c=peak_mem f=6 label="peak memory   "; fi
		read -r s1 _ < <(seed preallocated "$w" $c)
		read -r s0 _ < <(seed "bpf ma (non-preallocated)" "$w" $c)
		st=$(awk -F '\t' -v w="$w" -v f=$f '$1 == w && $f != "nan" {
			printf "{\"group\": \"%s\", \"value\": %s}\n", $2 == 1 ? "prealloc" : "nonprealloc", $f }' <<< "$cells" |
			$ht stats --json --base nonprealloc 2>/dev/null |
			jq -r '.groups[] | select(.group == "prealloc") |
				"\(.ratio * 100 | round / 100)x [\(.ratio_ci[0] * 100 | round / 100), \(.ratio_ci[1] * 100 | round / 100)], Welch p \(if .welch.p < 0.001 then "< 0.001" else (.welch.p * 1000 | round / 1000 | tostring) end)"')
		printf '  %-20s %s  seed %sx   ours %s\n' "$w" "$label" \
			"$(awk -v a="$s1" -v b="$s0" 'BEGIN { printf "%.2f", a / b }')" "${st:-no interval (fewer than 2 PASS cells a side)}"
	done
done
echo
echo "Why TCG figures are not the seed's: the seed ran a BPF program on 8 hardware-virtualised (KVM) CPUs; ours is"
echo "the module's kthreads on emulated vCPUs (every instruction translated, atomics serialised, 2 host cores shared),"
echo "so absolute ops/s are orders of magnitude lower and only ratios within one run compare; memory is the same"
echo "kernel accounting (memcg charges of the map), so MiB compare in kind but depend on the run's length and rate."
exit $rc
