#!/bin/bash
# One matrix with three broken guests (test actions are an axis): one panics
# (sysrq crash), one hangs, one prints a WARNING and then runs the module.
# Each is classified (CRASH / TIMEOUT / CRASH "WARNING in …"), the matrix
# finishes, exits 1, and no QEMU is left. --jobs 3: the three run at once,
# each in a boot of its own (--boot-per-cell; tests/vm/test_shared_boot.sh
# has them inside shared boots).
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir matrix_problems)
"$HT" run "${RESTORE[@]}" --cpus 2 --test-action panic,hang,warn --bpftrace none --duration 1 --boot-per-cell \
	--timeout 75 --jobs 3 --out "$d" > "$d.out" 2> "$d.err"
rc=$?
cat "$d.err"
expect_eq "harness exit (some cell not PASS)" "$rc" 1
s=$d/summary.json
expect_eq "cells" "$(jq '.cells | length' "$s")" 3
v() { jq -r --arg a "$1" '.cells[] | select(.test_action == $a) | .verdict + " | " + .signature' "$s"; }
echo "panic: $(v panic)"; echo "hang: $(v hang)"; echo "warn: $(v warn)"
[[ $(v panic) == "CRASH | kernel panic"* ]] || fail "panic cell: $(v panic)"
[[ $(v hang) == "TIMEOUT | "* ]] || fail "hang cell: $(v hang)"
expect_eq "warn cell" "$(v warn)" "CRASH | WARNING in test_warning"
expect_eq "warn cell still ran the module" \
	"$(jq -r '.cells[] | select(.test_action == "warn") | .module_result' "$s")" SUCCESS
expect_eq "finished-cell lines" "$(grep -c '^\[[0-9]/3\] ' "$d.err")" 3
expect_eq "manifest cells" "$(jq '.cells | length' "$d/manifest.json")" 3
sleep 1
pgrep -f -- "$d/" > /dev/null && fail "a QEMU of this run is still there: $(pgrep -af -- "$d/")"
echo "ok: no QEMU left"
