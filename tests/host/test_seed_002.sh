#!/bin/bash
# Issue 14: bench/seed-002.sh (make seed-002's table) from a fixture run:
# the seed's rows from bench/seed-tables.tsv with their source, ours per
# scenario and map as mean ± sd over PASS repeats in the seed's unit (map ops
# per worker / 64, k/s), memory in MiB, the ratio with its interval, the
# accelerator and the TCG line; the manifest's seed field and RUN/seed.txt;
# usage errors exit 2.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir seed_002)
cp "$ROOT/tests/fixtures/seed-002/summary.json" "$d/"
echo '{"version": 1, "params": {}, "cells": []}' > "$d/manifest.json"
out=$("$ROOT/bench/seed-002.sh" "$d") || fail "seed-002.sh exited $?"
echo "$out"
grep -q '^seed: \[PATCH bpf-next v6 5/5\] selftests/bpf: Add benchmark for bpf memory allocator (bpf@vger.kernel.org' <<< "$out" ||
	fail "no seed source line"
grep -qE '^overwrite +seed: preallocated +93\.56 ± 0\.03 +1\.23 ± 0\.00 +1\.24$' <<< "$out" || fail "seed row overwrite/preallocated"
grep -qE '^add_del_on_diff_cpu +seed: bpf ma +15\.60 ± 0\.20 +14\.75 ± 2\.77 +23\.05$' <<< "$out" || fail "seed row add_del/bpf ma"
# fixture: overwrite non-prealloc ops/s per worker 409600 x (0.98, 1, 1.02) -> 6.40 k/s of 64; the FAIL cell left out
grep -qE '^overwrite +ours: non-preallocated \(6\.1: bpf ma\) \(n=3\) +6\.40 ± 0\.13 +3\.11 ± 0\.05 +4\.02 ± 0\.02$' <<< "$out" ||
	fail "our row overwrite/non-preallocated"
grep -q '^ours: tests/out/seed_002; ' <<< "$out" || fail "ours: not the run relative to the checkout's root"
grep -qE '^  overwrite +per-prod ops/s  seed 1\.05x   ours 1\.3x \[1\.2[0-9], 1\.3[0-9]\], Welch p < 0\.001$' <<< "$out" ||
	fail "ratio line with interval"
grep -q '^accel: tcg (emulated' <<< "$out" || fail "accelerator line"
grep -q "^Why TCG figures are not the seed's" <<< "$out" || fail "the TCG line"
expect_eq "manifest seed" "$(jq -r .seed "$d/manifest.json")" 002
sleep 0.2	# tee behind a process substitution
diff <(echo "$out") "$d/seed.txt" > /dev/null || fail "seed.txt differs from what was printed"
"$ROOT/bench/seed-002.sh" > /dev/null 2>&1; expect_eq "exit without RUN_DIR" $? 2
"$ROOT/bench/seed-002.sh" "$d/none" > /dev/null 2>&1; expect_eq "exit on a missing RUN_DIR" $? 2
# a scenario without a PASS cell: said in the table, exit 1
jq '.cells |= map(select(.workload != "add_del_on_diff_cpu" or .prealloc != 1))' \
	"$ROOT/tests/fixtures/seed-002/summary.json" > "$d/summary.json"
out=$("$ROOT/bench/seed-002.sh" "$d"); rc=$?
expect_eq "exit with a scenario unmeasured" $rc 1
grep -qE '^add_del_on_diff_cpu +ours: preallocated +no PASS cell' <<< "$out" || fail "no 'no PASS cell' row"
