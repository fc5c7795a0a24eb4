#!/bin/bash
# bench/mutants.sh's table and figures from a fabricated finished run
# (MUTANTS_FROM, no VM): a `fixed` cell a known kernel bug explains
# (cell.json known_bug) is marked and counted apart, not as a false alarm;
# without known_bug the same cell is one, and the exit says so.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir mutants_table)

cell() {	# KERNEL WORKLOAD VERDICT [SIGNATURE [KNOWN_ID]]
	local c=$d/run/map-default/v4-$2-$1-none-r0-ckthread+nmi
	mkdir -p "$c"
	jq -n --arg k "$1" --arg w "$2" --arg v "$3" --arg s "${4:-}" --arg id "${5:-}" \
		'{kernel: $k, workload: $w, repeat: 0, verdict: $v, signature: $s, accel: "tcg",
		  callers: "kthread+nmi"} + (if $id == "" then {} else
		  {known_bug: {id: $id, title: "t", see: "s"}} end)' > "$c/cell.json"
}
hang="hang: CPUs spinning in queued_spin_lock_slowpath"
cell fixed w1 PASS
cell fixed w2 TIMEOUT "$hang" htab-nmi-bucket-freelist-abba
cell mut-a w1 CRASH "BUG: kernel NULL pointer dereference in ___pcpu_freelist_pop"
cell mut-a w2 PASS
run() {
	MUTANTS=mut-a MUTANTS_WORKLOADS=w1,w2 MUTANTS_CALLERS=kthread+nmi MUTANTS_REPEAT=1 \
		MUTANTS_FROM=$1 bash "$ROOT/bench/mutants.sh" 2>&1
}

out=$(run "$d/run"); rc=$?
echo "$out"
expect_eq "exit with the known bug only" "$rc" 0
for want in "mutation score: 1/1 mutants killed in every repeat" \
	"false alarms on fixed: 0 of 2 cells" \
	"known kernel bugs on fixed: 1 of 2 cells (htab-nmi-bucket-freelist-abba x1)" \
	"TIMEOUT*" "# *: a known kernel bug" "$hang [known: htab-nmi-bucket-freelist-abba]"; do
	grep -qF -- "$want" <<<"$out" || fail "mutants table lacks '$want'"
	echo "ok: has '$want'"
done

# the same hang, not explained: a false alarm
cell fixed w2 TIMEOUT "$hang"
out=$(run "$d/run"); rc=$?
expect_eq "exit with an unexplained fixed hang" "$rc" 1
grep -qF "false alarms on fixed: 1 of 2 cells" <<<"$out" || fail "not counted: $out"
grep -qF "known kernel bugs on fixed: 0 of 2 cells" <<<"$out" || fail "known count: $out"
grep -qF "TIMEOUT*" <<<"$out" && fail "marked known: $out"
echo "ok: an unexplained hang on fixed is a false alarm"

out=$(run "$d/nothing"); rc=$?
expect_eq "exit for a missing run" "$rc" 2
grep -qF "MUTANTS_FROM=$d/nothing: no map-default/ run in it" <<<"$out" || fail "error: $out"
echo "ok: a missing run is named"
