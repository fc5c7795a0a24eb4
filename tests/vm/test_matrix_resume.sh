#!/bin/bash
# Nothing lost: a 3-cell matrix (two cells at a time) is killed with SIGKILL
# once the first cell has finished. No QEMU may outlive it (PR_SET_PDEATHSIG);
# re-running the same command finishes the rest without rerunning a finished
# cell: every cell ends with one cell.json, those finished before the kill are
# byte-identical and were started once (attempts.log), summary.json lists
# each cell once, manifest.json records both command lines.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir matrix_resume)
args=(run --cpus 1,2,3 --bpftrace none --duration 2 --jobs 2 --out "$d")
"$HT" "${args[@]}" > "$d.out1" 2> "$d.err1" &
pid=$!
for _ in $(seq 600); do
	ls "$d"/*/cell.json > /dev/null 2>&1 && break
	sleep 0.2
done
ls "$d"/*/cell.json > /dev/null 2>&1 || { kill -9 $pid; fail "no cell finished in 120 s"; }
kill -9 $pid
wait $pid 2> /dev/null
running=$(grep -c ': started' "$d.err1")
echo "killed after: $(grep -c '^\[' "$d.err1") finished, $running started"
for _ in 1 2 3 4 5 6 7 8 9 10; do pgrep -f -- "$d/" > /dev/null || break; sleep 0.3; done
pgrep -f -- "$d/" > /dev/null && fail "orphaned QEMU after kill -9: $(pgrep -af -- "$d/")"
echo "ok: no orphaned QEMU"
declare -A before
for f in "$d"/*/cell.json; do before[$f]=$(sha256sum < "$f"); done
expect_cmp "cells finished before the kill" "${#before[@]}" ">=" 1
expect_cmp "cells finished before the kill" "${#before[@]}" "<" 3

"$HT" "${args[@]}" > "$d.out2" 2> "$d.err2" || fail "rerun exit $?: $(cat "$d.err2")"
expect_eq "rerun skipped the finished cells" "$(grep -c 'finished before' "$d.err2")" "${#before[@]}"
for f in "${!before[@]}"; do
	expect_eq "$(basename "$(dirname "$f")") untouched" "$(sha256sum < "$f")" "${before[$f]}"
	expect_eq "$(basename "$(dirname "$f")") attempts" "$(wc -l < "$(dirname "$f")/attempts.log")" 1
done
for id in v1 v2 v3; do
	c=$(echo "$d/$id"-*)
	[ -f "$c/cell.json" ] || fail "$id: no cell.json"
	expect_eq "$id verdict" "$(jq -r .verdict "$c/cell.json")" PASS
	expect_eq "$id attempt in cell.json" "$(jq .attempt "$c/cell.json")" "$(wc -l < "$c/attempts.log")"
done
expect_eq "summary cells" "$(jq '.cells | length' "$d/summary.json")" 3
expect_eq "summary ids unique" "$(jq '[.cells[].cell] | unique | length' "$d/summary.json")" 3
expect_eq "manifest runs" "$(jq '.runs | length' "$d/manifest.json")" 2
