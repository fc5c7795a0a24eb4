#!/bin/bash
# Issue 25 item 2: a stuck guest says where it is stuck (the mutant's case,
# and why the harness stops QEMU over QMP: test_hang_located.sh). Here the
# distro kernel, test action hang (user space sleeps; the kernel is fine
# and its CPUs idle): TIMEOUT at the 25 s host deadline, hang.txt with
# every vCPU, "hang: every CPU idle"; Debian's System.map is a
# placeholder, so no symbols, and it says so. No variant: it runs while
# the kernels build, and its idle guest leaves them the CPUs.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir hang_idle)

"$HT" run --cpus 2 --test-action hang --bpftrace none --duration 1 --timeout 25 \
	--out "$d/idle" > "$d/idle.out" 2>&1
expect_eq "exit of the hang run" $? 1
cell_dir c "$d/idle" test_action=hang
expect_eq "idle verdict" "$(cj "$c" .verdict)" TIMEOUT
expect_eq "idle signature" "$(cj "$c" .signature)" "hang: every CPU idle"
expect_eq "idle hang.budget" "$(cj "$c" .hang.budget)" "host deadline 25 s"
expect_eq "vCPUs located" "$(cj "$c" '.hang.cpus | length')" 2
expect_eq "halted vCPUs" "$(cj "$c" '[.hang.cpus[] | select(.state == "halted")] | length')" 2
[ "$(cj "$c" .hang.symbols.verified)" = false ] || fail "distro symbols verified from a placeholder?"
echo "ok: distro symbols: $(cj "$c" .hang.symbols.why)"
expect_eq "scan of hang.txt" "$("$HT" scan "$c/hang.txt")" "$c/hang.txt: hang: hang: every CPU idle"
grep -q '^CPU#1$' "$c/hang.txt" || fail "hang.txt lacks QEMU's dump of CPU#1"
[ -z "$(find "$c" -type p)" ] || fail "FIFOs left in $c: $(find "$c" -type p)"
