#!/bin/bash
# Issue 11: the verdict catches what it claims to and nothing else.
# - selftest=corrupt rewrites the stamp of key 0 mid-run: overwrite (its
#   owner checks it before replacing) and full_update (the end-of-run walk
#   of live elements) both FAIL naming the stamp;
# - selftest=double_alloc reports one E2BIG on the full map as a success:
#   full_update FAILs naming the double allocation and the key;
# - fault=exhaust (E2BIG forced on pops) is expected in every workload:
#   all six PASS on the distro kernel with exact residuals.
# Each assertion fails if the check it covers is removed from kmod/.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir verdict_checks)

"$HT" run "${RESTORE[@]}" --cpus 2 --workload overwrite,full_update --duration 2 --bpftrace none \
	--modparam selftest=corrupt --out "$d/corrupt"
expect_eq "corrupt: harness exit" $? 1
for w in overwrite full_update; do
	cell_dir c "$d/corrupt" workload=$w
	expect_eq "corrupt $w verdict" "$(jq -r .verdict "$c/cell.json")" FAIL
	sig=$(jq -r .signature "$c/cell.json")
	[[ $sig == *"stamp key 24301"* || $sig == *"saw key 24301"* ]] ||
		fail "corrupt $w: signature does not name the planted stamp: $sig"
done
cell_dir c "$d/corrupt" workload=overwrite
expect_cmp "overwrite: corrupt count" "$(jq .verdict.corrupt "$c/module.json")" ">=" 1
cell_dir c "$d/corrupt" workload=full_update
expect_cmp "full_update: walk_bad" "$(jq .verdict.walk_bad "$c/module.json")" ">=" 1

"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 2 --bpftrace none \
	--modparam selftest=double_alloc --out "$d/double"
expect_eq "double_alloc: harness exit" $? 1
cell_dir c "$d/double" workload=full_update
expect_eq "double_alloc verdict" "$(jq -r .verdict "$c/cell.json")" FAIL
sig=$(jq -r .signature "$c/cell.json")
[[ $sig == *"succeeded on a full map (double allocation): first key "* ]] ||
	fail "double_alloc: signature: $sig"
expect_eq "double_alloc count" "$(jq .verdict.double_alloc "$c/module.json")" 1

"$HT" run "${RESTORE[@]}" --cpus 2 --workload "$(workloads | paste -sd,)" \
	--duration 2 --bpftrace none --fault exhaust:p=0.05 --out "$d/exhaust" ||
	fail "exhaust: harness exit $? (a false alarm)"
for c in "$d"/exhaust/v2-*/; do
	m=$c/module.json
	expect_eq "$(basename "$c") verdict" "$(jq -r .verdict "$c/cell.json")" PASS
	expect_eq "$(basename "$c") residual" "$(jq .verdict.residual "$m")" "$(jq .verdict.residual_expected "$m")"
	# cell.json carries the module's check counters
	expect_eq "$(basename "$c") cell.json checks.residual" "$(jq .checks.residual "$c/cell.json")" \
		"$(jq .verdict.residual "$m")"
	expect_eq "$(basename "$c") cell.json checks.corrupt" "$(jq .checks.corrupt "$c/cell.json")" 0
done
# the forced E2BIGs are the fault's, not e2big_not_full
cell_dir c "$d/exhaust" workload=batch_add_batch_del
expect_eq "batch_add_batch_del e2big_not_full" "$(jq .verdict.e2big_not_full "$c/module.json")" 0
expect_cmp "batch_add_batch_del E2BIG" "$(jq '.totals.errors.E2BIG // 0' "$c/module.json")" ">" 0
