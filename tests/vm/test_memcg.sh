#!/bin/bash
# Issue 14 (seed 002): the map's memory as the seed measures it. A
# preallocated hash map of a known footprint, created from insmod placed in
# its own cgroup v2 (vm-images/guest/memcg-job.sh): the cgroup's memory.peak
# must grow by at least the elements' size and by no more than twice it.
# Lower bound: max_entries elements of sizeof(struct htab_elem) (48 in 6.1)
# + round_up(key 4, 8) + round_up(value 16, 8) = 72 bytes each; on top come
# the buckets (16 bytes each, here 4 MiB), the per-CPU extra elements and the
# cgroup's own small charges, well under 2x at this size.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir memcg)
n=262144
"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 1 --bpftrace none --max-entries $n \
	--job-script "$ROOT/vm-images/guest/memcg-job.sh" --out "$d" > "$d.out" 2> "$d.err"
rc=$?
cat "$d.out"
expect_eq "harness exit" "$rc" 0
cell_dir c "$d" vcpus=2
expect_eq "verdict" "$(jq -r .verdict "$c/cell.json")" PASS
cat "$c/memcg.env"
lb=$(jq -n "$n * 72 / 1048576")
peak=$(jq .memory.peak_mib "$c/cell.json")
expect_cmp "memory.peak (MiB) >= the elements' size" "$peak" ">=" "$lb"
expect_cmp "memory.peak (MiB) <= 2 x the elements' size" "$peak" "<=" "$(jq -n "2 * $lb")"
expect_cmp "samples of memory.current" "$(jq .memory.samples "$c/cell.json")" ">=" 2
expect_cmp "memory.current mean (MiB) >= the elements' size" "$(jq .memory.avg_mib "$c/cell.json")" ">=" "$lb"
expect_cmp "mean <= peak" "$(jq .memory.avg_mib "$c/cell.json")" "<=" "$peak"
grep -q '^map memory' "$d.out" || fail "the run's table has no map memory section"
expect_no_kernel_report "$c/console.log"
