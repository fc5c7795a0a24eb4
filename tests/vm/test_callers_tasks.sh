#!/bin/bash
# The task caller kind (issue 28): user-space tasks, more of them than
# CPUs, unbound and preemptible, calling the module's map through the
# bpf() syscall (vm-images/guest/tasks.c, started by the runner when the
# module asks). Churn (half-full map) and full_update (a full map) at 2
# vCPUs on the distro kernel, with and without them, then churn on a
# percpu_hash map with --tasks-per-cpu 3. Every cell PASSes. In a task
# cell: 4 (3) tasks a vCPU, all ready before the window and all reported
# before the verdict; they made calls and ops with only legal errnos
# (E2BIG: a full map); they were preempted (involuntary context switches)
# and so oversubscribed; their stamps carry their own writer ids: the end
# walk found as many live elements stamped by a task as the tasks' inserts
# minus deletes leave, and the residual matches with them in it. On churn
# their inserts fit, on full_update none did. Only task cells pass
# callers= and only the --tasks-per-cpu run tasks_per_cpu=.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir callers_tasks)
"$HT" run --cpus 2 --workload churn,full_update --callers kthread,kthread+task --duration 2 \
	--bpftrace none --out "$d/run" > "$d/run.out" || fail "harness exit $? ($(tail -3 "$d/run.out"))"
cat "$d/run.out"
expect_eq "cells" "$(jq '.cells | length' "$d/run/summary.json")" 4
expect_eq "verdicts" "$(jq -r '[.cells[].verdict] | unique | join(" ")' "$d/run/summary.json")" PASS

# check_task CELL TASKS_PER_CPU WORKLOAD
check_task() {
	local c=$1 m=$1/module.json n='.callers[] | select(.kind == "task")' tasks=$((2 * $2))
	grep -q "callers=kthread+task" "$c/job.env" || fail "$c: job.env lacks callers=kthread+task"
	expect_eq "$3 callers" "$(jq -r '[.callers[].kind] | join(" ")' "$m")" "kthread task"
	expect_eq "$3 params.tasks_per_cpu" "$(jq .params.tasks_per_cpu "$m")" "$2"
	expect_eq "$3 tasks" "$(jq "$n | .tasks" "$m")" "$tasks"
	expect_cmp "$3 tasks over worker CPUs (oversubscribed)" "$(jq "$n | .tasks" "$m")" ">" \
		"$(jq "$n | .worker_cpus" "$m")"
	expect_eq "$3 tasks ready before the window" "$(jq "$n | .attached" "$m")" "$tasks"
	expect_eq "$3 tasks late" "$(jq "$n | .late" "$m")" 0
	expect_eq "$3 tasks reported" "$(jq "$n | .reported" "$m")" "$tasks"
	expect_eq "$3 tasks with calls" "$(jq "[$n | .per_task[] | select(.calls > 0)] | length" "$m")" "$tasks"
	expect_eq "$3 distinct task pids" "$(jq "[$n | .per_task[].pid] | unique | length" "$m")" "$tasks"
	expect_cmp "$3 task ops" "$(jq "$n | .ops" "$m")" ">" 0
	expect_cmp "$3 tasks preempted (involuntary switches)" "$(jq "$n | .nivcsw" "$m")" ">" 0
	expect_eq "$3 task unexpected" "$(jq "$n | .unexpected_errors" "$m")" 0
	expect_eq "$3 task errnos legal" "$(jq -r "$n | .errors | keys - [\"E2BIG\"] | length" "$m")" 0
	expect_eq "$3 task corrupt" "$(jq "$n | .corrupt" "$m")" 0
	expect_eq "$3 live elements stamped by tasks" "$(jq .verdict.live_stamps.task "$m")" \
		"$(jq "$n | .live_delta" "$m")"
	expect_eq "$3 residual" "$(jq .verdict.residual "$m")" "$(jq .verdict.residual_expected "$m")"
	expect_eq "$3 cell.json caller_stats" "$(jq -r '[.caller_stats[].kind] | join(" ")' "$c/cell.json")" \
		"kthread task"
	grep -q "htab-tasks exit 0" "$c/guest.log" || fail "$c: htab-tasks did not exit 0"
	echo "$3: $tasks tasks, $(jq "$n | .calls_per_sec_per_cpu" "$m") calls/s per vCPU," \
		"$(jq "$n | .nivcsw" "$m") involuntary switches, $(jq "$n | .migrations" "$m") migrations (TCG)"
}

for w in churn full_update; do
	cell_dir base "$d/run" workload=$w callers=kthread
	cell_dir task "$d/run" workload=$w callers=kthread+task
	! grep -q 'callers=\|tasks_per_cpu=' "$base/job.env" || fail "$base: the default cell passes callers= or tasks_per_cpu="
	expect_eq "$w default callers" "$(jq -r '[.callers[].kind] | join(" ")' "$base/module.json")" kthread
	[ ! -e "$base/tasks.log" ] || fail "$base: htab-tasks ran in a kthread cell"
	check_task "$task" 4 "$w"
	! grep -q 'tasks_per_cpu=' "$task/job.env" || fail "$w: tasks_per_cpu= without --tasks-per-cpu"
	echo "$w: kthread ops/s $(jq .totals.ops_per_sec "$base/module.json") without tasks," \
		"$(jq .totals.ops_per_sec "$task/module.json") with"
done
cell_dir task "$d/run" workload=churn callers=kthread+task
m=$task/module.json
n='.callers[] | select(.kind == "task")'
expect_cmp "churn task inserts that fit" "$(jq "$n | .ops_by_kind.update - (.errors.E2BIG // 0)" "$m")" ">" 0
expect_cmp "churn task deletes" "$(jq "$n | .ops_by_kind.delete" "$m")" ">" 0
cell_dir task "$d/run" workload=full_update callers=kthread+task
m=$task/module.json
expect_eq "full_update task inserts: none fit" "$(jq "$n | .live_delta + .ops_by_kind.delete" "$m")" 0
expect_cmp "full_update task E2BIG" "$(jq "$n | .errors.E2BIG" "$m")" ">" 0
expect_no_kernel_report "$d"/run/*/console.log

"$HT" run --cpus 2 --workload churn --map-type percpu_hash --callers kthread+task --tasks-per-cpu 3 \
	--duration 2 --bpftrace none --out "$d/pc" > "$d/pc.out" || fail "harness exit $? ($(tail -3 "$d/pc.out"))"
cat "$d/pc.out"
cell_dir c "$d/pc" callers=kthread+task
expect_eq "percpu verdict" "$(jq -r '.cells[0].verdict' "$d/pc/summary.json")" PASS
grep -q 'tasks_per_cpu=3' "$c/job.env" || fail "$c: job.env lacks tasks_per_cpu=3"
check_task "$c" 3 percpu_hash
expect_no_kernel_report "$c/console.log"
