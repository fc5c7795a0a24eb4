#!/bin/bash
# NMI callers reach the per-CPU freelist's NMI pop (issue 28). On the
# `fixed` kernel (Debian's percpu_freelist.c, built by the kit) the static
# ___pcpu_freelist_pop_nmi is a function of its own, so a 1 ns delay fault
# on it counts every call (faults[0].hits; Debian's own build inlines it).
# Churn at 2 vCPUs: with kthread callers alone it is never called; with
# kthread+nmi it is called once for every NMI insert that got past the
# bucket lock, i.e. the NMI updates less their EBUSYs. Both cells PASS.
# run-tests: needs fixed
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir callers_pop_nmi)
spec="delay:___pcpu_freelist_pop_nmi:1ns"
"$HT" run --kernel fixed --cpus 2 --workload churn --callers kthread,kthread+nmi --fault "$spec" \
	--duration 2 --bpftrace none --out "$d/run" > "$d/run.out" ||
	fail "harness exit $? ($(tail -3 "$d/run.out"))"
cat "$d/run.out"
expect_eq "verdicts" "$(jq -r '[.cells[].verdict] | join(" ")' "$d/run/summary.json")" "PASS PASS"
cell_dir base "$d/run" callers=kthread
cell_dir nmi "$d/run" callers=kthread+nmi
expect_eq "pop_nmi calls, kthread callers" "$(jq '.faults[0].hits' "$base/module.json")" 0
m="$nmi/module.json"
n='.callers[] | select(.kind == "nmi")'
hits=$(jq '.faults[0].hits' "$m")
expect_cmp "pop_nmi calls, kthread+nmi callers" "$hits" ">" 0
expect_eq "pop_nmi calls = NMI updates - EBUSY" "$hits" \
	"$(jq "$n | .ops_by_kind.update - (.errors.EBUSY // 0)" "$m")"
expect_no_kernel_report "$base/console.log" "$nmi/console.log"
