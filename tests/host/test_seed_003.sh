#!/bin/bash
# Issue 14: bench/seed-003.sh (make seed-003's table) from a fixture run of
# both kernels (tests/fixtures/seed-003: cells with batch_dump.out, one
# TIMEOUT boot left out): the seed's before/after Time per N with its
# source, ours per kernel as mean ± sd over PASS boots, the ratio
# fixed/before-003 with its interval, the accelerator and the TCG line; the
# manifest's seed field; a kernel without a PASS boot exits 1; usage exits 2.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir seed_003)
cp -r "$ROOT/tests/fixtures/seed-003/." "$d/"
echo '{"version": 1, "params": {}, "cells": []}' > "$d/manifest.json"
out=$("$ROOT/bench/seed-003.sh" "$d") || fail "seed-003.sh exited $?"
echo "$out"
grep -q '^seed: \[PATCH bpf\] bpf: Do not grab the bucket spinlock by default on htab batch ops' <<< "$out" || fail "seed source"
# fixture: fixed BM_DumpHashMap/1 = 699725 x (0.97, 1, 1.03); before-003 adds 4e6 x (0.98, 1, 1.02)
grep -qE '^BM_DumpHashMap/1 +2759655 +202707 +0\.073x +4699725 ± 100992 \(n=3\) +699725 ± 20992 \(n=3\) +0\.149x \[0\.14[0-9], 0\.15[0-9]\], p < 0\.001$' <<< "$out" ||
	fail "row BM_DumpHashMap/1"
grep -qE '^BM_DumpHashMap/39000 +190501036 +187437830 +0\.984x ' <<< "$out" || fail "row 39000 (the seed's 39k)"
grep -q 'boots: 3 before-003 PASS, 3 fixed PASS, 1 fixed TIMEOUT' <<< "$out" || fail "boots line"
grep -q '^ours: tests/out/seed_003; ' <<< "$out" || fail "ours: not the run relative to the checkout's root"
grep -q '^accel: tcg (emulated' <<< "$out" || fail "accelerator line"
grep -q "^Why TCG figures are not the seed's" <<< "$out" || fail "the TCG line"
expect_eq "manifest seed" "$(jq -r .seed "$d/manifest.json")" 003
jq '.cells |= map(select(.kernel != "before-003"))' "$ROOT/tests/fixtures/seed-003/summary.json" > "$d/summary.json"
out=$("$ROOT/bench/seed-003.sh" "$d"); expect_eq "exit without before-003 boots" $? 1
grep -qE '^BM_DumpHashMap/1 .* no PASS boot ' <<< "$out" || fail "no 'no PASS boot'"
"$ROOT/bench/seed-003.sh" > /dev/null 2>&1; expect_eq "exit without RUN_DIR" $? 2
"$ROOT/bench/seed-003.sh" "$d/none" > /dev/null 2>&1; expect_eq "exit on a missing RUN_DIR" $? 2
