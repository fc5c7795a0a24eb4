#!/bin/bash
# lib.sh's cell_dir, which the VM tests ask for a cell's directory instead
# of spelling its id: on a run dir whose summary.json lists the cells of a
# real plan (2 vCPU counts x 2 workloads x 2 faults x test actions none and
# panic), it finds each cell by its axes, a cell without test_action at
# none; it fails, saying why, on no match, several, a key that is no axis,
# a word that is not AXIS=VALUE, a run without summary.json and a listed
# cell without its directory.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir cell_dir)
r=$d/run
spec=delay:__pcpu_freelist_pop:10us
"$HT" run --plan-only --json --cpus 2,4 --workload churn,full_update --fault none --fault "$spec" \
	--test-action none,panic --out "$r" > "$d/plan.json" || fail "plan-only exit $?"
expect_eq "plan cells" "$(jq length "$d/plan.json")" 16
jq '{cells: map(del(.dir) | {cell: .id} + del(.id))}' "$d/plan.json" > "$d/summary.json"
mkdir -p "$r" && mv "$d/summary.json" "$r/"
jq -r '.[].dir' "$d/plan.json" | xargs mkdir -p

cell_dir c "$r" vcpus=4 workload=churn fault=none test_action=none
expect_eq "churn at 4, no fault, no action" "$c" "$r/v4-churn-distro-none-r0"
cell_dir c "$r" test_action=panic fault="$spec" workload=full_update vcpus=2
expect_eq "full_update at 2, the delay, panic" "$c" \
	"$r/v2-full_update-distro-none-r0-fdelay___pcpu_freelist_pop_10us-xpanic"
cell_dir c "$r" vcpus=2 workload=churn fault=none test_action=panic kernel=distro repeat=0 prealloc=1
expect_eq "every axis given" "$c" "$r/v2-churn-distro-none-r0-xpanic"
# Each call of cell_dir gives the directory of each plan cell.
n=0
while read -r v w f x want; do
	cell_dir c "$r" vcpus="$v" workload="$w" fault="$f" test_action="$x"
	[ "$c" = "$want" ] || fail "vcpus=$v workload=$w fault=$f test_action=$x: got $c, want $want"
	n=$((n + 1))
done < <(jq -r '.[] | "\(.vcpus) \(.workload) \(.fault) \(.test_action // "none") \(.dir)"' "$d/plan.json")
expect_eq "cells found by their axes" "$n" 16

refused() {	# WANT AXIS=VALUE...: cell_dir on the run fails, saying WANT
	local want=$1 err
	shift
	err=$( (cell_dir c "$r" "$@") 2>&1 > /dev/null) && fail "cell_dir $*: passed"
	[[ $err == *"$want"* ]] || fail "cell_dir $*: '$err' lacks '$want'"
	echo "ok: refused: $err"
}
refused "no cell of $r has vcpus=8" vcpus=8
refused "several cells of $r have vcpus=2 workload=churn fault=none: v2-churn-distro-none-r0 v2-churn-distro-none-r0-xpanic" \
	vcpus=2 workload=churn fault=none
refused "'cpus' is not an axis (axes: " cpus=2
refused "'vcpus' is not AXIS=VALUE" vcpus
refused "no AXIS=VALUE"
rm -r "$r/v4-churn-distro-none-r0"
refused "lists v4-churn-distro-none-r0, no such directory" vcpus=4 workload=churn fault=none test_action=none
err=$( (cell_dir c "$d" vcpus=2) 2>&1 > /dev/null) && fail "cell_dir without summary.json passed"
expect_eq "without summary.json" "$err" "FAIL: cell_dir: no $d/summary.json"
