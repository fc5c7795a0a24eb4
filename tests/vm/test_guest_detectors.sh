#!/bin/bash
# Emulation is not a kernel bug (issue 11): under TCG the guest's soft-lockup
# and RCU-stall thresholds scale with vCPUs per host core. A 4-vCPU guest
# reads back what its kernel uses; it must equal what cell.json records and
# what the command line asked for (10 and 21 times the overcommit, capped).
# (On a host with 4 or more cores the factor is 1 and the defaults are checked.)
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir guest_detectors)
"$HT" run "${RESTORE[@]}" --cpus 4 --accel tcg --bpftrace none --duration 1 \
	--job-script "$ROOT/tests/vm/jobs/read_detectors.sh" --out "$d" > "$d.out" 2> "$d.err" ||
	{ cat "$d.err"; fail "harness exit $?"; }
cell_dir c "$d" vcpus=4
cores=$(nproc)
over=$(( (4 + cores - 1) / cores ))
wd=$(( 10 * over > 60 ? 60 : 10 * over ))
rcu=$(( 21 * over > 300 ? 300 : 21 * over ))
expect_eq "cell.json overcommit" "$(jq -r .overcommit "$c/cell.json")" "$over"
expect_eq "cell.json watchdog_thresh" "$(jq -r .watchdog_thresh "$c/cell.json")" "$wd"
expect_eq "cell.json rcu_cpu_stall_timeout" "$(jq -r .rcu_cpu_stall_timeout "$c/cell.json")" "$rcu"
grep -qx -- "watchdog_thresh=$wd rcupdate.rcu_cpu_stall_timeout=$rcu" <(tr ' ' '\n' < "$c/qemu.argv" |
	grep -E '^(watchdog_thresh|rcupdate\.rcu_cpu_stall_timeout)=' | paste -sd ' ') ||
	fail "qemu.argv lacks watchdog_thresh=$wd rcupdate.rcu_cpu_stall_timeout=$rcu"
[ -s "$c/detectors.env" ] || fail "the guest job wrote no detectors.env"
cat "$c/detectors.env"
expect_eq "guest watchdog_thresh" "$(sed -n 's/^watchdog_thresh=//p' "$c/detectors.env")" "$wd"
expect_eq "guest rcu_cpu_stall_timeout" "$(sed -n 's/^rcu_cpu_stall_timeout=//p' "$c/detectors.env")" "$rcu"
expect_eq "verdict" "$(jq -r .verdict "$c/cell.json")" PASS
