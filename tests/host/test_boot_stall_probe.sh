#!/bin/bash
# A first boot silent for boot_probe_s (20 s) before its runner is looked
# at over QMP (hang_boot_stalled): in the TCG boot stall's shape (most vCPUs
# at one RIP with interrupts off, twice) it ends then, not at its quiet
# budget, and is booted again (verdict_boot_retry); otherwise it runs on to
# the budget. A fake QEMU answers the monitor as QEMU does (FIFOs, "stop",
# "cont", HMP "info registers" per vCPU); its first boot is silent, its
# second reports a soft lockup at once, so each case boots twice.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir boot_stall_probe)
fake=$d/fake-qemu
cat > "$fake" <<'EOS'
#!/usr/bin/env python3
import os, sys
from fake_qemu import chardev, serve_monitor
con = chardev(sys.argv, "file", "con")
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write("boot\n")
boots = sum(1 for _ in open(os.environ["FAKE_LOG"]))
if boots > 1:
    with open(con, "w") as f:
        f.write("[  112.582659] watchdog: BUG: soft lockup - CPU#0 stuck for 104s! [swapper/0:1]\n"
                "[  112.582874] RIP: 0010:alg_test+0x4f/0x540\n")
    sys.exit(0)
with open(con, "w") as f:
    f.write("[    0.741956] smp: Bringing up secondary CPUs ...\n")
mode = os.environ["FAKE_MODE"]
stops = 0
def answer(req):
    global stops
    if req["execute"] == "stop":
        stops += 1
    if req["execute"] == "human-monitor-command":
        cpu = req["arguments"]["cpu-index"]
        # stall: every vCPU at the int3 entry; moving: each elsewhere at each stop
        ip = 0xffffffff81c00ba0 if mode == "stall" else 0xffffffff81000000 + 0x100 * cpu + 0x10000 * stops
        return ("RAX=0000000000000000 RSP=ffffc90000013e48\n"
                "RIP=%016x RFL=00000046 [-----P-] CPL=0 II=0 A20=1 SMM=0 HLT=0\n" % ip)
    return None
serve_monitor(chardev(sys.argv, "pipe", "qmp"), os.environ["FAKE_QMP"], answer)
EOS
chmod +x "$fake"
export HTAB_QEMU=$fake FAKE_LOG=$d/calls PYTHONPATH=$ROOT/tests/fixtures/qemu
n=$(( $(nproc) * 2 ))

for mode in stall moving; do
	: > "$d/calls"
	export FAKE_MODE=$mode FAKE_QMP=$d/qmp-$mode
	"$HT" run --cpus "$n" --accel tcg --bpftrace none --duration 1 --lpj off --pvh off --lz4 off \
		--restore off --crash-grace 0 --timeout 26 --out "$d/$mode" > "$d/$mode.out" 2>&1
	expect_eq "$mode: exit (CRASH)" "$?" 1
	expect_eq "$mode: boots" "$(paste -sd, "$d/calls")" boot,boot
	cell_dir c "$d/$mode" vcpus="$n"
	first=$c/boot-stall-1.json
	expect_eq "$mode: the first attempt's verdict" "$(jq -r .verdict "$first")" TIMEOUT
	expect_eq "$mode: its probe interval" "$(jq .timeouts.boot_probe_s "$first")" 20
	expect_eq "$mode: looks taken" "$(jq .boot_probes "$first")" 1
	expect_eq "$mode: none by the second attempt" "$(jq .boot_probes "$c/cell.json")" 0
	expect_eq "$mode: the second's verdict" "$(jq -r .verdict "$c/cell.json")" CRASH
	grep -q '^cont$' "$d/qmp-$mode" || fail "$mode: the probe did not let the guest run on"
	eval "first_$mode=\$first"
done

budget=$(jq -r .hang.budget "$first_stall")
[[ $budget == "boot stall after 2"?" s of silence (before the runner): $n of $n vCPUs at 0xffffffff81c00ba0 with interrupts off, twice 500 ms apart" ]] ||
	fail "stall: hang.budget '$budget'"
echo "ok: stall: $budget"
expect_cmp "stall: ended after the probe, before the 26 s budget" \
	"$(jq .hang.silent_s "$first_stall")" "<" 25
expect_eq "stall: what the look saw" "$(jq -r .boot_probe_saw "$first_stall")" \
	"$n of $n vCPUs at 0xffffffff81c00ba0 with interrupts off, twice 500 ms apart"
expect_eq "stall: signature" "$(jq -r .signature "$first_stall")" "hang: CPUs spinning"

budget=$(jq -r .hang.budget "$first_moving")
[[ $budget != "boot stall"* ]] || fail "moving: ended as a stall: '$budget'"
echo "ok: moving: ended by its budget: $budget"
expect_cmp "moving: silent up to its budget" "$(jq .hang.silent_s "$first_moving")" ">=" 24
expect_eq "moving: what the look saw" "$(jq -r .boot_probe_saw "$first_moving")" \
	"1 of $n vCPUs at one RIP with interrupts off"

# A boot that saves a guest for --restore is looked at the same way: in the
# stall's shape it ends at 20 s and is booted once more (here the fake's
# second boot ends at once, so the run gives up: exit 2).
: > "$d/calls"
export FAKE_MODE=stall FAKE_QMP=$d/qmp-save HTAB_SNAPSHOT_CACHE=$d/snapshots
SECONDS=0
"$HT" run --cpus "$n" --accel tcg --bpftrace none --duration 1 --lpj off --pvh off --lz4 off \
	--restore on --out "$d/save" > "$d/save.out" 2>&1
expect_eq "save: exit (no saved guest)" "$?" 2
wall=$SECONDS
expect_eq "save: boots" "$(paste -sd, "$d/calls")" boot,boot
grep -q "^error: snapshot: the guest stalled ($n of $n vCPUs at 0xffffffff81c00ba0 with interrupts off, twice 500 ms apart) before its save point" \
	"$d/save.out" || fail "save: the stall was not said: $(cat "$d/save.out")"
grep -q "^snapshot: booting the guest once more" "$d/save.out" || fail "save: not booted again"
expect_cmp "save: ended at the probe, not its 60 s silence limit" "$wall" "<" 40
