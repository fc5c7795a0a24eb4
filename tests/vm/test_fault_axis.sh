#!/bin/bash
# --fault as a matrix axis (issue 7): one run, two cells — no fault and a
# 10 us delay at __pcpu_freelist_pop — with two bpftrace scripts (each keeps
# its own NDJSON). Both PASS; the delay cell's pop p50 is at least 10 us and
# the other's is below; cell.json of the delay cell has the spec and the
# module's faults[] with injected > 0. report works on the run; compare never
# pairs the two faults (only --base-fault none puts the delay beside none).
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir fault_axis)
ns=10000
spec="delay:__pcpu_freelist_pop:10us"
"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 2 --out "$d/run" \
	--bpftrace __pcpu_freelist_pop,alloc_htab_elem --fault none --fault "$spec" \
	> "$d/run.out" || fail "harness exit $? ($(tail -3 "$d/run.out"))"
cat "$d/run.out"
s="$d/run/summary.json"
cell_dir none "$d/run" fault=none
cell_dir delay "$d/run" fault="$spec"
expect_eq "cells, none first" "$(jq -r '[.cells[].cell] | join(" ")' "$s")" "${none##*/} ${delay##*/}"
expect_eq "verdicts" "$(jq -r '[.cells[].verdict] | join(" ")' "$s")" "PASS PASS"
expect_eq "faults" "$(jq -r '[.cells[].fault] | join(" ")' "$s")" "none $spec"
grep -q "fault=$spec" "$delay/job.env" || fail "job.env lacks fault=$spec"
! grep -q "fault=" "$none/job.env" || fail "the none cell passes a fault="
expect_cmp "delay cell pop p50 (ns)" "$(jq ".cells[1].pop_ns.p50" "$s")" ">=" "$ns"
expect_cmp "none cell pop p50 (ns)" "$(jq ".cells[0].pop_ns.p50" "$s")" "<" "$ns"
c="$delay/cell.json"
expect_eq "cell.json fault" "$(jq -r .fault "$c")" "$spec"
expect_eq "cell.json faults[0].type" "$(jq -r '.faults[0].type' "$c")" delay
expect_cmp "cell.json faults[0].injected" "$(jq '.faults[0].injected' "$c")" ">" 0
expect_eq "none cell faults" "$(jq -c .faults "$none/cell.json")" "[]"
# A run with faults measures every cell with the kprobe form, so the two compare.
for cell in "$none" "$delay"; do
	expect_eq "${cell##*/} pop script form" \
		"$(jq -r '.bpftrace.__pcpu_freelist_pop.form' "$cell/cell.json")" kprobe
done
# --bpftrace NAME,NAME: each script's NDJSON kept and read.
for cell in "$none" "$delay"; do
	for bt in __pcpu_freelist_pop alloc_htab_elem; do
		[ -s "$cell/bpftrace/$bt.ndjson" ] || fail "${cell##*/}: no bpftrace/$bt.ndjson"
		expect_cmp "${cell##*/} $bt @ns count" \
			"$(jq ".bpftrace.$bt.hists[\"@ns\"].count // 0" "$cell/cell.json")" ">" 0
	done
done
grep -q "fault" "$d/run.out" || fail "run table lacks the fault column"
# report: the fault is a column and a series of its own.
"$HT" report "$d/run" > /dev/null || fail "report exit $?"
head -1 "$d/run/summary.csv" | grep -q '"\?fault"\?,' || fail "summary.csv lacks a fault column"
grep -q "$spec" "$d/run/summary.csv" || fail "summary.csv lacks $spec"
grep -q "$spec" "$d/run/report.txt" || fail "report.txt lacks $spec"
grep -q "<th>fault</th>" "$d/run/report.html" || fail "report.html lacks the fault column"
# compare: the run against itself pairs none with none and delay with delay only.
"$HT" compare "$d/run" "$d/run" --json "$d/self.json" > /dev/null || fail "compare self exit $?"
expect_eq "self groups" "$(jq '.groups | length' "$d/self.json")" 2
expect_eq "self groups pair equal faults" \
	"$(jq '[.groups[] | select(.fault_a != .fault_b)] | length' "$d/self.json")" 0
# one run, one kernel: nothing to compare across kernels; --base-fault none pairs them.
"$HT" compare "$d/run" > /dev/null 2>&1; expect_eq "compare RUN (one kernel)" "$?" 2
"$HT" compare "$d/run" --base-fault none --json "$d/faults.json" > "$d/faults.txt" ||
	fail "compare --base-fault exit $?"
cat "$d/faults.txt"
expect_eq "fault groups" "$(jq -r '.groups[] | "\(.fault_a) \(.fault_b)"' "$d/faults.json")" \
	"none $spec"
expect_cmp "pop p50 change %" \
	"$(jq '.groups[0].metrics[] | select(.name == "bpftrace.pop.p50") | .change_pct' "$d/faults.json")" \
	">" 0
expect_no_kernel_report "$d"/run/*/console.log
# The module validates the spec: one it refuses is the cell's setup error.
"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 1 --out "$d/bad" --bpftrace none \
	--fault delay:no_such_symbol_htab:1us > "$d/bad.out" 2>&1; expect_eq "bad fault run exit" "$?" 1
expect_eq "bad fault verdict" "$(jq -r '.cells[0].verdict' "$d/bad/summary.json")" FAIL
sig=$(jq -r '.cells[0].signature' "$d/bad/summary.json")
[[ $sig == "setup error: insmod refused"* ]] || fail "bad fault signature: '$sig'"
echo "ok: bad fault: $sig"
