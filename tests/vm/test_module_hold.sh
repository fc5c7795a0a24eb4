#!/bin/bash
# Issue 16: the module's hold=1 gate, on the distro kernel (no gcov needed):
# the controller waits for the runner after the setup and before the verdict,
# each write to debugfs gate lets it go on, and rmmod ends a waiting module
# (tests/vm/jobs/hold_gate.sh). The run it holds is an ordinary one.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir module_hold)
"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 1 --bpftrace none \
	--job-script "$ROOT/tests/vm/jobs/hold_gate.sh" --out "$d" > "$d.out" 2>&1
rc=$?
cell_dir c "$d" vcpus=2
cat "$c/hold.txt" 2>/dev/null
expect_eq "harness exit" "$rc" 0
expect_eq "verdict" "$(jq -r '.cells[0].verdict' "$d/summary.json")" PASS
grep -q '^still ready after 2 s$' "$c/hold.txt" || fail "no wait at ready"
grep -q '^still measured after 1 s, results not final$' "$c/hold.txt" || fail "no wait at measured"
grep -q '^rmmod while holding: gone$' "$c/hold.txt" || fail "rmmod while holding"
j="$c/hold.json"
expect_eq "held run's result" "$(jq -r .result "$j")" SUCCESS
expect_eq "held run's hold parameter" "$(jq .params.hold "$j")" 1
expect_cmp "held run's ops" "$(jq .totals.ops "$j")" ">" 0
# The workers ran their 0.5 s after the first gate, not during the 2 s wait.
expect_cmp "held run's duration (ms)" "$(jq '.duration_ns / 1e6' "$j")" "<" 1500
expect_no_kernel_report "$c/console.log"
