#!/bin/bash
# --restore on (issue 15, item 3): a guest saved once per QEMU command line
# and restored for each boot.
# 1. Two kernels (distro, which has CONFIG_VMGENID, and the fixed variant,
#    which does not), two cells each, a boot per cell, on a cold cache: one
#    save per kernel, every cell restored from its kernel's snapshot (no
#    kernel boot on its console), and no two cells with the same urandom
#    bytes (right after the reseed, as init logs them, and in the job) or
#    kernel UUID, the guest's clock the host's, nothing left in the
#    directories (FIFOs). (Measured: these kernels reseed by themselves
#    soon after a restore too — RDRAND under TCG feeds every reseed and the
#    early-boot interval is seconds — so the assertion is on the property,
#    not on htab-reseed being the one that gave it.)
# 2. Shared boots from the same cache (the snapshot is the same guest): no
#    new save, a PASS then a panic in one restored boot, classified as in a
#    cold one, the group's next cell on a fresh restore.
# 3. A snapshot whose key no longer matches is saved again (and used).
# 4. --restore-boots 2: the second repeat restores a second saved boot.
# 5. A guest the kernel tainted before the save point (taint 512 from
#    sysctl.kernel.tainted=512 on its command line, as a WARN or a TCG
#    soft lockup while booting leaves it) is not saved: the run says why
#    and stops with exit 2 after the retry, nothing in the cache, no cell
#    run from it.
# run-tests: needs fixed
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir restore)
export HTAB_SNAPSHOT_CACHE=$d/cache
"$ROOT/vm-images/build-kernel.sh" fixed > "$d/build.log" 2>&1 || { tail "$d/build.log"; fail "fixed did not build"; }

r=$d/own
"$HT" run --cpus 2 --kernel distro,fixed --repeat 2 --boot-per-cell --restore on --bpftrace none \
	--duration 1 --job-script "$ROOT/tests/vm/jobs/random_state.sh" --out "$r" > "$r.out" 2> "$r.err"
rc=$?
cat "$r.err"
expect_eq "exit" "$rc" 0
expect_eq "snapshots saved" "$(grep -c '^snapshot [0-9a-f]*: saved (boot' "$r.err")" 2
# one boot per save: a save that succeeded is not booted again (it was, 03e2b3c to here)
expect_eq "snapshot boots retried" "$(grep -c 'booting the guest once more' "$r.err")" 0
expect_eq "snapshots in the cache" "$(ls "$d/cache" | wc -l)" 2
for s in "$d"/cache/*; do
	for f in state key info.json console.log; do [ -s "$s/$f" ] || fail "$s: no $f"; done
	grep -q 'htab-init: saving at' "$s/console.log" || fail "$s: the saved boot never reached its save point"
done
find "$d" -type p | grep . && fail "FIFOs left behind"
now=$(date +%s)
for c in "$r"/v2-*/; do
	id=$(basename "$c")
	expect_eq "$id verdict" "$(jq -r .verdict "$c/cell.json")" PASS
	snap=$(jq -r .restore.snapshot "$c/cell.json")
	[ -d "$d/cache/$snap" ] || fail "$id: restored from '$snap', not in the cache"
	expect_eq "$id: restored, not booted" "$(jq -c '[(.boot_phases.restored_s != null), .boot_phases.init_s]' "$c/cell.json")" "[true,null]"
	grep -q 'Linux version\|htab-init: up at' "$c/console.log" && fail "$id: its console holds a boot"
	. "$c/random.env"
	echo "$id: urandom $urandom uuid $uuid time $time"
	expect_cmp "$id: guest clock - host clock (s)" "$(( now - time ))" "<" 300
	echo "$urandom" >> "$d/urandom.txt"
	sed -n 's/.*htab-init: restored at .*, urandom [0-9a-f]* before the reseed, \([0-9a-f]*\) after.*/\1/p' \
		"$c/console.log" >> "$d/reseeded.txt"
	echo "$uuid" >> "$d/uuid.txt"
done
expect_eq "cells" "$(wc -l < "$d/urandom.txt")" 4
expect_eq "distinct urandom" "$(sort -u "$d/urandom.txt" | wc -l)" 4
expect_eq "distinct urandom right after the reseed" "$(sort -u "$d/reseeded.txt" | grep -c .)" 4
expect_eq "distinct kernel UUIDs" "$(sort -u "$d/uuid.txt" | wc -l)" 4
expect_eq "the two kernels' snapshots" \
	"$(jq -r '.kernel + " " + .restore.snapshot' "$r"/v2-*/cell.json | sort -u | cut -d' ' -f1 | uniq | wc -l)" 2

r=$d/shared
"$HT" run --cpus 2 --workload full_update,churn --test-action none,panic --restore on --bpftrace none \
	--duration 1 --timeout 60 --out "$r" > "$r.out" 2> "$r.err"
