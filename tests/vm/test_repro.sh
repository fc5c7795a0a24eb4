#!/bin/bash
# `htab-torture repro`: a script from a CRASH cell boots it again and says
# the same signature came back; one from a PASS cell says PASS came back.
# Three guests: one shared boot of a PASS cell then a CRASH cell (the
# runner's test action warn: "WARNING in test_warning"; the boot's second
# cell, so its QEMU argv is under OUT/boots/), then one boot per script.
# --lpj off: no calibration boot.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir repro)
run=$d/run

"$HT" run --cpus 2 --workload full_update --duration 2 --bpftrace none --lpj off \
	--test-action none,warn --out "$run" > "$d/run.out" 2> "$d/run.err"
expect_eq "exit of the run" "$?" 1
cell_dir ok "$run" test_action=none
cell_dir crash "$run" test_action=warn
ok=${ok##*/} crash=${crash##*/}
expect_eq "$ok verdict" "$(jq -r .verdict "$run/$ok/cell.json")" PASS
expect_eq "$crash verdict" "$(jq -r .verdict "$run/$crash/cell.json")" CRASH
sig=$(jq -r .signature "$run/$crash/cell.json")
expect_eq "$crash signature" "$sig" "WARNING in test_warning"
expect_eq "$crash boot" "$(jq -c '[.boot.mode, .boot.cell_in_boot]' "$run/$crash/cell.json")" '["shared",2]'

# The CRASH cell: its boot's argv, the same signature back.
"$HT" repro "$run/$crash" --runs 1 > /dev/null || fail "repro $crash: exit $?"
s=$run/$crash/repro.sh
# The boot is named after its first cell and attempt: a loaded TCG host may
# have booted it a second time (boot_retried), so its name is read, not assumed.
boot=$(jq -r .boot.name "$run/$crash/cell.json")
[[ $boot == "$ok".[0-9]* ]] || fail "$crash: boot $boot is not $ok's"
grep -qx "# argv from    $run/boots/$boot/qemu.argv" "$s" || fail "$s: not its boot's argv"
before=$(cd "$run/$crash" && find . -type f | sort | xargs sha256sum)
"$s" --scratch "$d/scratch" > "$d/crash.out" 2> "$d/crash.err"
rc=$?
cat "$d/crash.out"
expect_eq "exit of $crash's script" "$rc" 0
expect_eq "attempt lines" "$(grep -c '^attempt ' "$d/crash.out")" 1
grep -qx "attempt 1/1: CRASH: $sig (console: warning: $sig): same" "$d/crash.out" ||
	fail "attempt line: $(grep '^attempt' "$d/crash.out")"
expect_eq "final line" "$(tail -n 1 "$d/crash.out")" \
	"repro: the same signature (CRASH: $sig) came back in 1 of 1 run(s): reproduced"
! grep -q differs "$d/crash.out" "$d/crash.err" || fail "not booted as recorded: $(cat "$d/crash.err")"
echo "ok: qemu.argv and job.env as recorded"
expect_eq "$crash's directory untouched" "$(cd "$run/$crash" && find . -type f | sort | xargs sha256sum)" "$before"
expect_eq "scratch runs" "$(ls -d "$d"/scratch/repro-"$crash".*/attempt-1/*/cell.json | wc -l)" 1

# The PASS cell: PASS back.
"$HT" repro "$run/$ok" -o "$d/ok.sh" --runs 1 > /dev/null || fail "repro $ok: exit $?"
REPRO_SCRATCH=$d/scratch "$d/ok.sh" > "$d/ok.out" 2> "$d/ok.err"
rc=$?
cat "$d/ok.out"
expect_eq "exit of $ok's script" "$rc" 0
grep -qx "attempt 1/1: PASS (console: clean): same" "$d/ok.out" ||
	fail "attempt line: $(grep '^attempt' "$d/ok.out")"
expect_eq "final line" "$(tail -n 1 "$d/ok.out")" \
	"repro: the same verdict (PASS) came back in 1 of 1 run(s): reproduced"
expect_no_kernel_report "$d"/scratch/repro-"$ok".*/attempt-1/"$ok"/console.log
