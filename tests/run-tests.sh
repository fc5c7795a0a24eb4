#!/bin/bash
# Runs every test of the kit and ends with one line "N passed, N failed, N skipped".
# Each test is a program: exit 0 pass, 77 skip, anything else fail; its
# output is in tests/out/NAME.log. Each result line gives the test's wall
# and CPU seconds (user + system of everything it waited for: its guests).
# TESTS="pattern" limits the run to test names matching the pattern.
#
# Order, so that a fresh clone's one cold kernel build is hidden and a
# broken build fails in seconds, not minutes:
# 1. The kernel variants the selected tests name on a "# run-tests: needs
#    VARIANT..." line are built in the background from the start, in the
#    order the tests name them (build-kernel.sh runs niced; a test reaching
#    a tree still being built waits on its lock and gets the cached result).
# 2. Meanwhile two lanes side by side: unit tests (cmocka) then the host
#    tests (tests/host, no guest); and the VM tests, one guest at a time:
#    before each, a test whose variants have been built since goes first;
#    the VM tests that need no variant fill the time the builds take.
#    Once the first variant is built (the cold one; the others are seeded
#    copies of it, ~1 min each), the VM tests run up to VM_LANES (default
#    2) at a time: one small guest leaves a CPU idle that only the build
#    could take.
# 3. Once both lanes and the builds are done, those marked "# run-tests:
#    quiet" one at a time (they assert timings, so nothing runs beside them).
# PREPARE (make check: make all image) runs once the background build has
# started, before any test; if it fails, no test runs.
cd "$(dirname "$0")/.." || exit 2
out=tests/out
mkdir -p "$out"
results=$out/.results
: > "$results"

prepare=${PREPARE:-}
unset PREPARE	# not the tests': test_run_tests_order runs this script itself
lanes=${VM_LANES:-2}
[[ $lanes =~ ^[1-9][0-9]*$ ]] || { echo "VM_LANES '$lanes': must be a whole number >= 1" >&2; exit 2; }

selected() { [ -z "${TESTS:-}" ] || [[ $1 =~ $TESTS ]]; }
name_of() { basename "$1" .sh; }
# tag FILE WORD: the rest of FILE's "# run-tests: WORD ..." line; fails without one
tag() { sed -n "s/^# run-tests: $2\( \(.*\)\)\{0,1\}$/\2 /p" "$1" | grep .; }

# One block of output at a time, whichever lane it comes from.
say() { { flock 9; printf '%s\n' "$@"; } 9> "$out/.say.lock"; }

# cpu_of FILE: the user + system seconds of `times`' second line (children) in FILE
cpu_of() {
	awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } }
	     END { printf "%.0f", s }' "$1" 2>/dev/null
}

run_one() {	# name, command...
	local name=$1; shift
	local log="$out/$name.log" t0=$SECONDS rc
	say "=== $name"
	( "$@" > "$log" 2>&1; rc=$?; times > "$out/.cpu-$name"; exit $rc )
	rc=$?
	case $rc in
	0) echo "pass $name" >> "$results"
	   say "--- PASS $name ($((SECONDS - t0))s, cpu $(cpu_of "$out/.cpu-$name")s)" ;;
	77) echo "skip $name" >> "$results"; say "--- SKIP $name: $(tail -n 1 "$log")" ;;
	*) echo "fail $name" >> "$results"
	   say "--- FAIL $name (exit $rc, log $log)" "$(tail -n 30 "$log" | sed 's/^/    /')" ;;
	esac
}

host=() early=() needs=() quiet=() variants=()
declare -A needs_of
for t in tests/host/test_*.sh; do
	[ -x "$t" ] && selected "$(name_of "$t")" && host+=("$t")
done
for t in tests/vm/test_*.sh; do
	[ -x "$t" ] && selected "$(name_of "$t")" || continue
	need=$(tag "$t" needs) || need=
	for v in $need; do [[ " ${variants[*]} " == *" $v "* ]] || variants+=("$v"); done
	if tag "$t" quiet > /dev/null; then
		quiet+=("$t")
	elif [ -n "$need" ]; then
		needs+=("$t")
		needs_of[$t]=$need
	else
		early+=("$t")
	fi
