#!/bin/bash
# --bpftrace-preattach on (vm-images/guest/init observe, run-job.sh
# obs_adopt): the guest saved for the restores has the pop script live; the
# first cell restored from it adopts it (engine "preattached": its form and
# callers as the runner would have chosen, its histogram the workers'
# pops); the next cell of that boot starts its own. A cell that would run
# the script otherwise (a job script: every caller, no argument) stops the
# saved observer before its job and starts its own.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir bpftrace_preattach)
export HTAB_SNAPSHOT_CACHE=$d/snap
pop=.bpftrace.__pcpu_freelist_pop

"$HT" run --cpus 2 --workload full_update --duration 1 --repeat 2 --bpftrace-preattach on \
	--out "$d/run" > "$d/run.out" 2>&1 || fail "harness exit $? ($(tail -3 "$d/run.out"))"
expect_eq "verdicts" "$(jq -r '[.cells[].verdict] | unique | join(" ")' "$d/run/summary.json")" PASS
grep -q "htab-init: observers live ($ROOT/bpftrace/__pcpu_freelist_pop.bt)" "$d"/snap/*/console.log ||
	fail "the saved guest did not start the observer: $(grep -h htab-init "$d"/snap/*/console.log)"
cell_dir c0 "$d/run" repeat=0
cell_dir c1 "$d/run" repeat=1
grep -q "live since the save: adopted" "$c0/guest.log" ||
	fail "first cell adopted nothing: $(grep -h "runner: bpftrace" "$c0/guest.log")"
expect_eq "first cell: engine" "$(jq -r "$pop.engine" "$c0/cell.json")" preattached
expect_eq "first cell: form" "$(jq -r "$pop.form" "$c0/cell.json")" fentry
expect_eq "first cell: callers" "$(jq -r "$pop.callers" "$c0/cell.json")" workers
expect_cmp "first cell: pops timed" "$(jq "$pop.hists[\"@ns\"].count" "$c0/cell.json")" ">" 0
# Its pops are this cell's workers' and no others: on a full map each
# update pops once (and gets NULL), so as many as the module's updates.
expect_eq "first cell: pops = the workers' updates" "$(jq "$pop.values[\"@calls\"]" "$c0/cell.json")" \
	"$(jq .ops "$c0/cell.json")"
expect_eq "next cell: engine" "$(jq -r "$pop.engine" "$c1/cell.json")" bpftrace
expect_cmp "next cell: pops timed" "$(jq "$pop.hists[\"@ns\"].count" "$c1/cell.json")" ">" 0

# A job script: the saved observer counts the workers only; this cell wants
# every caller, so it is stopped before the job and the cell starts its own.
cat > "$d/job.sh" << 'EOF'
grep -al "/tmp/ob[s]/" /proc/[0-9]*/cmdline 2> /dev/null | wc -l > "$cell/saved-observers.txt"
return 0
EOF
"$HT" run --cpus 2 --workload full_update --duration 1 --bpftrace-preattach on \
	--job-script "$d/job.sh" --out "$d/job" > "$d/job.out" 2>&1 || fail "job: harness exit $? ($(tail -3 "$d/job.out"))"
cell_dir j "$d/job" repeat=0
expect_eq "job cell: saved observers running in its job" "$(cat "$j/saved-observers.txt")" 0
grep -q "live since the save, not this cell's: stopped" "$j/guest.log" || fail "no stop in $j/guest.log"
expect_eq "job cell: engine" "$(jq -r "$pop.engine" "$j/cell.json")" bpftrace
expect_eq "job cell: callers" "$(jq -r "$pop.callers" "$j/cell.json")" all
expect_eq "one snapshot for both runs" "$(ls "$d/snap" | wc -l)" 1
