#!/bin/bash
# Crashes are classified seconds after their first console line, with the
# report's excerpt in cell.json (issue 11):
# 1. 2 vCPUs, test actions panic and warn: the panic ends the guest at once;
#    the WARNING leaves it running, so it finishes within the grace, module
#    results and all. Both CRASH, each with its excerpt.
# 2. 2 vCPUs, a job that prints an Oops and then waits forever: the harness
#    stops QEMU --crash-grace (5 s) after the Oops line, not at the 300 s host
#    timeout.
# 3. 4 vCPUs, the module's own selftest=oops (a NULL dereference in worker 0),
#    when the module has it: verdict <= 20 s after the first Oops line.
# run-tests: quiet
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir crash_grace)
excerpt() { jq -j .crash.excerpt "$1/cell.json"; }	# as it is: it ends with its newline

actions() {	# OUT-NAME: the panic and warn cells side by side
	"$HT" run "${RESTORE[@]}" --cpus 2 --test-action panic,warn --bpftrace none --duration 1 --timeout 120 \
		--jobs 2 --out "$d/$1" > "$d/$1.out" 2> "$d/$1.err"
	rc=$?
	cat "$d/$1.err"
}
actions actions
cell_dir p "$d/actions" test_action=panic
cell_dir w "$d/actions" test_action=warn
# A TCG guest that never reached its test action (one CI run: the panic cell
# still running at 120 s, cause not kept) says nothing about classification:
# such a run is repeated once, and says so. A guest that did panic is never
# given a second chance: then the harness missed it, and that fails.
if [ "$(cj "$p" .verdict)" = TIMEOUT ] && ! grep -q 'sysrq: Trigger a crash' "$p/console.log"; then
	echo "note: the panic guest never reached its test action; its console ends:"
	tail -n 15 "$p/console.log" | sed 's/^/    /'
	jq -c .timings "$p/cell.json"
	actions actions2
	cell_dir p "$d/actions2" test_action=panic
	cell_dir w "$d/actions2" test_action=warn
fi
expect_eq "exit of the test-action run" "$rc" 1
[ "$(cj "$p" .verdict)" = CRASH ] || { echo "panic cell's console ends:"; tail -n 15 "$p/console.log"; }
expect_eq "panic verdict" "$(cj "$p" '.verdict + " | " + .signature')" \
	"CRASH | kernel panic: sysrq triggered crash"
expect_eq "panic kind" "$(cj "$p" .crash.kind)" panic
[[ $(excerpt "$p" | head -n 1) == *"] Kernel panic - not syncing: sysrq triggered crash" ]] ||
	fail "panic excerpt starts: $(excerpt "$p" | head -n 1)"
excerpt "$p" | grep -q 'sysrq_handle_crash' || fail "panic excerpt lacks its call trace"
expect_eq "panic: the guest ended itself" "$(cj "$p" .crash.stopped_after_grace)" false
expect_cmp "panic seen at (host s)" "$(cj "$p" .crash.seen_host_s)" ">" 0
expect_eq "crash_grace_s recorded" "$(cj "$p" .crash_grace_s)" 10
expect_eq "warn verdict" "$(cj "$w" '.verdict + " | " + .signature')" "CRASH | WARNING in test_warning"
expect_eq "warn cell finished its module within the grace" "$(cj "$w" .module_result)" SUCCESS
expect_eq "warn: the guest ended itself" "$(cj "$w" .crash.stopped_after_grace)" false
# The test action's WARNING has no trace: the excerpt is that line, the runner's lines are not in it.
[[ $(excerpt "$w") == *"] WARNING: CPU: 0 PID: 1 at test/htab_torture.c:1 test_warning+0x0/0x10" ]] ||
	fail "warn excerpt: $(excerpt "$w")"
expect_eq "warn excerpt lines" "$(excerpt "$w" | wc -l)" 1

"$HT" run "${RESTORE[@]}" --cpus 2 --job-script "$ROOT/tests/vm/jobs/fake_oops.sh" --crash-grace 5 \
	--bpftrace none --duration 1 --timeout 300 --out "$d/stop" > "$d/stop.out" 2> "$d/stop.err"
rc=$?
cat "$d/stop.err"
expect_eq "exit of the Oops-then-silence run" "$rc" 1
cell_dir s "$d/stop" vcpus=2
expect_eq "verdict" "$(cj "$s" '.verdict + " | " + .signature')" \
	"CRASH | BUG: kernel NULL pointer dereference in __pcpu_freelist_pop"
expect_eq "stopped by the harness" "$(cj "$s" .crash.stopped_after_grace)" true
expect_eq "crash_grace_s" "$(cj "$s" .crash_grace_s)" 5
lat=$(cj "$s" .crash.latency_s)
echo "Oops seen at $(cj "$s" .crash.seen_host_s) s, verdict at $(cj "$s" .crash.verdict_host_s) s: latency $lat s"
expect_cmp "latency (>= the grace)" "$lat" ">=" 5
expect_cmp "latency (grace + SIGTERM wait + polls)" "$lat" "<=" 10
expect_cmp "wall, far below the 300 s host timeout" "$(cj "$s" .timings.wall_s)" "<" 150
expect_eq "excerpt ends with the end-trace line" "$(excerpt "$s" | tail -n 1 | sed 's/^\[[ 0-9.]*\] //')" \
	"---[ end trace 0000000000000000 ]---"
excerpt "$s" | grep -q 'ht_worker+0xa8/0x140 \[htab_torture\]' || fail "excerpt lacks the trace"
excerpt "$s" | grep -q 'runner:' && fail "the runner's lines are in the excerpt"

modinfo -F parm "$ROOT/kmod/htab_torture.ko" | grep -q '^selftest:.*oops' ||
	fail "kmod/htab_torture.ko has no selftest=oops"
"$HT" run "${RESTORE[@]}" --cpus 4 --modparam selftest=oops --bpftrace none --duration 3 \
	--out "$d/oops" > "$d/oops.out" 2> "$d/oops.err"
rc=$?
cat "$d/oops.err"
expect_eq "exit of the selftest=oops run" "$rc" 1
cell_dir o "$d/oops" vcpus=4
[[ $(cj "$o" .signature) == "BUG: kernel NULL pointer dereference"* ]] ||
	fail "selftest=oops signature: $(cj "$o" .signature)"
expect_eq "not qualified as emulation" "$(cj "$o" .crash.under_overcommit)" false
excerpt "$o" | grep -q 'ht_worker' || fail "selftest=oops excerpt lacks ht_worker"
lat=$(cj "$o" .crash.latency_s)
echo "selftest=oops at 4 vCPUs: Oops seen at $(cj "$o" .crash.seen_host_s) s, verdict at $(cj "$o" .crash.verdict_host_s) s: latency $lat s"
expect_cmp "verdict after the first Oops line (s)" "$lat" "<=" 20
sleep 1
pgrep -f -- "$d/" > /dev/null && fail "a QEMU of this test is still there: $(pgrep -af -- "$d/")"
echo "ok: no QEMU left"
