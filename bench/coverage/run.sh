#!/bin/bash
# `make coverage`: every workload (kmod/workloads.h, as `run --help` lists
# them) on every map type, preallocated and not (LRU maps only preallocated:
# the plan leaves lru x prealloc 0 out), at 4 vCPUs on the coverage kernel (`run --coverage`, which builds
# the variant and its module on demand like any variant), then the report's
# coverage table (workload x function: lines and branches hit/total, merged
# over each workload's cells) and the merged percentages over all workloads
# for percpu_freelist.c and hashtab.c. Figures are the workload snapshot
# (after the workers, before the verdict; harness/FORMAT.md, "Coverage"),
# and the module's whole life, insmod to rmmod (setup and teardown too).
#
# Environment: COVERAGE_OUT (run directory), COVERAGE_CPUS (4),
# COVERAGE_DURATION (3 s), COVERAGE_REPEAT (1), COVERAGE_WORKLOADS (comma
# list, default every workload), COVERAGE_MAP_TYPES (comma list, default all
# four: bpf_lru_list.c and the per-CPU value paths are only reached through
# them), COVERAGE_PREALLOC (1,0: memalloc.c is the non-preallocated maps'),
# COVERAGE_LINE (a kernel line, e.g. 6.12: its LINE/coverage kernel),
# COVERAGE_CALLERS (`run --callers`, default kthread,kthread+nmi: every
# map with kthreads, and the preallocated hash maps again with map ops from
# NMI, so the NMI half of percpu_freelist.c is counted with the rest; the
# plan leaves nmi out of LRU and unpreallocated maps), COVERAGE_FAULT (`run
# --fault`, default none; lockhold:20us holds the workers' freelist locks so NMI
# pushes reach the extralist: bench/RESULTS.md).
# Exit: the run's (0 every cell PASS), 2 when it could not be made, 1 when
# the report or a coverage figure is missing.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
. bench/lib/relpath.sh

: "${COVERAGE_OUT:=results/coverage-$(date +%Y%m%d-%H%M%S)}" "${COVERAGE_CPUS:=4}" \
	"${COVERAGE_DURATION:=3}" "${COVERAGE_REPEAT:=1}" \
	"${COVERAGE_MAP_TYPES:=hash,percpu_hash,lru_hash,lru_percpu_hash}" "${COVERAGE_PREALLOC:=1,0}" \
	"${COVERAGE_CALLERS:=kthread,kthread+nmi}" "${COVERAGE_FAULT:=none}"
out=$COVERAGE_OUT
# The workloads `run` knows (its --help lists kmod/workloads.h's).
: "${COVERAGE_WORKLOADS:=$(./harness/htab-torture run --help 2>&1 | sed -n 's/^workloads: //p' | tr ' ' ',')}"
[ -n "$COVERAGE_WORKLOADS" ] || { echo "coverage: no workloads" >&2; exit 2; }

t0=$(date +%s)
./harness/htab-torture run --coverage ${COVERAGE_LINE:+--kernel "$COVERAGE_LINE/coverage"} \
	--cpus "$COVERAGE_CPUS" --workload "$COVERAGE_WORKLOADS" \
	--map-type "$COVERAGE_MAP_TYPES" --prealloc "$COVERAGE_PREALLOC" \
	--callers "$COVERAGE_CALLERS" --fault "$COVERAGE_FAULT" \
	--repeat "$COVERAGE_REPEAT" --duration "$COVERAGE_DURATION" --bpftrace none --out "$out"
rc=$?
[ $rc -eq 2 ] && exit 2
./harness/htab-torture report "$out" > /dev/null || exit 1
wall=$(( $(date +%s) - t0 ))

echo
sed -n '/^Coverage$/,/^$/p' "$out/report.txt"
echo "# merged over every workload (union of hit lines and branches):"
echo "# all workloads: the window (workload snapshots); insmod to rmmod: setup and teardown too"
missing=0
for f in percpu_freelist hashtab; do
	# the report's summary.json: its figures of every workload, and of insmod to rmmod
	row=$(jq -r --arg f "$f" 'def pct($k): if $k == null then "-" else "\($k * 10 | round / 10)%" end;
		def fig($n): .coverage[$n] // empty
			| "\($n): lines \(pct(.[$f + ".lines_pct"])), branches \(pct(.[$f + ".branches_pct"]))";
		[fig("all workloads"), fig("insmod to rmmod")] | join("; ")' "$out/summary.json")
	[ -n "$row" ] || { row="no figure (see the errors above)"; missing=1; }
	echo "  $f.c: $row"
done
shown=$(root_rel "$out")
echo "# wall ${wall} s; $shown/report.html (annotated source: $shown/coverage/<workload>/)"
[ $missing -eq 0 ] || exit 1
exit $rc
