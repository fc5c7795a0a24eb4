#!/bin/bash
# Shared boots (the default): cells of one kernel and vCPU count run in one
# guest, a fresh insmod each, and a cell that breaks the guest ends its boot.
# 1. none, panic, warn x 2 repeats, one at a time: a PASS lets the next cell
#    into the same boot, a panic ends it (QEMU gone), a WARNING's taint ends
#    it too (the guest says taint-512), and the group's next cell PASSes on a
#    fresh guest: 4 boots for 6 cells, each verdict as in a boot of its own,
#    each cell's console.log holding its own job and no other's.
# 2. hang, none x 2 repeats: a hung cell is a TIMEOUT and the next cell boots
#    a fresh guest that PASSes.
# 3. kill -9 of the harness inside a boot of three cells: no QEMU outlives
#    it; the rerun runs the rest and leaves every cell one cell.json, those
#    finished before untouched and started once.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir shared_boot)

boot_of() { jq -r '.boot.name + " " + (.boot.cell_in_boot | tostring)' "$1/cell.json"; }
own_job_only() {	# RUN ID: its console names its own job, no other cell's
	local c=$1/$2 jobs
	jobs=$(grep -o 'job /run/cell/[^ ]*' "$c/console.log" | tr -d '\r' | sort -u | paste -sd' ')
	expect_eq "$2: jobs in its console.log" "$jobs" "job /run/cell/$2"
}

r=$d/problems
"$HT" run --cpus 2 --workload full_update --test-action none,panic,warn --repeat 2 --jobs 1 \
	--bpftrace none --duration 1 --timeout 75 --out "$r" > "$r.out" 2> "$r.err"
rc=$?
cat "$r.err"
expect_eq "exit (some cell not PASS)" "$rc" 1
base=v2-full_update-distro-none
for k in 0 1; do
	expect_eq "r$k none" "$(jq -r .verdict "$r/$base-r$k/cell.json")" PASS
	[[ $(jq -r .signature "$r/$base-r$k-xpanic/cell.json") == "kernel panic"* ]] ||
		fail "r$k panic: $(jq -r '.verdict + " " + .signature' "$r/$base-r$k-xpanic/cell.json")"
	expect_eq "r$k panic verdict" "$(jq -r .verdict "$r/$base-r$k-xpanic/cell.json")" CRASH
	expect_eq "r$k warn" "$(jq -r '.verdict + " | " + .signature' "$r/$base-r$k-xwarn/cell.json")" \
		"CRASH | WARNING in test_warning"
	expect_eq "r$k warn still ran the module" "$(jq -r .module_result "$r/$base-r$k-xwarn/cell.json")" SUCCESS
	expect_eq "r$k warn: the guest said" "$(jq -r .boot.state_after "$r/$base-r$k-xwarn/cell.json")" taint-512
	expect_eq "r$k panic shares the boot of none" "$(boot_of "$r/$base-r$k-xpanic")" "$base-r$k.1 2"
	expect_eq "r$k none is its boot's first" "$(boot_of "$r/$base-r$k")" "$base-r$k.1 1"
	expect_eq "r$k warn booted a fresh guest" "$(boot_of "$r/$base-r$k-xwarn")" "$base-r$k-xwarn.1 1"
	for id in $base-r$k $base-r$k-xpanic $base-r$k-xwarn; do own_job_only "$r" "$id"; done
done
expect_eq "the PASS before the panic: the boot went on" "$(jq .boot.went_on "$r/$base-r0/cell.json")" true
expect_eq "... and QEMU did not exit then" "$(jq .qemu_exit "$r/$base-r0/cell.json")" null
expect_eq "boots" "$(ls "$r/boots" | wc -l)" 4
expect_eq "summary cells" "$(jq '.cells | length' "$r/summary.json")" 6
# The second cell of a boot paid no boot: the runner starts within seconds of it being sent.
expect_cmp "panic r0: host s to its runner" "$(jq .host_timings.boot_s "$r/$base-r0-xpanic/cell.json")" "<" 5
sleep 1
pgrep -f -- "$r/" > /dev/null && fail "a QEMU of this run is still there: $(pgrep -af -- "$r/")"
echo "ok: no QEMU left"

r=$d/hang
"$HT" run --cpus 2 --workload full_update --test-action hang,none --repeat 2 --jobs 1 \
	--bpftrace none --duration 1 --timeout 35 --out "$r" > "$r.out" 2> "$r.err"
expect_eq "hang run exit" "$?" 1
cat "$r.err"
for k in 0 1; do
	[[ $(jq -r .verdict "$r/$base-r$k-xhang/cell.json") == TIMEOUT ]] ||
		fail "r$k hang: $(jq -r '.verdict + " " + .signature' "$r/$base-r$k-xhang/cell.json")"
	expect_eq "r$k none after the hang" "$(jq -r .verdict "$r/$base-r$k/cell.json")" PASS
	expect_eq "r$k none booted a fresh guest" "$(boot_of "$r/$base-r$k")" "$base-r$k.1 1"
done
expect_eq "the hang of r1 ran in the boot of r0's none" "$(boot_of "$r/$base-r1-xhang")" "$base-r0.1 2"

r=$d/resume
args=(run --cpus 1 --workload full_update,overwrite,churn --jobs 1 --bpftrace none --duration 2 --out "$r")
kill9_after_first_cell "$r" "$r.out1" "$r.err1" "${args[@]}"
declare -A before
for f in "$r"/*/cell.json; do before[$f]=$(sha256sum < "$f"); done
expect_cmp "cells finished before the kill" "${#before[@]}" "<" 3
"$HT" "${args[@]}" > "$r.out2" 2> "$r.err2" || fail "rerun exit $?: $(cat "$r.err2")"
cat "$r.err2"
expect_eq "rerun skipped the finished cells" "$(grep -c 'finished before' "$r.err2")" "${#before[@]}"
for f in "${!before[@]}"; do
	expect_eq "$(basename "$(dirname "$f")") untouched" "$(sha256sum < "$f")" "${before[$f]}"
	expect_eq "$(basename "$(dirname "$f")") attempts" "$(wc -l < "$(dirname "$f")/attempts.log")" 1
done
for w in full_update overwrite churn; do
	c=$r/v1-$w-distro-none-r0
	expect_eq "$w verdict" "$(jq -r .verdict "$c/cell.json")" PASS
	expect_eq "$w attempt in cell.json" "$(jq .attempt "$c/cell.json")" "$(wc -l < "$c/attempts.log")"
done
expect_eq "summary cells" "$(jq '.cells | length' "$r/summary.json")" 3
expect_eq "summary ids unique" "$(jq '[.cells[].cell] | unique | length' "$r/summary.json")" 3
expect_eq "the rerun's cells shared one boot" \
	"$(grep -c 'started in boot' "$r.err2")" "$(( 3 - ${#before[@]} - 1 ))"
