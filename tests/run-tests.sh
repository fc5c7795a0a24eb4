#!/bin/bash
# Runs every test of the kit and ends with one line "N passed, N failed".
# Order: host unit tests (cmocka), host-side shell tests (no VM), then VM
# tests, cheapest first, so a broken build fails in seconds, not minutes.
# Each test is a program: exit 0 pass, 77 skip, anything else fail.
# TESTS="pattern" limits the run to test names matching the pattern.
cd "$(dirname "$0")/.." || exit 2
out=tests/out
mkdir -p "$out"
pass=0 fail=0 skip=0 failed=()

run_one() {	# name, command...
	local name=$1; shift
	[ -n "${TESTS:-}" ] && [[ ! $name =~ $TESTS ]] && return
	local log="$out/$name.log" t0=$SECONDS rc
	echo "=== $name"
	"$@" > "$log" 2>&1
	rc=$?
	case $rc in
	0) pass=$((pass + 1)); echo "--- PASS $name ($((SECONDS - t0))s)" ;;
	77) skip=$((skip + 1)); echo "--- SKIP $name: $(tail -n 1 "$log")" ;;
	*) fail=$((fail + 1)); failed+=("$name"); echo "--- FAIL $name (exit $rc, log $log)"
	   tail -n 30 "$log" | sed 's/^/    /' ;;
	esac
}

run_one unit make -C tests/unit check
for t in tests/host/test_*.sh tests/vm/test_*.sh; do
	[ -x "$t" ] || continue
	run_one "$(basename "$t" .sh)" "$t"
done

[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
