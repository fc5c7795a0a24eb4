#!/bin/bash
# fault= errors fail insmod (issue 7): an unknown symbol, a symbol kprobes
# refuse, and malformed specs. One 2-vCPU guest runs the custom job
# tests/vm/jobs/fault_bad_symbol.sh, which tries each insmod, expects it to
# fail with EINVAL ("Invalid argument") and the kernel log to name the
# symbol or the bad field; a final good fault= must load and pass.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir fault_bad_symbol)
"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 1 --out "$d" --bpftrace none \
	--job-script "$ROOT/tests/vm/jobs/fault_bad_symbol.sh" || fail "harness exit $?"
cell_dir c "$d" vcpus=2
expect_eq "verdict" "$(jq -r '.cells[0].verdict' "$d/summary.json")" PASS
[ -s "$c/cases.txt" ] || fail "no cases.txt"
sed 's/^/  /' "$c/cases.txt"
expect_eq "cases ok" "$(grep -c ' ok$' "$c/cases.txt")" "$(wc -l < "$c/cases.txt")"
expect_cmp "cases" "$(wc -l < "$c/cases.txt")" ">=" 15
grep -q 'fault=delay:no_such_function_xyz:1000ns: cannot probe symbol no_such_function_xyz' "$c/cases.dmesg" ||
	fail "kernel log does not name the unknown symbol"
m="$c/module.json"
expect_eq "good run: faults" "$(jq '.faults | length' "$m")" 2
expect_eq "good run: delay cpus" "$(jq -r '.faults[0].cpus' "$m")" 0
expect_cmp "good run: delay injected" "$(jq '.faults[0].injected' "$m")" ">" 0
expect_cmp "good run: every=10" "$(jq '.faults[0].hits / 10 | floor' "$m")" "==" "$(jq '.faults[0].injected' "$m")"
expect_no_kernel_report "$c/console.log"

# The standard flow too: the runner exits 2 on the refused insmod, the cell
# is a setup-error FAIL, and insmod.err / the console name the symbol.
d2=$(fresh_dir fault_bad_symbol_std)
"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 1 --out "$d2" --bpftrace none \
	--modparam fault=delay:no_such_function_xyz:2000ns > "$d2/run.out" 2>&1 && fail "harness passed a refused insmod"
cell_dir c2 "$d2" vcpus=2
expect_eq "standard flow: verdict" "$(jq -r '.cells[0].verdict' "$d2/summary.json")" FAIL
expect_eq "standard flow: runner exit" "$(jq -r '.cells[0].exit_status' "$d2/summary.json")" 2
grep -q 'Invalid' "$c2/insmod.err" || fail "insmod.err: $(cat "$c2/insmod.err")"
grep -q 'cannot probe symbol no_such_function_xyz' "$c2/console.log" ||
	fail "console.log does not name the unknown symbol"
echo "ok: standard flow: $(jq -r '.cells[0].signature' "$d2/summary.json")"
