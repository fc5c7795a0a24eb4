#!/bin/bash
# fault=exhaust (issue 7): one 2-vCPU guest, churn on a half-full map
# (fill_pct=50: a pop never finds the freelist empty by itself) with
# __pcpu_freelist_pop forced to report empty with p=0.1. Every new-key
# update pops once, so E2BIG / updates must be near 0.1: with ~10^5..10^6
# updates the binomial spread is < 0.002, so 0.08..0.12 is a wide margin
# that TCG (which changes timing, not probabilities) cannot break. Each
# injection is exactly one E2BIG. The popped elements went back, so the
# verdict's conservation check (delete all, exactly capacity re-inserts,
# the next E2BIG) passes.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir fault_exhaust)
"$HT" run "${RESTORE[@]}" --cpus 2 --workload churn --duration 3 --out "$d" --bpftrace none \
	--modparam fill_pct=50 --modparam fault=exhaust:p=0.1 || fail "harness exit $?"
s="$d/summary.json"
m=$(ls "$d"/*/module.json) || fail "no module.json"
expect_eq "verdict" "$(jq -r '.cells[0].verdict' "$s")" PASS
expect_eq "module result" "$(jq -r '.result' "$m")" SUCCESS
expect_eq "fault type" "$(jq -r '.faults[0].type' "$m")" exhaust
updates=$(jq '.totals.ops_by_kind.update' "$m")
e2big=$(jq '.totals.errors.E2BIG // 0' "$m")
expect_cmp "updates" "$updates" ">" 1000
expect_eq "only E2BIG" "$(jq -r '.totals.errors | keys | join(",")' "$m")" E2BIG
expect_eq "injected == E2BIG" "$(jq '.faults[0].injected' "$m")" "$e2big"
share=$(jq -n "$e2big / $updates")
expect_cmp "E2BIG share of new-key updates" "$share" ">=" 0.08
expect_cmp "E2BIG share of new-key updates" "$share" "<=" 0.12
expect_eq "reinserted == capacity" "$(jq '.verdict.reinserted' "$m")" "$(jq '.verdict.capacity' "$m")"
expect_eq "extra insert" "$(jq -r '.verdict.extra_insert_errno' "$m")" E2BIG
expect_eq "residual == fill" "$(jq '.verdict.residual' "$m")" "$(jq '.params.max_entries / 2' "$m")"
expect_no_kernel_report "$d"/*/console.log
