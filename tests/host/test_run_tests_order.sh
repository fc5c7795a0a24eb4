#!/bin/bash
# tests/run-tests.sh's order, on a tree of stub tests and a stub
# build-kernel.sh that log when they run: a VM test that needs variants runs
# in the VM lane once its variants are built, before the VM tests that need
# none and are still waiting; a quiet test runs after everything else has
# ended; a failed build does not keep its tests waiting (they run, and
# show the failure themselves); each result line gives wall and CPU seconds.
# VM tests run one at a time until the first variant is built, then
# VM_LANES (default 2) at a time; PREPARE runs before any test, and if it
# fails no test runs.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir run_tests_order)
t=$d/tree
mkdir -p "$t/tests/host" "$t/tests/vm" "$t/tests/unit" "$t/vm-images"
cp "$ROOT/tests/run-tests.sh" "$t/tests/"
ev=$d/events
printf 'check:\n\t@echo "run unit" >> %s\n' "$ev" > "$t/tests/unit/Makefile"
# The stub build: fixed takes 3 s, other variants 1 s, "bad" fails.
cat > "$t/vm-images/build-kernel.sh" <<EOF
#!/bin/bash
sleep \$([ "\$1" = fixed ] && echo 3 || echo 1)
[ "\$1" = bad ] && { echo "built \$1 failed" >> $ev; exit 1; }
echo "built \$1" >> $ev
EOF
chmod +x "$t/vm-images/build-kernel.sh"
# stub DIR/NAME TAG SECONDS: logs "run NAME" when it starts, then sleeps
stub() {
	printf '#!/bin/bash\n%s\necho "run %s" >> %s\nsleep %s\necho "end %s" >> %s\n' \
		"$3" "${2##*/}" "$ev" "$4" "${2##*/}" "$ev" > "$t/tests/$1/$2.sh"
	chmod +x "$t/tests/$1/$2.sh"
}
stub host test_h1 "" 1
for e in 1 2 3 4 5 6; do stub vm "test_e$e" "" 1.5; done
stub vm test_n1 "# run-tests: needs fixed" 0
stub vm test_n2 "# run-tests: needs fixed mut" 0
stub vm test_n3 "# run-tests: needs bad" 0
stub vm test_q1 "# run-tests: quiet" 0

(unset TESTS PREPARE VM_LANES; bash "$t/tests/run-tests.sh") > "$d/out" 2>&1
rc=$?
cat "$d/out"
echo "events: $(paste -sd'|' "$ev")"
expect_eq "exit" "$rc" 0
expect_eq "summary" "$(tail -n 1 "$d/out")" "12 passed, 0 failed, 0 skipped"

# at LINE: the line number of LINE in the event log
at() { grep -nxF "$1" "$ev" | cut -d: -f1 | grep . || fail "no '$1' in the events"; }
# Builds: fixed at ~3 s, mut at ~4 s, bad fails at ~5 s; e6 starts at ~7.5 s.
expect_cmp "n1 after fixed is built" "$(at "run test_n1")" ">" "$(at "built fixed")"
expect_cmp "n1 before the last test without variants" "$(at "run test_n1")" "<" "$(at "run test_e6")"
expect_cmp "n2 after mut is built" "$(at "run test_n2")" ">" "$(at "built mut")"
expect_cmp "n2 before the last test without variants" "$(at "run test_n2")" "<" "$(at "run test_e6")"
expect_cmp "n3 runs once its build failed" "$(at "run test_n3")" ">" "$(at "built bad failed")"
grep -q "^--- the background build failed" "$d/out" || fail "no line on the failed build"
expect_eq "quiet last" "$(grep '^run ' "$ev" | tail -n 1)" "run test_q1"
expect_cmp "one VM test at a time while fixed builds: e2 after e1" "$(at "run test_e2")" ">" "$(at "end test_e1")"
for n in unit test_h1 test_e1 test_n1 test_q1; do
	grep -qE "^--- PASS $n \([0-9]+s, cpu [0-9]+s\)$" "$d/out" || fail "no wall and cpu on $n's line"
done

# Two tests that need fixed, and no other VM test: both wait for its build,
# then run side by side (VM_LANES=2, the default), or one after the other.
for p in 1 2; do
	printf '#!/bin/bash\n# run-tests: needs fixed\necho "run test_p%s" >> %s\nsleep 2\necho "end test_p%s" >> %s\n' \
		"$p" "$ev" "$p" "$ev" > "$t/tests/vm/test_p$p.sh"
	chmod +x "$t/tests/vm/test_p$p.sh"
done
lanes() {	# VM_LANES: the events of the run of test_p1 and test_p2
	: > "$ev"
	TESTS='^test_p' VM_LANES=$1 bash "$t/tests/run-tests.sh" > "$d/out-lanes$1" 2>&1 ||
		fail "VM_LANES=$1: exit $? ($(tail -n 3 "$d/out-lanes$1"))"
	echo "VM_LANES=$1: $(paste -sd'|' "$ev")"
}
lanes 2
expect_cmp "2 lanes: p2 starts before p1 ends" "$(at "run test_p2")" "<" "$(at "end test_p1")"
expect_cmp "2 lanes: p2 starts after fixed is built" "$(at "run test_p2")" ">" "$(at "built fixed")"
lanes 1
expect_cmp "1 lane: p2 starts after p1 ends" "$(at "run test_p2")" ">" "$(at "end test_p1")"
VM_LANES=0 bash "$t/tests/run-tests.sh" > "$d/out-lanes0" 2>&1
expect_eq "VM_LANES=0: exit" $? 2
grep -q "VM_LANES '0': must be" "$d/out-lanes0" || fail "VM_LANES=0: $(cat "$d/out-lanes0")"

# PREPARE: before every test; when it fails, no test runs.
: > "$ev"
TESTS='^test_(p1|h1)$' PREPARE="echo prepare >> $ev" bash "$t/tests/run-tests.sh" > "$d/out-prep" 2>&1 ||
	fail "PREPARE: exit $?"
expect_eq "PREPARE first" "$(head -n 1 "$ev")" prepare
: > "$ev"
TESTS='^test_(p1|h1)$' PREPARE=false bash "$t/tests/run-tests.sh" > "$d/out-prep-fail" 2>&1
expect_eq "PREPARE false: exit" $? 1
grep -q '^--- FAIL: false$' "$d/out-prep-fail" || fail "no line on the failed PREPARE: $(cat "$d/out-prep-fail")"
grep -q '^run test' "$ev" && fail "a test ran after PREPARE failed: $(paste -sd'|' "$ev")"
echo "ok: no test after a failed PREPARE"
