#!/bin/bash
# Issue 14: a run made by a seed target (manifest.json "seed", RUN/seed.txt)
# gets the seed's table in report.txt and report.html; cells with cell.json
# "memory" (the memcg job) get the map memory section; a run without a seed
# has no seed section; compare tests memory.avg_mib and memory.peak_mib like
# every metric. Fixture: tests/fixtures/seed-002 (summary.json with memory).
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir report_seed)
cp "$ROOT/tests/fixtures/seed-002/summary.json" "$d/"
echo '{"version": 1, "params": {}, "cells": [], "seed": "002"}' > "$d/manifest.json"
printf '== seed 002: a table line\n' > "$d/seed.txt"
"$HT" report "$d" > /dev/null || fail "report exited $?"
grep -q '^Seed 002 (made by make seed-002' "$d/report.txt" || fail "no seed section in report.txt"
grep -q '^== seed 002: a table line$' "$d/report.txt" || fail "seed.txt not in report.txt"
grep -q '<h2>Seed 002</h2>' "$d/report.html" || fail "no seed section in report.html"
grep -q '<pre class=seed>== seed 002: a table line' "$d/report.html" || fail "seed.txt not in report.html"
grep -qE '^  v8-overwrite-distro-none-e8192-r0 +1\.71 +0\.05 +2\.20 +20$' "$d/report.txt" ||
	fail "no memory row for v8-overwrite-distro-none-e8192-r0"
grep -q '<h2>Map memory</h2>' "$d/report.html" || fail "no memory section in report.html"
echo "ok: seed and memory sections"
rm "$d/seed.txt"
"$HT" report "$d" > /dev/null || fail "report exited $?"
grep -q 'no seed.txt: bench/seed-002.sh' "$d/report.txt" || fail "a missing seed.txt is not said"
echo '{"version": 1, "params": {}, "cells": []}' > "$d/manifest.json"
"$HT" report "$d" > /dev/null || fail "report exited $?"
! grep -q '^Seed ' "$d/report.txt" || fail "seed section without a seed field"
echo "ok: no seed field, no seed section"
jq '.cells |= (map(.kernel = "fixed") + map(.kernel = "before" | .cell |= sub("distro"; "before") | .memory.peak_mib *= 1.5))' \
	"$ROOT/tests/fixtures/seed-002/summary.json" > "$d/summary.json"
out=$("$HT" compare "$d" --base before) || fail "compare exited $?"
grep -qE '^ +[0-9.]+ ± +[0-9]+% +-33\.3% +[0-9.]+ ± +[0-9]+% .*memory\.peak_mib \[MiB\]$' <<< "$out" ||
	fail "no memory.peak_mib row: $out"
grep -q 'memory.avg_mib \[MiB\]' <<< "$out" || fail "no memory.avg_mib row"
echo "ok: compare rows memory.avg_mib, memory.peak_mib"
