#!/bin/bash
# Issue 3: rmmod at any moment (mid-fill, mid-run, mid-verdict), 20 times in
# a row: each rmmod succeeds, leaves no module and no debugfs directory, and
# the guest logs no splat.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir module_rmmod_midrun)
"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 1 --bpftrace none \
	--job-script "$ROOT/tests/vm/jobs/rmmod_midrun.sh" --out "$d" || fail "harness exit $?"
t=$(ls "$d"/*/rmmod.txt) || fail "no rmmod.txt"
expect_eq "cycles" "$(wc -l < "$t")" 20
expect_eq "clean cycles" "$(grep -c ' rmmod=0 ok ' "$t")" 20
expect_cmp "cycles that hit a running module" "$(grep -c ' running ' "$t")" ">=" 10
expect_eq "verdict" "$(jq -r '.cells[0].verdict' "$d/summary.json")" PASS
expect_no_kernel_report "$d"/*/console.log "$d"/*/dmesg.txt
