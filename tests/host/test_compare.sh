#!/bin/bash
# `htab-torture compare` end to end on the fixture runs (tests/fixtures/compare):
# the table (significant change marked, no change unmarked, too few repeats,
# the TCG note), compare.json, verdicts as data (verdicts_run: counts,
# Clopper-Pearson intervals, Fisher p, fixed/regressed/no evidence, repeats
# for 80 % power, what 0 of n bounds), one-line errors naming the value with
# exit 2, and bench/seed-000.sh's printout (the seed's lines, then ours with
# the CI).
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir compare)
cp -r "$ROOT/tests/fixtures/compare/kernels_run" "$d/"
run=$d/kernels_run

out=$("$HT" compare "$run" --base before-000) || fail "compare exited $?"
echo "$out" > "$d/table.txt"
for want in "+50.0%*" "+0.4% " "too few repeats (n=1)" "(tcg: emulated)" "[unit]   [%]" \
	    "1 PASS (excluded: 1 CRASH)"; do
	[[ $out == *"$want"* ]] || fail "table lacks '$want' (see $d/table.txt)"
	echo "ok: table has '$want'"
done
[ -s "$run/compare.json" ] || fail "one-run compare did not write RUN/compare.json"
expect_eq "json change_pct fixed/before-000" "$(jq '.groups[] | select(.kernel_b == "fixed")
	| .metrics[] | select(.name == "module.ops_per_sec_per_cpu") | .change_pct' "$run/compare.json")" 50
expect_eq "json too few repeats" "$(jq -r '.groups[] | select(.kernel_b == "lockdep")
	| .metrics[0].note' "$run/compare.json")" "too few repeats (n=1)"

"$HT" compare "$ROOT/tests/fixtures/compare/run_a" "$ROOT/tests/fixtures/compare/run_b" \
	--json - > "$d/ab.json" || fail "two-run compare --json - exited $?"
expect_eq "two runs: groups" "$(jq '.groups | length' "$d/ab.json")" 2
expect_eq "two runs: unmatched in B" "$(jq '.unmatched.b | length' "$d/ab.json")" 2

