#!/bin/bash
# The report's coverage section on fixture cells, without a VM: the fixture
# tests/fixtures/coverage/fx.c is built with gcc --coverage in a scratch
# tree and run once per cell (`fx 12` runs sum_to() and the inlined clamp(),
# `fx 2` neither); each cell holds only gcov/workload/<a build path that is
# not the tree's>/sub/fx.gcda and a cell.json naming the tree, so `report`
# redoes coverage.json, merges the cells of a workload (union) and writes
# genhtml's annotated source per workload. Rows and figures are gcc 12's.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir coverage_report)
tree="$d/tree" run="$d/run"
mkdir -p "$tree/sub" "$run"
cp "$ROOT/tests/fixtures/coverage/fx.c" "$tree/sub/"
(cd "$tree" && gcc --coverage -O2 -c -o sub/fx.o sub/fx.c && gcc --coverage -o fx sub/fx.o) ||
	fail "cannot build the fixture"

# snap ID SNAPSHOT ARG: CELL/gcov/SNAPSHOT of a guest that ran `fx ARG`
snap() {
	local c="$run/$1"
	rm -f "$tree/sub/fx.gcda"
	(cd "$tree" && ./fx "$3") || true
	mkdir -p "$c/gcov/$2/build/old-checkout/sub"
	mv "$tree/sub/fx.gcda" "$c/gcov/$2/build/old-checkout/sub/"
}
# cell ID WORKLOAD ARG REPEAT: one cell whose guest ran `fx ARG`
cell() {
	local c="$run/$1"
	snap "$1" workload "$3"
	jq -n --arg id "$1" --arg w "$2" --arg tree "$tree" --argjson r "$4" \
		'{cell: $id, vcpus: 4, workload: $w, kernel: "coverage", noise: "none", repeat: $r,
		  accel: "tcg", verdict: "PASS", signature: "", coverage: {tree: $tree}}' > "$c/cell.json"
}
w1=$(workloads | sed -n 1p) w2=$(workloads | sed -n 2p)
[ -n "$w1" ] && [ -n "$w2" ] && [ "$w1" != "$w2" ] || fail "need two workloads in kmod/workloads.h"
cell "v4-$w1-coverage-none-r0" "$w1" 12 0
cell "v4-$w2-coverage-none-r0" "$w2" 2 0
cell "v4-$w2-coverage-none-r1" "$w2" 2 1
# One cell has the module's whole life too: its setup ran sum_to (fx 12),
# its rmmod snapshot (after the window) did not (fx 2).
snap "v4-$w2-coverage-none-r1" setup 12
snap "v4-$w2-coverage-none-r1" rmmod 2

"$HT" report "$run" > "$d/report.out" 2> "$d/report.err" || fail "report: $(cat "$d/report.err")"
[ ! -s "$d/report.err" ] || fail "report said: $(cat "$d/report.err")"
for c in "$run"/v4-*; do
	[ -s "$c/coverage.json" ] && [ -s "$c/coverage-workload.info" ] ||
		fail "$c: report did not redo coverage.json and the tracefile"
done
txt="$run/report.txt"
row() { awk -v n="$1" '$1 == n { $1 = ""; sub(/^ /, ""); print; exit }' "$txt"; }
# Columns: w1 (1 cell), w2 (2 cells), all workloads, insmod to rmmod (w2's r1
# cell: setup and rmmod); lines hit/total branches hit/total.
expect_eq "clamp (inlined)" "$(row clamp)" "1/1 0/0 0/1 0/0 1/1 0/0 1/1 0/0"
expect_eq "sum_to" "$(row sum_to)" "4/4 2/2 0/4 0/2 4/4 2/2 4/4 2/2"
expect_eq "main" "$(row main)" "4/4 2/4 3/4 2/4 4/4 3/4 4/4 3/4"
expect_eq "fx.c totals" "$(row fx.c)" "100.0% 66.7% 33.3% 33.3% 100.0% 83.3% 100.0% 83.3%"
grep -q '^Last column, "insmod to rmmod": .*1 cells' "$txt" || fail "report.txt does not explain the last column"
jq -e '.coverage["insmod to rmmod"] | .cells == 1 and .snapshot == "setup+rmmod"' \
	"$run/summary.json" > /dev/null ||
	fail "summary.json lacks the insmod to rmmod figures"
grep -q "^kernel: coverage (the coverage variant" "$txt" || fail "report.txt lacks the kernel label"
grep -q "^(tcg: emulated" "$txt" || fail "report.txt lacks the tcg label"
for w in "$w1" "$w2"; do
	[ -s "$run/coverage/$w/index.html" ] || fail "no genhtml output for $w"
	grep -q "href=\"coverage/$w/index.html\"" "$run/report.html" || fail "report.html lacks the link for $w"
done
echo "ok: annotated source per workload, linked from report.html"

# A failing gcov is an error naming the file, never a missing figure.
rm -f "$run/v4-$w1-coverage-none-r0/coverage.json"
(cd "$tree" && gcc --coverage -O0 -c -o sub/fx.o sub/fx.c)	# another .gcno: stamp mismatch
"$HT" report "$run" > /dev/null 2> "$d/report.err"
grep -q "error: coverage: v4-$w1-coverage-none-r0: gcov failed on .*fx.gcda" "$d/report.err" ||
	fail "a failing gcov was not reported: $(cat "$d/report.err")"
grep -q "error: v4-$w1-coverage-none-r0: gcov failed on" "$txt" || fail "report.txt does not say gcov failed"
echo "ok: a failing gcov is an error naming the .gcda"
