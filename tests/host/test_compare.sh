#!/bin/bash
# `htab-torture compare` end to end on the fixture runs (tests/fixtures/compare):
# the table (significant change marked, no change unmarked, too few repeats,
# the TCG note), compare.json, one-line errors naming the value with exit 2,
# and bench/seed-000.sh's printout (the seed's lines, then ours with the CI).
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