# What ran the observers: said per side, and flagged when the sides differ
# (a preattached observer against one started in the cell).
for s in a b; do cp -r "$ROOT/tests/fixtures/compare/run_$s" "$d/obs_$s"; done
expect_eq "no scripts: observers none" "$(jq -r '.a.observers + " " + .b.observers' "$d/ab.json")" "none none"
engine() {	# RUN ENGINE: every cell's pop script ran by ENGINE
	local c
	for c in "$1"/*/cell.json; do
		jq --arg e "$2" '.bpftrace = {__pcpu_freelist_pop: {engine: $e}}' "$c" > "$c.new" && mv "$c.new" "$c"
	done
}
engine "$d/obs_a" bpftrace
engine "$d/obs_b" preattached
out=$("$HT" compare "$d/obs_a" "$d/obs_b" --json "$d/obs.json") || fail "observers compare exited $?"
[[ $out == *"observers: A bpftrace, B preattached  (different: a preattached observer"* ]] ||
	fail "no observers line saying they differ: $(grep observers <<< "$out")"
expect_eq "json observers" "$(jq -r '.a.observers + " " + .b.observers' "$d/obs.json")" "bpftrace preattached"
out=$("$HT" compare "$d/obs_a" "$d/obs_a") || fail "same-observers compare exited $?"
expect_eq "same observers: no note" "$(grep '^observers:' <<< "$out")" "observers: A bpftrace, B bpftrace"

# The boot path: a side whose guests booted through PVH says so, with the note.
for c in "$d/obs_b"/*/cell.json; do
	jq '.boot_path = "pvh"' "$c" > "$c.new" && mv "$c.new" "$c"
done
out=$("$HT" compare "$d/obs_a" "$d/obs_b" --json "$d/pvh.json") || fail "pvh compare exited $?"
[[ $out == *"boots: A own, B own+pvh  (different: "*"a pvh one booted its vmlinux through PVH"* ]] ||
	fail "no boots line saying B booted through PVH: $(grep '^boots:' <<< "$out")"
expect_eq "json boot" "$(jq -r '.a.boot + " " + .b.boot' "$d/pvh.json")" "own own+pvh"

# Boots: repeats restored from one snapshot are one boot's layout, said per
# side ("N PASS in 1 boot") with the note; cells that booted on their own are
# a boot each, and say nothing.
for c in "$d/obs_b"/*/cell.json; do
	jq '.restore = {snapshot: "0123456789abcdef"}' "$c" > "$c.new" && mv "$c.new" "$c"
done
out=$("$HT" compare "$d/obs_a" "$d/obs_b" --json "$d/boots.json") || fail "boots compare exited $?"
[[ $out == *"B = "*" PASS in 1 boot"* ]] || fail "no 'PASS in 1 boot' for B: $(grep '  [AB] = ' <<< "$out")"
grep '^  A = ' <<< "$out" | grep -q ' PASS in ' && fail "A's own boots counted as shared: $(grep '  A = ' <<< "$out")"
[[ $out == *"(in N boots) repeats of one boot"* ]] || fail "no note on repeats of one boot"
expect_eq "json boots B" "$(jq -c '[.groups[].b | .boots == ([.pass, 1] | min)] | unique' "$d/boots.json")" "[true]"
expect_eq "json boots A" "$(jq -c '[.groups[].a | .boots == .pass] | unique' "$d/boots.json")" "[true]"
out=$("$HT" compare "$d/obs_a" "$d/obs_a") || fail "own-boots compare exited $?"
[[ $out == *"(in N boots)"* ]] && fail "the note without shared boots"

# Verdicts: make_fixtures.py states each group's counts and p by hand.
cp -r "$ROOT/tests/fixtures/compare/verdicts_run" "$d/"
vrun=$d/verdicts_run
out=$("$HT" compare "$vrun") || fail "compare verdicts_run exited $?"
echo "$out" > "$d/verdicts.txt"
for want in \
	"      6/8  [0.349, 0.968]         0/8  [0, 0.369]           0.007* fixed                 8  TIMEOUT: no console output for 60 s" \
	"      0/8  [0, 0.369]             5/8  [0.245, 0.915]       0.026* regressed            10  CRASH" \
	"      0/8  [0, 0.369]             3/8  [0.0852, 0.755]      0.200  no evidence          17  CRASH: WARNING in __pcpu_freelist_pop" \
	"     2/10  [0.0252, 0.556]       0/10  [0, 0.308]           0.474  no evidence          39  CRASH" \
	"0 of n still allows a rate up to its 95% Clopper-Pearson upper bound: B 0 of 10 -> 0.308" \
	"non-PASS cells excluded: A 8, B 6; verdict rows (Fisher's exact p < 0.05): 2 regressed, 3 fixed"; do
	[[ $out == *"$want"* ]] || fail "verdicts table lacks '$want' (see $d/verdicts.txt)"
	echo "ok: verdicts table has '$want'"
done
vj=$vrun/compare.json
v8='.groups[] | select(.vcpus == 8) | .verdicts'
expect_eq "json v8 CRASH k/n" "$(jq -r "$v8"' | .rows[] | select(.verdict == "CRASH" and .signature == null)
	| "\(.a.k)/\(.a.n) \(.b.k)/\(.b.n) \(.reading) \(.power.n_per_side)"' "$vj")" "2/10 0/10 no evidence 39"
expect_eq "json v8 CRASH p = 9/19" "$(jq "$v8"' | .rows[] | select(.verdict == "CRASH" and .signature == null)
	| .fisher_p * 1e6 | round' "$vj")" 473684
expect_eq "json v8 2 of 10 CI" "$(jq -c "$v8"' | .rows[0].a.ci | map(. * 1e4 | round)' "$vj")" "[252,5561]"
expect_eq "json v8 0 of 10 bound" "$(jq "$v8"' | .b.zero_bound * 1e4 | round' "$vj")" 3085
expect_eq "json v4 signature rows" "$(jq -r '.groups[] | select(.vcpus == 4) | .verdicts.rows[]
	| select(.signature) | "\(.verdict): \(.signature) \(.b.k) \(.reading)"' "$vj")" \
	"FAIL: elements lost: 3 1 no evidence
CRASH: WARNING in __pcpu_freelist_pop 3 no evidence
CRASH: BUG: soft lockup in htab_map_update_elem 2 no evidence"
expect_eq "json v4 TIMEOUT (none): no power" "$(jq -r '.groups[] | select(.vcpus == 4) | .verdicts.rows[]
	| select(.verdict == "TIMEOUT") | "\(.fisher_p) \(.power.n_per_side) \(.power.why_none)"' "$vj")" \
	"1 null equal rates"
expect_eq "json v2 fixed" "$(jq -r '.groups[] | select(.vcpus == 2) | .verdicts.rows[0]
	| "\(.significant) \(.reading)"' "$vj")" "true fixed"
expect_eq "json verdict_test" "$(jq -r '.verdict_test | "\(.interval) \(.power) \(.power_max_n)"' "$vj")" \
	"Clopper-Pearson 0.8 200"

check() {	# expected-substring, args...
	local want=$1; shift
	local err rc
	err=$("$HT" compare "$@" 2>&1 >/dev/null); rc=$?
	expect_eq "exit status of 'compare $*'" "$rc" 2
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "'$*': error is not one line: $err"
	[[ $err == *"$want"* ]] || fail "'$*': error '$err' lacks '$want'"
	echo "ok: '$*' -> $err"
}
check "/nonexistent/run" /nonexistent/run
check "$d" "$d"
check "nosuch" "$run" --base nosuch
check "0.5x" "$run" --alpha 0.5x
check "one kernel (distro)" "$ROOT/tests/fixtures/compare/run_a"
check "--bogus" "$run" --bogus
check "got 0" --alpha 0.1

# The seed's figures come from bench/seeds.tsv, in the repository.
seed=$("$ROOT/bench/seed-000.sh" "$run") || fail "bench/seed-000.sh exited $?"
echo "$seed" > "$d/seed.txt"
for want in "seed ratio after/before: 13.7x" "391104 events per sec" \
	    "(all CPUs 27416..28628)" "(all CPUs 360057..391104)" \
	    "source: [PATCH v4 1/2] bpf: avoid grabbing spin_locks of all cpus when no free elems (bpf@vger.kernel.org, 2022-06-01" \
	    "after            median 595112" \
	    "ratio fixed/before-000: 1.5x, 95% bootstrap CI [1.47, 1.54], Welch p < 0.001" \
	    "accel: tcg" "== ours (tests/out/compare/kernels_run):"; do
	[[ $seed == *"$want"* ]] || fail "seed-000.sh output lacks '$want' (see $d/seed.txt)"
	echo "ok: seed-000.sh has '$want'"
done
echo "compare: all checks passed"
