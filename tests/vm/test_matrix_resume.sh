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
kill9_after_first_cell "$d" "$d.out1" "$d.err1" "${args[@]}"
echo "killed after: $(grep -c '^\[' "$d.err1") finished, $(grep -c ': started' "$d.err1") started"
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
