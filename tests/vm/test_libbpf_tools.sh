#!/bin/bash
# The libbpf tools (bench/libbpf) load and run in a 2-vCPU guest:
# full_update_driver -d 2 prints one seed-format per-CPU line for each CPU and
# PASS; -m lookup on a hash and an LRU hash map prints CPU:TYPE_lookup_perf lines and
# PASS; batch_dump with a short -p list prints the BM_DumpHashMap table and PASS.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/bench/lib/guest.sh"
make -s -C "$ROOT/bench/libbpf" > /dev/null || fail "bench/libbpf does not build"
d=$(fresh_dir libbpf_tools)
boot_guest 2 "$d/cell" "$ROOT/tests/vm/jobs/libbpf_tools.sh" 180 LIBBPF_DIR="$ROOT/bench/libbpf"
expect_eq "guest exit status" "$?" 0
[ -n "${GUEST_APPEND:-}" ] || expect_eq "harness verdict" "$(jq -r .verdict "$d/cell/cell.json")" PASS
c=$d/cell
expect_eq "full_update_driver exit" "$(cat "$c/fud.rc")" 0
expect_eq "full_update_driver stderr empty" "$(cat "$c/fud.err")" ""
for cpu in 0 1; do
	ev=$(sed -nE "s/^$cpu:hash_map_full_perf ([0-9]+) events per sec$/\1/p" "$c/fud.out")
	[ -n "$ev" ] || fail "no '$cpu:hash_map_full_perf N events per sec' line in $c/fud.out"
	expect_cmp "CPU $cpu events per sec" "$ev" ">" 0
done
grep -q '^total:hash_map_full_perf [0-9]* events per sec (2 CPUs' "$c/fud.out" ||
	fail "no total line for 2 CPUs"
grep -q '^result: PASS' "$c/fud.out" || fail "full_update_driver: $(grep ^result: "$c/fud.out")"
# -m lookup (seed 004): one CPU sweeping a filled map of 1025 keys, hash and lru_hash
for t in hash lru_hash; do
	expect_eq "full_update_driver -m lookup -t $t exit" "$(cat "$c/fudl-$t.rc")" 0
	ev=$(sed -nE "s/^0:${t}_lookup_perf ([0-9]+) lookups per sec$/\1/p" "$c/fudl-$t.out")
	[ -n "$ev" ] || fail "no '0:${t}_lookup_perf N lookups per sec' line in $c/fudl-$t.out"
	expect_cmp "$t lookups per sec" "$ev" ">" 0
	grep -qE "^result: PASS \([0-9]+ lookups in $t map of 1025 keys" "$c/fudl-$t.out" ||
		fail "full_update_driver -m lookup -t $t: $(grep ^result: "$c/fudl-$t.out")"
done
grep -qE '^result: PASS \([0-9]+ lookups in hash map of 1025 keys: [0-9]+ hit, 0 missed\)' "$c/fudl-hash.out" ||
	fail "a full hash map's lookups must all hit"
expect_eq "batch_dump exit" "$(cat "$c/bd.rc")" 0
grep -q '^Benchmark  *Time  *CPU  *Iterations' "$c/bd.out" || fail "no BM table header"
for n in 1 100 1000; do
	grep -qE "^BM_DumpHashMap/$n +[0-9]+ ns +[0-9]+ ns +3 " "$c/bd.out" ||
		fail "no BM_DumpHashMap/$n row with 3 iterations"
	echo "ok: BM_DumpHashMap/$n row"
done
expect_eq "BM rows" "$(grep -c '^BM_DumpHashMap/' "$c/bd.out")" 3
grep -q '^result: PASS' "$c/bd.out" || fail "batch_dump: $(grep ^result: "$c/bd.out")"
echo "ok: both tools PASS"
