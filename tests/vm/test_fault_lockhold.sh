#!/bin/bash
# fault=lockhold (issue 28): the worker CPU's freelist lock held 20 us at
# every pop of its own. Churn at 2 vCPUs on half a map, once with kthread
# callers, once with kthread+nmi. The probe fires for exactly the workers'
# pops (one a churn update), never for the NMI callers' own. With NMIs, an
# NMI meeting both CPUs' locks held parks its element on the extralist,
# which the injector sees (extralist_nonempty); without NMIs nothing ever
# goes there. Both cells PASS: the extralist's elements come back.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir fault_lockhold)
"$HT" run "${RESTORE[@]}" --cpus 2 --workload churn --callers kthread,kthread+nmi \
	--fault lockhold:20us --duration 3 --bpftrace none --out "$d/run" > "$d/run.out" ||
	fail "harness exit $? ($(tail -3 "$d/run.out"))"
cat "$d/run.out"
expect_eq "verdicts" "$(jq -r '[.cells[].verdict] | join(" ")' "$d/run/summary.json")" "PASS PASS"
cell_dir base "$d/run" callers=kthread
cell_dir nmi "$d/run" callers=kthread+nmi
k='.callers[] | select(.kind == "kthread") | .ops_by_kind.update'
for c in "$base" "$nmi"; do
	m=$c/module.json
	expect_eq "${c##*/}: fault type" "$(jq -r '.faults[0].type' "$m")" lockhold
	expect_cmp "${c##*/}: holds" "$(jq '.faults[0].hits' "$m")" ">" 1000
	expect_eq "${c##*/}: holds = the workers' pops" "$(jq '.faults[0].hits' "$m")" "$(jq "$k" "$m")"
	expect_eq "${c##*/}: reinserted == capacity" "$(jq '.verdict.reinserted' "$m")" \
		"$(jq '.verdict.capacity' "$m")"
done
expect_eq "extralist used, kthread callers" "$(jq '.faults[0].extralist_nonempty' "$base/module.json")" 0
expect_cmp "extralist used, kthread+nmi callers" \
	"$(jq '.faults[0].extralist_nonempty' "$nmi/module.json")" ">" 0
expect_no_kernel_report "$base/console.log" "$nmi/console.log"