done

# The background build marks each variant in $built as it ends: V.ok, or
# V.failed (the tests that need it then build it again and show why).
built=$out/.built
rm -rf "$built"
mkdir -p "$built"
build_pid=
if [ ${#variants[@]} -gt 0 ]; then
	say "=== building ${variants[*]} in the background (log $out/build-variants.log)"
	(
		t0=$SECONDS
		for v in "${variants[@]}"; do
			if vm-images/build-kernel.sh "$v"; then
				touch "$built/$v.ok"
			else
				for w in "${variants[@]}"; do [ -e "$built/$w.ok" ] || touch "$built/$w.failed"; done
				exit 1
			fi
		done
		times > "$out/.cpu-builds"
		say "--- built ${variants[*]} in the background ($((SECONDS - t0))s, cpu $(cpu_of "$out/.cpu-builds")s)" >&3
	) 3>&1 > "$out/build-variants.log" 2>&1 &
	build_pid=$!
fi

# built_for TEST: every variant TEST needs has ended its build (or the build is gone)
built_for() {
	local v
	[ -n "$build_pid" ] && kill -0 "$build_pid" 2>/dev/null || return 0
	for v in ${needs_of[$1]}; do
		[ -e "$built/$v.ok" ] || [ -e "$built/$v.failed" ] || return 1
	done
}

# vm_lanes: how many VM tests may run at once now: one while the first
# variant builds (cold, the longest path: the build takes what a single
# guest leaves), then VM_LANES (the rest are seeded copies, ~1 min each).
vm_lanes() {
	if [ -n "$build_pid" ] && kill -0 "$build_pid" 2>/dev/null &&
	   [ ! -e "$built/${variants[0]}.ok" ] && [ ! -e "$built/${variants[0]}.failed" ]; then
		echo 1
	else
		echo "$lanes"
	fi
}

if [ -n "$prepare" ] && ! bash -c "$prepare"; then
	say "--- FAIL: $prepare"
	kill_tree() { local c; for c in $(pgrep -P "$1"); do kill_tree "$c"; done; kill "$1" 2> /dev/null; }
	[ -z "$build_pid" ] || kill_tree "$build_pid"
	exit 1
fi
(
	selected unit && run_one unit make -C tests/unit check
	for t in "${host[@]}"; do run_one "$(name_of "$t")" "$t"; done
) &
host_pid=$!
# The VM tests: whenever a lane is free, a test whose variants are built,
# else the next that needs none.
declare -A lane_pids
while [ ${#needs[@]} -gt 0 ] || [ ${#early[@]} -gt 0 ] || [ ${#lane_pids[@]} -gt 0 ]; do
	for p in "${!lane_pids[@]}"; do
		kill -0 "$p" 2> /dev/null || { wait "$p"; unset "lane_pids[$p]"; }
	done
	next=
	if [ ${#lane_pids[@]} -lt "$(vm_lanes)" ]; then
		rest=()
		for t in "${needs[@]}"; do
			if [ -z "$next" ] && built_for "$t"; then next=$t; else rest+=("$t"); fi
		done
		needs=("${rest[@]}")
		if [ -z "$next" ] && [ ${#early[@]} -gt 0 ]; then
			next=${early[0]}
			early=("${early[@]:1}")
		fi
	fi
	if [ -n "$next" ]; then
		run_one "$(name_of "$next")" "$next" &
		lane_pids[$!]=$next
	else
		sleep 1
	fi
done
wait "$host_pid"
if [ -n "$build_pid" ] && ! wait "$build_pid"; then
	say "--- the background build failed (log $out/build-variants.log); the tests that need it built again"
fi
for t in "${quiet[@]}"; do run_one "$(name_of "$t")" "$t"; done

pass=$(grep -c '^pass ' "$results") fail=$(grep -c '^fail ' "$results") skip=$(grep -c '^skip ' "$results")
[ "$fail" -gt 0 ] && echo "failed: $(sed -n 's/^fail //p' "$results" | paste -sd' ')"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
