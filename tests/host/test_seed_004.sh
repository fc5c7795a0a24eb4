#!/bin/bash
# Issue 14: bench/seed-004.sh (make seed-004's table) from a fixture
# (tests/fixtures/seed-004: bpf/ boots of before-004 and fixed with
# lookup.tsv, module/ lookup cells per map type and size): per size the
# seed's before/after with its source, ours from the BPF program per kernel
# as mean ± sd over boots with the ratio's interval, the module's per map
# type, the accelerator and the TCG line; both manifests' seed field and
# seed.txt; a missing part exits 2, usage exits 2.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir seed_004)
cp -r "$ROOT/tests/fixtures/seed-004/." "$d/"
for r in bpf module; do echo '{"version": 1, "params": {}, "cells": []}' > "$d/$r/manifest.json"; done
out=$("$ROOT/bench/seed-004.sh" "$d") || fail "seed-004.sh exited $?"
echo "$out"
grep -q '^seed: \[PATCH net-next 2/3\] bpf: Inline LRU map lookup (netdev@vger.kernel.org, 2017-08-31' <<< "$out" || fail "seed source"
# fixture: lru before-004 3e6 x (0.99, 1, 1.01), fixed x 1.1; module lru 1000000, 1001000
grep -qE '^513 +1132020 +1221851 +1\.079 \| 3000000 ± 30000 \(3\) +3300000 ± 33000 \(3\) +1\.1x \[1\.0[89][0-9]*, 1\.1[0-2][0-9]*\] <0\.001 +\| 3630000 ± 36300 \(3\) \| 1000500 ± 707 \(2\) +1200500 ± 707 \(2\)' <<< "$out" ||
	fail "row 513"
expect_eq "size rows" "$(grep -cE '^[0-9]+ +[0-9]+ +[0-9]+ ' <<< "$out")" 12
grep -qE '^1048577 +260038 +260048 +1\.000 ' <<< "$out" || fail "row 1048577"
grep -qx 'ours: tests/out/seed_004' <<< "$out" || fail "ours: not the run relative to the checkout's root"
grep -q '^accel: tcg (emulated' <<< "$out" || fail "accelerator line"
grep -q "^Why TCG figures are not the seed's" <<< "$out" || fail "the TCG line"
expect_eq "bpf manifest seed" "$(jq -r .seed "$d/bpf/manifest.json")" 004
expect_eq "module manifest seed" "$(jq -r .seed "$d/module/manifest.json")" 004
sleep 0.2
[ -s "$d/module/seed.txt" ] && [ -s "$d/seed.txt" ] || fail "no seed.txt"
rm "$d/module/summary.json"
"$ROOT/bench/seed-004.sh" "$d" > /dev/null 2>&1; expect_eq "exit without module/" $? 2
"$ROOT/bench/seed-004.sh" > /dev/null 2>&1; expect_eq "exit without RUN_DIR" $? 2
