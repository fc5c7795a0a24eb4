#!/bin/bash
# The boot split of issue 15 from run directories: per run and vCPU count,
# the median (min–max) host seconds from QEMU's start to each boot_phases
# mark of cell.json (harness/FORMAT.md), and the module's median ops/s. The
# cells of a shared boot after its first get rows of their own (their marks
# count from when the harness sent them).
# Usage: bench/boot_split.sh RUN_DIR... (prints a markdown table)
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 RUN_DIR..." >&2; exit 2; }
echo "| run | vCPUs | cells | first console | last AP | SMP up | init | CPUs online | modules | runner | bpftrace attached | module done | power-off | wall | ops/s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for r in "$@"; do
	jq -s -r --arg run "$(basename "$r")" '
	def med: sort | if length == 0 then null else (if length % 2 == 1 then .[length / 2 | floor]
		else (.[length / 2 - 1] + .[length / 2]) / 2 end) end;
	def fmt: if . == null then "–" else (. * 10 | round / 10 | tostring) end;
	def cell(f): [.[] | f | select(. != null)] as $v |
		if ($v | length) == 0 then "–"
		elif ($v | length) == 1 then ($v[0] | fmt)
		else "\($v | med | fmt) (\($v | min | fmt)–\($v | max | fmt))" end;
	# A shared boot'"'"'s later cells apart: their marks count from being sent.
	group_by([.vcpus, ((.boot.cell_in_boot // 1) > 1)])[] |
	"| \($run)\(if (.[0].boot.cell_in_boot // 1) > 1 then " (later cells of shared boots)" else "" end) | \(.[0].vcpus) | \(length) \([.[].verdict] | unique | join("/")) | " +
	([cell(.boot_phases.first_console_s), cell(.boot_phases.last_ap_s), cell(.boot_phases.smp_up_s),
	  cell(.boot_phases.init_s),
	  cell(.boot_phases.cpus_online_s), cell(.boot_phases.modules_s), cell(.boot_phases.runner_s), cell(.boot_phases.attached_s),
	  cell(.boot_phases.module_done_s), cell(.boot_phases.power_off_s), cell(.boot_phases.wall_s)]
	 | join(" | ")) +
	" | \([.[] | .ops_per_sec | select(. != null)] | med | if . == null then "–" else round end) |"
	' "$r"/*/cell.json
done
