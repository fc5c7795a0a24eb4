#!/bin/bash
# Issue 3: a bad value for every module parameter (out of range, unknown
# name, bad cpulist, CPU not online, a map too big for the guest: issue 11;
# a fault= the shared parser kmod/fault_spec.h refuses, or whose cpus= the
# module does)
# makes insmod fail with EINVAL and a
# kernel message naming the parameter; the guest shows no WARN, BUG or Oops
# (the harness scans console and dmesg: any of those makes the cell CRASH).
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir module_bad_params)
# One insmod a case, 5-6 s each under TCG on a busy host: 33 cases outlast
# the timeout derived from --duration.
"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 1 --bpftrace none --timeout 400 \
	--job-script "$ROOT/tests/vm/jobs/bad_params.sh" --out "$d" || fail "harness exit $?"
t=$(ls "$d"/*/bad_params.txt) || fail "no bad_params.txt"
expect_eq "cases" "$(wc -l < "$t")" 33
for p in workload map_type prealloc max_entries value_size duration_ms time_ops fill_pct cpus map_id \
	verify hold selftest footprint tasks_per_cpu callers fault; do
	grep -q "^$p|" "$t" || fail "parameter $p not tried"
done
while IFS='|' read -r name rc err msg; do
	expect_cmp "$name: insmod exit" "$rc" "!=" 0
	[[ $msg == *"$name"* ]] || fail "$name: kernel message does not name it: $msg"
done < "$t"
expect_eq "verdict" "$(jq -r '.cells[0].verdict' "$d/summary.json")" PASS
expect_no_kernel_report "$d"/*/console.log "$d"/*/dmesg.txt
