#!/bin/bash
# Ahead-of-time bpftrace programs (--bpftrace-aot, vm-images/guest/run-job.sh):
# on an empty cache, the first cell of a kprobe-form script runs bpftrace
# and compiles the program after its measurement; the next cell of the same
# kernel loads that program (engine "aot"), counts the same probes (the
# kit's stop probe left out) and gets its histogram. A fentry-form script
# is never compiled (bpftrace 0.17's runtime crashes on kfunc probes). A
# cached program that does not load is marked failed and the cell runs
# bpftrace instead, and later cells do not try it again; --bpftrace-aot off
# runs bpftrace and compiles nothing.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir bpftrace_aot)
export HTAB_BPFTRACE_AOT_CACHE=$d/cache
# NAME [RUN OPTIONS...]: two churn cells at 2 vCPUs, one boot each, each
# starting its own bpftrace (a preattached observer is not compiled)
run() {
	local name=$1
	shift
	"$HT" run --cpus 2 --workload churn --duration 1 --repeat 2 --boot-per-cell \
		--bpftrace-preattach off \
		--bpftrace __pcpu_freelist_push,__pcpu_freelist_pop --out "$d/$name" "$@" \
		> "$d/$name.out" 2>&1 || fail "$name: harness exit $? ($(tail -3 "$d/$name.out"))"
	expect_eq "$name verdicts" "$(jq -r '[.cells[].verdict] | unique | join(" ")' "$d/$name/summary.json")" PASS
}
# engine NAME REPEAT SCRIPT: how SCRIPT ran in that cell
engine() {
	local c
	cell_dir c "$d/$1" repeat="$2"
	jq -r ".bpftrace.$3.engine" "$c/cell.json"
}
push='.bpftrace.__pcpu_freelist_push'

run first
expect_eq "first cell: push by bpftrace" "$(engine first 0 __pcpu_freelist_push)" bpftrace
expect_eq "fentry pop by bpftrace" "$(engine first 0 __pcpu_freelist_pop)" bpftrace
expect_eq "its form" "$(cell_dir c "$d/first" repeat=0 && jq -r '.bpftrace.__pcpu_freelist_pop.form' "$c/cell.json")" fentry
expect_eq "second cell: push by its AOT program" "$(engine first 1 __pcpu_freelist_push)" aot
expect_eq "pop never AOT" "$(engine first 1 __pcpu_freelist_pop)" bpftrace
expect_eq "programs in the cache" "$(ls "$d/cache" | grep -c '^[0-9a-f]\{16\}$')" 1
prog=$(ls "$d/cache")
cell_dir c0 "$d/first" repeat=0
cell_dir c1 "$d/first" repeat=1
expect_eq "the compiled program is the first cell's" "$(cmp "$d/cache/$prog" "$c0/bpftrace/aot/$prog" && echo same)" same
expect_eq "probes: the script's, not the stop probe" "$(jq "$push.attached_probes" "$c1/cell.json")" \
	"$(jq "$push.attached_probes" "$c0/cell.json")"
for c in "$c0" "$c1"; do
	expect_cmp "${c##*/} pushes timed" "$(jq "$push.hists[\"@ns\"].count" "$c/cell.json")" ">" 0
	expect_eq "${c##*/} push lost events" "$(jq "$push.lost_events" "$c/cell.json")" 0
done
grep -q "^// added by the kit" "$c1/bpftrace/__pcpu_freelist_push.aot.bt" ||
	fail "no stop probe in $c1/bpftrace/__pcpu_freelist_push.aot.bt"

# A program that does not load: its cell runs bpftrace; it is marked failed.
echo "not a program" > "$d/cache/$prog"
run broken
expect_eq "broken program: bpftrace instead" "$(engine broken 0 __pcpu_freelist_push)" bpftrace
[ -e "$d/cache/$prog.fail" ] || fail "no $prog.fail in the cache"
grep -q "did not go live" "$d/cache/$prog.fail" || fail "$prog.fail: $(cat "$d/cache/$prog.fail")"
expect_eq "marked failed: not tried again" "$(engine broken 1 __pcpu_freelist_push)" bpftrace
cell_dir b1 "$d/broken" repeat=1
[ ! -e "$b1/bpftrace/aot" ] || fail "$b1 compiled a program marked failed: $(ls "$b1/bpftrace/aot")"
expect_cmp "broken r1 pushes timed" "$(jq "$push.hists[\"@ns\"].count" "$b1/cell.json")" ">" 0

# --bpftrace-aot off: bpftrace every time, nothing compiled, nothing in job.env.
export HTAB_BPFTRACE_AOT_CACHE=$d/cache-off
run off --bpftrace-aot off
for r in 0 1; do
	expect_eq "off r$r" "$(engine off $r __pcpu_freelist_push)" bpftrace
	cell_dir o "$d/off" repeat=$r
	! grep -q BPFTRACE_AOT "$o/job.env" || fail "$o/job.env has BPFTRACE_AOT"
done
[ -z "$(ls -A "$d/cache-off" 2>/dev/null)" ] || fail "--bpftrace-aot off filled $d/cache-off"
