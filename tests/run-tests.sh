#!/bin/bash
# Runs every test of the kit and ends with one line "N passed, N failed, N skipped".
# Each test is a program: exit 0 pass, 77 skip, anything else fail; its
# output is in tests/out/NAME.log.
# TESTS="pattern" limits the run to test names matching the pattern.
#
# Order, so that a fresh clone's one cold kernel build is hidden and a
# broken build fails in seconds, not minutes:
# 1. The kernel variants the selected tests name on a "# run-tests: needs
#    VARIANT..." line are built in the background from the start
#    (build-kernel.sh runs niced; a test reaching a tree still being built
#    waits on its lock and gets the cached result).
# 2. Meanwhile two lanes side by side: unit tests (cmocka) then the host
#    tests (tests/host, no guest), and the VM tests that need no variant.
# 3. Once both lanes and the builds are done, the rest one at a time: the
#    VM tests that need a variant and those marked "# run-tests: quiet"
#    (they assert timings, so nothing else runs beside them).
cd "$(dirname "$0")/.." || exit 2
out=tests/out
mkdir -p "$out"
results=$out/.results
: > "$results"

selected() { [ -z "${TESTS:-}" ] || [[ $1 =~ $TESTS ]]; }
name_of() { basename "$1" .sh; }
# tag FILE WORD: the rest of FILE's "# run-tests: WORD ..." line; fails without one
tag() { sed -n "s/^# run-tests: $2\( \(.*\)\)\{0,1\}$/\2 /p" "$1" | grep .; }

# One block of output at a time, whichever lane it comes from.
say() { { flock 9; printf '%s\n' "$@"; } 9> "$out/.say.lock"; }

run_one() {	# name, command...
	local name=$1; shift
	local log="$out/$name.log" t0=$SECONDS rc
	say "=== $name"
	"$@" > "$log" 2>&1
	rc=$?
	case $rc in
	0) echo "pass $name" >> "$results"; say "--- PASS $name ($((SECONDS - t0))s)" ;;
	77) echo "skip $name" >> "$results"; say "--- SKIP $name: $(tail -n 1 "$log")" ;;
	*) echo "fail $name" >> "$results"
	   say "--- FAIL $name (exit $rc, log $log)" "$(tail -n 30 "$log" | sed 's/^/    /')" ;;
	esac
}

host=() early=() late=() variants=()
for t in tests/host/test_*.sh; do
	[ -x "$t" ] && selected "$(name_of "$t")" && host+=("$t")
done
for t in tests/vm/test_*.sh; do
	[ -x "$t" ] && selected "$(name_of "$t")" || continue
	if need=$(tag "$t" needs); then
		late+=("$t")
		for v in $need; do [[ " ${variants[*]} " == *" $v "* ]] || variants+=("$v"); done
	elif tag "$t" quiet > /dev/null; then
		late+=("$t")
	else
		early+=("$t")
	fi
done

build_pid=
if [ ${#variants[@]} -gt 0 ]; then
	say "=== building ${variants[*]} in the background (log $out/build-variants.log)"
	(
		t0=$SECONDS
		for v in "${variants[@]}"; do vm-images/build-kernel.sh "$v" || exit; done
		say "--- built ${variants[*]} in the background ($((SECONDS - t0))s)" >&3
	) 3>&1 > "$out/build-variants.log" 2>&1 &
	build_pid=$!
fi

(
	selected unit && run_one unit make -C tests/unit check
	for t in "${host[@]}"; do run_one "$(name_of "$t")" "$t"; done
) &
host_pid=$!
for t in "${early[@]}"; do run_one "$(name_of "$t")" "$t"; done
wait "$host_pid"
if [ -n "$build_pid" ] && ! wait "$build_pid"; then
	say "--- the background build failed (log $out/build-variants.log); the tests that need it build again"
fi
for t in "${late[@]}"; do run_one "$(name_of "$t")" "$t"; done

pass=$(grep -c '^pass ' "$results") fail=$(grep -c '^fail ' "$results") skip=$(grep -c '^skip ' "$results")
[ "$fail" -gt 0 ] && echo "failed: $(sed -n 's/^fail //p' "$results" | paste -sd' ')"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
