#!/bin/bash
# The caller axis (issue 28): kthread and kthread+nmi cells of churn (a
# pop and a push per event, on a half-full map) and full_update (a full
# map: every insert must fail) at 2 and 4 vCPUs on the distro kernel. Every
# cell PASSes. In the nmi cells the NMI handler ran (calls > 0), every call
# with in_nmi() true, its inserts, lookups and deletes are counted in
# callers[] with only legal errnos (EBUSY, E2BIG), and the verdict covered
# them: on churn its inserts succeeded and were deleted again (so its pops
# and pushes ran in NMI context: __pcpu_freelist_pop/push dispatch on
# in_nmi()), the residual matches; on full_update none fit. The module gets
# callers= only away from the default, whose cells keep their ids and list
# only the kthread caller. The NMI rate per vCPU is printed (emulated).
# Then one cell of every kind at once on a percpu_hash map.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir callers)
"$HT" run --cpus 2,4 --workload churn,full_update --callers kthread,kthread+nmi --duration 2 \
	--bpftrace none --out "$d/run" > "$d/run.out" || fail "harness exit $? ($(tail -3 "$d/run.out"))"
cat "$d/run.out"
s="$d/run/summary.json"
expect_eq "cells" "$(jq '.cells | length' "$s")" 8
expect_eq "verdicts" "$(jq -r '[.cells[].verdict] | unique | join(" ")' "$s")" PASS
for v in 2 4; do
	for w in churn full_update; do
		cell_dir base "$d/run" vcpus=$v workload=$w callers=kthread
		cell_dir nmi "$d/run" vcpus=$v workload=$w callers=kthread+nmi
		expect_eq "v$v $w ids: the default's, -c<callers> beside it" "${nmi##*/}" "${base##*/}-ckthread+nmi"
		! grep -q 'callers=' "$base/job.env" || fail "$base: the default cell passes callers="
		grep -q 'callers=kthread+nmi' "$nmi/job.env" || fail "$nmi: job.env lacks callers=kthread+nmi"
		expect_eq "v$v $w default callers" "$(jq -r '[.callers[].kind] | join(" ")' "$base/module.json")" kthread
		m="$nmi/module.json"
		expect_eq "v$v $w params.callers" "$(jq -r .params.callers "$m")" kthread+nmi
		expect_eq "v$v $w cell.json callers" "$(jq -r .callers "$nmi/cell.json")" kthread+nmi
		n='.callers[] | select(.kind == "nmi")'
		calls=$(jq "$n | .calls" "$m")
		expect_cmp "v$v $w NMIs handled" "$calls" ">" 0
		expect_eq "v$v $w NMIs in_nmi()" "$(jq "$n | .in_context" "$m")" "$calls"
		expect_eq "v$v $w NMI per_cpu" "$(jq "[$n | .per_cpu[] | select(.calls > 0)] | length" "$m")" "$v"
		expect_eq "v$v $w NMI unexpected" "$(jq "$n | .unexpected_errors" "$m")" 0
		expect_eq "v$v $w NMI errnos legal" \
			"$(jq -r "$n | .errors | keys - [\"EBUSY\", \"E2BIG\"] | length" "$m")" 0
		expect_eq "v$v $w NMI undrained" "$(jq "$n | .undrained" "$m")" 0
		expect_eq "v$v $w NMI live_delta" "$(jq "$n | .live_delta" "$m")" 0
		expect_eq "v$v $w residual" "$(jq .verdict.residual "$m")" "$(jq .verdict.residual_expected "$m")"
		upd=$(jq "$n | .ops_by_kind.update" "$m")
		e2big=$(jq "$n | .errors.E2BIG // 0" "$m")
		if [ "$w" = churn ]; then
			expect_cmp "v$v churn NMI deletes (pushes in NMI)" "$(jq "$n | .ops_by_kind.delete" "$m")" ">" 0
			expect_cmp "v$v churn NMI inserts that fit (pops in NMI)" "$((upd - e2big))" ">" 0
		else
			expect_eq "v$v full_update NMI inserts all E2BIG or EBUSY" \
				"$(jq "$n | .ops_by_kind.update - (.errors.E2BIG // 0) - (.errors.EBUSY // 0)" "$m")" 0
			expect_eq "v$v full_update NMI deletes" "$(jq "$n | .ops_by_kind.delete" "$m")" 0
		fi
		echo "v$v $w: NMIs/s per vCPU $(jq "$n | .calls_per_sec_per_cpu" "$m") (TCG, emulated)," \
			"kthread ops/s $(jq .totals.ops_per_sec "$base/module.json") without NMIs," \
			"$(jq .totals.ops_per_sec "$m") with"
	done
done
expect_no_kernel_report "$d"/run/*/console.log
# Every kind at once on a per-CPU map (each caller reads back its own CPU's
# slot): the irq kind's calls ran in hardirq, both interrupt kinds did ops.
"$HT" run --cpus 2 --workload churn --map-type percpu_hash --callers kthread+nmi+irq --duration 2 \
	--bpftrace none --out "$d/all" > "$d/all.out" || fail "harness exit $? ($(tail -3 "$d/all.out"))"
cat "$d/all.out"
cell_dir c "$d/all" callers=kthread+nmi+irq
expect_eq "all kinds verdict" "$(jq -r '.cells[0].verdict' "$d/all/summary.json")" PASS
m="$c/module.json"
expect_eq "all kinds callers" "$(jq -r '[.callers[].kind] | join(" ")' "$m")" "kthread nmi irq"
for k in nmi irq; do
	n=".callers[] | select(.kind == \"$k\")"
	calls=$(jq "$n | .calls" "$m")
	expect_cmp "$k calls" "$calls" ">" 0
	expect_eq "$k calls in context" "$(jq "$n | .in_context" "$m")" "$calls"
	expect_cmp "$k deletes" "$(jq "$n | .ops_by_kind.delete" "$m")" ">" 0
	expect_eq "$k unexpected" "$(jq "$n | .unexpected_errors" "$m")" 0
done
expect_eq "all kinds walk_bad" "$(jq .verdict.walk_bad "$m")" 0
expect_eq "all kinds residual" "$(jq .verdict.residual "$m")" "$(jq .verdict.residual_expected "$m")"
expect_eq "cell.json caller_stats" "$(jq -r '[.caller_stats[].kind] | join(" ")' "$c/cell.json")" "kthread nmi irq"
expect_no_kernel_report "$c/console.log"
