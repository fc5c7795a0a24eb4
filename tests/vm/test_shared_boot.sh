#!/bin/bash
# Shared boots (the default): cells of one kernel and vCPU count run in one
# guest, a fresh insmod each, and a cell that breaks the guest ends its boot.
# 1. none, panic, hang, warn, one at a time: the PASS lets the panic into
#    its boot; the panic ends that boot (QEMU gone), the hang is a TIMEOUT
#    on a fresh guest, the warn's taint (W, as a real WARN sets) is said by
#    the guest and it CRASHes on a fresh guest too: 3 boots for 4 cells,
#    each verdict as in a boot of its own, each cell's console.log holding
#    its own job and no other's. (The protocol's other paths, with a fake
#    QEMU: tests/host/test_shared_boot_protocol.sh.)
# 2. kill -9 of the harness inside a boot of three cells: no QEMU outlives
#    it; the rerun runs the rest and leaves every cell one cell.json, those
#    finished before untouched and started once.
# run-tests: quiet
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir shared_boot)

boot_of() { jq -r '.boot.name + " " + (.boot.cell_in_boot | tostring)' "$1/cell.json"; }
own_job_only() {	# CELL: its console names its own job, no other cell's
	local id=${1##*/} jobs
	jobs=$(grep -o 'job /run/cell/[^ ]*' "$1/console.log" | tr -d '\r' | sort -u | paste -sd' ')
	expect_eq "$id: jobs in its console.log" "$jobs" "job /run/cell/$id"
}

r=$d/problems
"$HT" run --cpus 2 --restore off --workload full_update --test-action none,panic,hang,warn --jobs 1 \
	--bpftrace none --duration 1 --timeout 30 --out "$r" > "$r.out" 2> "$r.err"
rc=$?
cat "$r.err"
expect_eq "exit (some cell not PASS)" "$rc" 1
for a in none panic hang warn; do cell_dir "$a" "$r" test_action=$a; done
v() { jq -r '.verdict + " | " + .signature' "$1/cell.json"; }
expect_eq "none" "$(v "$none")" "PASS | "
[[ $(v "$panic") == "CRASH | kernel panic"* ]] || fail "panic: $(v "$panic")"
[[ $(v "$hang") == "TIMEOUT | "* ]] || fail "hang: $(v "$hang")"
expect_eq "warn" "$(v "$warn")" "CRASH | WARNING in test_warning"
expect_eq "warn still ran the module" "$(jq -r .module_result "$warn/cell.json")" SUCCESS
expect_eq "warn: the guest said" "$(jq -r .boot.state_after "$warn/cell.json")" taint-512
# A boot that stalled under TCG before its runner is booted again as
# NAME.2 (verdict_boot_retry; seen once at 2 vCPUs in a CI): the cell
# that boots it says so (boot_retried), and its boot counts twice.
attempt() { jq -r 'if .boot_retried then 2 else 1 end' "$1/cell.json"; }
retried=0
for c in "$none" "$hang" "$warn"; do retried=$((retried + $(attempt "$c") - 1)); done
expect_eq "none is its boot's first" "$(boot_of "$none")" "${none##*/}.$(attempt "$none") 1"
expect_eq "the panic ran in the same boot" "$(boot_of "$panic")" "${none##*/}.$(attempt "$none") 2"
expect_eq "the hang booted a fresh guest" "$(boot_of "$hang")" "${hang##*/}.$(attempt "$hang") 1"
expect_eq "the warn booted a fresh guest" "$(boot_of "$warn")" "${warn##*/}.$(attempt "$warn") 1"
for c in "$none" "$panic" "$hang" "$warn"; do own_job_only "$c"; done
expect_eq "the PASS before the panic: the boot went on" "$(jq .boot.went_on "$none/cell.json")" true
expect_eq "... and QEMU did not exit then" "$(jq .qemu_exit "$none/cell.json")" null
pc=$panic/console.log
expect_eq "the panic's console part" "$("$HT" scan "$pc")" "$pc: panic: kernel panic: sysrq triggered crash"
grep -q 'htab-init: up at' "$pc" && fail "the panic's console part holds the boot"
grep -q 'htab-init: up at' "$none/console.log" || fail "the boot's first cell's console part lacks the boot"
expect_eq "boots" "$(ls "$r/boots" | wc -l)" $((3 + retried))
expect_eq "summary cells" "$(jq '.cells | length' "$r/summary.json")" 4
# The second cell of a boot paid no boot: the runner starts within seconds of it being sent.
expect_cmp "panic: host s to its runner" "$(jq .host_timings.boot_s "$panic/cell.json")" "<" 5
sleep 1
pgrep -f -- "$r/" > /dev/null && fail "a QEMU of this run is still there: $(pgrep -af -- "$r/")"
echo "ok: no QEMU left"

r=$d/resume
args=(run --cpus 1 --workload full_update,overwrite,churn --jobs 1 --bpftrace none --duration 2 --out "$r")
kill9_after_first_cell "$r" "$r.out1" "$r.err1" "${args[@]}"
rerun_finishes_the_rest "$r" "$r.out2" "$r.err2" 3 "${args[@]}"
cat "$r.err2"
expect_eq "the rerun's cells shared one boot" \
	"$(grep -c 'started in boot' "$r.err2")" "$(( 3 - KEPT - 1 ))"
