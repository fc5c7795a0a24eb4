#!/bin/bash
# fault=delay at __pcpu_freelist_pop (issue 7): one 2-vCPU guest, full_update
# for 3 s with a 20 us busy-wait on every pop and the pop's bpftrace script.
# Every worker update pops once, so with p=1 the injector must have fired on
# exactly the module's update count (hits == injected == updates), the pop's
# bpftrace p50 and the module's update p50 must be at least 20 us, and
# bpftrace must have timed at least as many pops as were delayed (it also
# sees the fill and verdict pops, which run with the probe disabled).
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir fault_delay)
ns=20000
"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 3 --out "$d" \
	--bpftrace __pcpu_freelist_pop \
	--modparam "fault=delay:__pcpu_freelist_pop:${ns}ns:p=1" || fail "harness exit $?"
s="$d/summary.json"
m=$(ls "$d"/*/module.json) || fail "no module.json"
expect_eq "verdict" "$(jq -r '.cells[0].verdict' "$s")" PASS
expect_eq "faults" "$(jq '.faults | length' "$m")" 1
expect_eq "fault type" "$(jq -r '.faults[0].type' "$m")" delay
expect_eq "fault symbol" "$(jq -r '.faults[0].symbol' "$m")" __pcpu_freelist_pop
expect_eq "fault ns" "$(jq '.faults[0].ns' "$m")" "$ns"
updates=$(jq '.totals.ops_by_kind.update' "$m")
expect_cmp "updates" "$updates" ">" 0
expect_eq "hits == updates" "$(jq '.faults[0].hits' "$m")" "$updates"
expect_eq "injected == hits (p=1)" "$(jq '.faults[0].injected' "$m")" "$updates"
expect_cmp "module update p50 (ns)" "$(jq '.latency_ns.update.p50' "$m")" ">=" "$ns"
expect_cmp "bpftrace pop p50 (ns)" "$(jq '.cells[0].pop_ns.p50' "$s")" ">=" "$ns"
expect_cmp "bpftrace pops >= injected" "$(jq '.cells[0].pop_ns.count' "$s")" ">=" "$updates"
expect_no_kernel_report "$d"/*/console.log
