#!/bin/bash
# Issue 16: on the coverage kernel (built seeded from tree-fixed: only the
# four instrumented files and the link rebuild), a cell brings back gcda
# snapshots and coverage figures that tell workloads apart:
# - full_update pops on every op (every update is of an absent key in a
#   full map), lookup never allocates: ___pcpu_freelist_pop's lines are hit
#   in full_update's workload snapshot and not in lookup's;
# - the workload snapshot is taken before the verdict: lookup's verdict
#   snapshot (cumulative) has the pops of the verdict's re-insertion, its
#   workload snapshot has none;
# - the map's creation and destruction are counted apart: pcpu_freelist_init
#   and _populate in the setup snapshot (insmod to the hold after setup),
#   pcpu_freelist_destroy in the rmmod one, neither in the workload's.
# run-tests: needs coverage
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir coverage_kernel)
"$HT" run --coverage --cpus 2 --workload full_update,lookup --duration 2 --bpftrace none \
	--out "$d" > "$d.out" 2> "$d.err"
rc=$?
cat "$d.err"
expect_eq "harness exit" "$rc" 0
for w in full_update lookup; do
	cell_dir c "$d" workload=$w
	expect_eq "$w verdict" "$(jq -r .verdict "$c/cell.json")" PASS
	for s in setup workload verdict rmmod; do
		n=$(find "$c/gcov/$s" -name '*.gcda' -size +0 | wc -l)
		expect_eq "$w: non-empty gcda files in gcov/$s" "$n" 4
	done
	grep -q 'runner: coverage: counters reset after the setup' "$c/guest.log" ||
		fail "$w: the runner did not reset the counters"
done
# fn_lines WORKLOAD SNAPSHOT FUNCTION: lines of FUNCTION (percpu_freelist.c) hit
fn_lines() {
	local c
	cell_dir c "$d" workload="$1"
	jq -e --arg s "$2" --arg f "$3" '.snapshots[$s].files[]
		| select(.path == "kernel/bpf/percpu_freelist.c")
		| .functions[] | select(.name == $f) | .lines.hit' \
		"$c/coverage.json" || fail "$1: no $3 row in $2"
}
pop_lines() { fn_lines "$1" "$2" ___pcpu_freelist_pop; }
for f in pcpu_freelist_init pcpu_freelist_populate; do
	expect_cmp "lookup: $f lines hit in setup" "$(fn_lines lookup setup $f)" ">" 0
	expect_eq "lookup: $f lines hit by the workload" "$(fn_lines lookup workload $f)" 0
done
expect_cmp "lookup: pcpu_freelist_destroy lines hit by rmmod" \
	"$(fn_lines lookup rmmod pcpu_freelist_destroy)" ">" 0
expect_eq "lookup: pcpu_freelist_destroy lines hit by the verdict" \
	"$(fn_lines lookup verdict pcpu_freelist_destroy)" 0
expect_cmp "full_update: pop lines hit by the workload" "$(pop_lines full_update workload)" ">=" 5
expect_eq "lookup: pop lines hit by the workload" "$(pop_lines lookup workload)" 0
expect_cmp "lookup: pop lines hit with the verdict" "$(pop_lines lookup verdict)" ">" 0
# The same figure in the summary differs between the two workloads.
f() { jq --arg w "$1" '.cells[] | select(.workload == $w) | .coverage' "$d/summary.json"; }
[ "$(f full_update)" != "$(f lookup)" ] || fail "summary coverage equal for both workloads: $(f lookup)"
[ "$(f lookup)" != null ] || fail "no coverage in summary.json"
echo "summary coverage: full_update $(f full_update | jq -c .) lookup $(f lookup | jq -c .)"