rc=$?
cat "$r.err"
expect_eq "shared: exit (a panic cell)" "$rc" 1
expect_eq "shared: no new save" "$(grep -c ': saved (boot' "$r.err")" 0
grep -q '^snapshot [0-9a-f]*: in the cache' "$r.err" || fail "shared: the snapshot was not found"
cell_dir first "$r" workload=full_update test_action=none
cell_dir second "$r" workload=churn test_action=none
cell_dir panic "$r" workload=full_update test_action=panic
cell_dir panic2 "$r" workload=churn test_action=panic
# A boot is named FIRST_CELL.ATTEMPT; a loaded TCG host may boot it twice.
b=$(jq -r .boot.name "$first/cell.json")
[[ $b == "${first##*/}".[0-9]* ]] || fail "shared: boot $b is not named after ${first##*/}"
v() { jq -r '.verdict + " | " + .signature + " | " + .boot.name' "$1/cell.json"; }
expect_eq "shared: first" "$(v "$first")" "PASS |  | $b"
expect_eq "shared: second in the same boot" "$(v "$second")" "PASS |  | $b"
[[ $(v "$panic") == "CRASH | kernel panic"*" | $b" ]] || fail "shared: panic: $(v "$panic")"
[[ $(v "$panic2") == "CRASH | kernel panic"*" | ${panic2##*/}."[0-9]* ]] ||
	fail "shared: the panic after the panic: $(v "$panic2")"
expect_eq "shared: every cell restored" "$(jq -r .restore.snapshot "$r"/*/cell.json | sort -u | wc -l)" 1
grep -q "group=" "$r"/boots/*/console.log && fail "shared: the wake line reached the console"
grep -q "htab-init: restored at .* (group $b)" "$r/boots/$b/console.log" || fail "shared: the boot was not told its group"

# (fixed: its guest saves in ~3 s, the distro's in ~12)
cell_dir c "$d/own" kernel=fixed repeat=0
snap=$(jq -r .restore.snapshot "$c/cell.json")
echo "stale" >> "$d/cache/$snap/key"
r=$d/stale
"$HT" run --cpus 2 --kernel fixed --restore on --bpftrace none --duration 1 --out "$r" > "$r.out" 2> "$r.err"
rc=$?
cat "$r.err"
expect_eq "stale: exit" "$rc" 0
expect_eq "stale: saved again" "$(grep -c "^snapshot $snap: saved (boot" "$r.err")" 1
grep -q stale "$d/cache/$snap/key" && fail "stale: the old key is still there"
expect_eq "stale: restored from it" "$(jq -r .restore.snapshot "$r"/v2-*/cell.json)" "$snap"

# --restore-boots 2: repeat 0 restores boot 0 (the snapshot above), repeat 1
# a second boot saved with htab.boot=1; compare sees two boots, no note.
r=$d/boots
"$HT" run --cpus 2 --kernel fixed --repeat 2 --restore-boots 2 --boot-per-cell --restore on --bpftrace none \
	--duration 1 --out "$r" > "$r.out" 2> "$r.err"
rc=$?
cat "$r.err"
expect_eq "boots: exit" "$rc" 0
expect_eq "boots: one more save" "$(grep -c '^snapshot [0-9a-f]*: saved (boot' "$r.err")" 1
cell_dir c0 "$r" repeat=0
cell_dir c1 "$r" repeat=1
expect_eq "boots: repeat 0" "$(jq -c '[.verdict, .restore.snapshot, .restore.boot, .restore.boots]' "$c0/cell.json")" \
	"[\"PASS\",\"$snap\",0,2]"
expect_eq "boots: repeat 1" "$(jq -c '[.verdict, .restore.boot, .restore.boots]' "$c1/cell.json")" '["PASS",1,2]'
[ "$(jq -r .restore.snapshot "$c1/cell.json")" != "$snap" ] || fail "boots: repeat 1 restored boot 0"
grep -q 'htab.boot=1' "$c1/qemu.argv" || fail "boots: no htab.boot=1 in $c1/qemu.argv"
grep -q 'htab.boot=' "$c0/qemu.argv" && fail "boots: htab.boot= in boot 0's $c0/qemu.argv"
out=$("$HT" compare "$r" "$r") || fail "boots: compare exited $?"
[[ $out == *"(in N boots)"* ]] && fail "boots: compare says the repeats shared a boot: $out"

r=$d/tainted
HTAB_SNAPSHOT_CACHE=$d/cache-tainted "$HT" run --cpus 2 --kernel fixed --restore on --bpftrace none \
	--duration 1 --boot-opt sysctl.kernel.tainted=512 --out "$r" > "$r.out" 2> "$r.err"
rc=$?
cat "$r.err"
expect_eq "tainted: exit" "$rc" 2
expect_eq "tainted: booted twice" "$(grep -c 'before its save point' "$r.err")" 2
expect_eq "tainted: why, twice" "$(grep -c "^error: snapshot: htab-init: the kernel was tainted while booting (taint 512): this guest is not saved" "$r.err")" 2
[ -z "$(ls "$d/cache-tainted" | grep -v '\.tmp\.')" ] || fail "tainted: saved: $(ls "$d/cache-tainted")"
[ ! -e "$r/summary.json" ] || expect_eq "tainted: no cell ran" "$(jq '[.cells[] | select(.verdict != null)] | length' "$r/summary.json")" 0
echo "all ok"
