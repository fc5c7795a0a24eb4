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
rerun_finishes_the_rest "$d" "$d.out2" "$d.err2" 3 "${args[@]}"
expect_eq "manifest runs" "$(jq '.runs | length' "$d/manifest.json")" 2
