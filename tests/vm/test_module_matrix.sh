#!/bin/bash
# Issue 3: every workload x map type x prealloc (6 runs each, one 2-vCPU guest)
# ends SUCCESS with the verdict's checks actually executed: the map was
# emptied, exactly capacity keys were re-inserted and found (hash maps), the
# next insert failed with E2BIG, and no unexpected errno was seen.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir module_matrix)
"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 1 --bpftrace none \
	--job-script "$ROOT/tests/vm/jobs/module_matrix.sh" --out "$d" || fail "harness exit $?"
m=$(ls -d "$d"/*/matrix) || fail "no matrix results"
# 6 map type x prealloc runs per workload of kmod/workloads.h (36 for 6)
expect_eq "runs" "$(wc -l < "$m/index.txt")" "$(($(workloads | wc -l) * 6))"
for f in "$m"/*.json; do
	n=$(basename "$f" .json)
	expect_eq "$n result" "$(jq -r .result "$f")" SUCCESS
	expect_eq "$n unexpected errors" "$(jq .verdict.unexpected_errors "$f")" 0
	expect_eq "$n warns" "$(jq .verdict.warns "$f")" 0
	cap=$(jq .verdict.capacity "$f")
	expect_eq "$n reinserted" "$(jq .verdict.reinserted "$f")" "$cap"
	expect_cmp "$n ops" "$(jq .totals.ops "$f")" ">" 0
	# issue 11: no stamp named another key, in the run or in the end walk
	expect_eq "$n corrupt" "$(jq .verdict.corrupt "$f")" 0
	expect_eq "$n walk_bad" "$(jq .verdict.walk_bad "$f")" 0
	expect_eq "$n double_alloc" "$(jq .verdict.double_alloc "$f")" 0
	case $n in
	*lru_*)	# LRU evicts: up to 128 free nodes per CPU sit in per-CPU lists.
		expect_cmp "$n found" "$(jq .verdict.found "$f")" ">=" "$((cap - 2 * 128))" ;;
	*)	expect_eq "$n found" "$(jq .verdict.found "$f")" "$cap"
		# the live count is exactly what the run's inserts and deletes left
		expect_eq "$n residual" "$(jq .verdict.residual "$f")" "$(jq .verdict.residual_expected "$f")"
		expect_eq "$n extra insert" "$(jq -r .verdict.extra_insert_errno "$f")" E2BIG ;;
	esac
done
# The seed-000 case, exactly: every update of an absent key on a full map fails with E2BIG.
f="$m/full_update-hash-p1.json"
expect_eq "full_update only E2BIG" "$(jq '.totals.errors.E2BIG' "$f")" "$(jq '.totals.ops' "$f")"
