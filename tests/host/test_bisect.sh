#!/bin/bash
# htab-torture bisect without a kernel or a guest: HTAB_BUILD_KERNEL is a
# fake build-kernel.sh that prints a build line (and checks the step's
# generated variant is found through HTAB_VARIANT_DIRS), HTAB_BISECT_RUN a
# fake `htab-torture run` that writes each cell's cell.json (and
# module.json) with a verdict that depends on the step: bad from step 3
# always; bad with probability 0.3 from step 3 (awk's seeded RNG, per
# step, round and cell, so a rerun draws the same); never. Checked: the
# step found and its runs, "none" without a culprit, undecided when
# capped, a metric regression, resume after kill -9 (fewer calls), the
# exit codes of both modes, and bad input.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir bisect)
SIG="BUG: unable to handle page fault in pcpu_freelist_pop"

cat > "$d/fake-build" <<'EOS'
#!/bin/bash
l=$1 v=${1#*/}
echo "build $l" >> "$FAKE_LOG"
[ "$l" = "${FAKE_BUILD_FAIL:-}" ] && { echo "build-kernel: make failed" >&2; exit 1; }
case $v in
fixed) ;;
*)	found=
	IFS=: read -r -a roots <<< "${HTAB_VARIANT_DIRS:-}"
	for r in "${roots[@]}"; do [ -f "$r/$v/variant.conf" ] && found=$r/$v; done
	[ -n "$found" ] || { echo "build-kernel: unknown variant '$v'" >&2; exit 2; }
	grep -q "^SEED_TREE=fixed$" "$found/variant.conf" || exit 2
	for p in $(. "$found/variant.conf"; echo "$PATCHES"); do
		[ -f "$found/patches/$p" ] || { echo "no patch $p" >&2; exit 1; }
	done ;;
esac
echo "build-kernel: cached" >&2
echo "KERNEL_IMAGE=/fake/$v/bzImage KERNEL_RELEASE=6.1.0-htab-$v KDIR=/fake/tree-$v HASH=$(printf %s "$v" | sha256sum | cut -c1-12) LINE=6.1"
EOS

cat > "$d/fake-run" <<'EOS'
#!/bin/bash
kernel= out=
while [ $# -gt 0 ]; do
	case $1 in --kernel) kernel=$2; shift ;; --out) out=$2; shift ;; esac
	shift
done
case $kernel in fixed) k=0 ;; *-s*) k=${kernel##*-s} ;; *) exit 2 ;; esac
r=${out##*/round-}
echo "run $k $r" >> "$FAKE_LOG"
mkdir -p "$out"
for i in $(seq "${FAKE_CELLS:-4}"); do
	c=$out/v2-full_update-$kernel-none-r$((i - 1))
	[ -f "$c/cell.json" ] && continue
	sleep "${FAKE_SLEEP:-0}"
	bad=$(awk -v k="$k" -v r="$r" -v i="$i" -v mode="${FAKE_MODE:-det}" \
		-v from="${FAKE_FROM:-3}" -v p="${FAKE_P:-0.3}" -v stray="${FAKE_STRAY:-0}" 'BEGIN {
		srand(k * 100000 + r * 100 + i); x = rand(); y = rand()
		bad = (mode == "det" && k >= from) || (mode == "flaky" && k >= from && x < p)
		print (bad || y < stray) ? 1 : 0 }')
	ops=$(awk -v k="$k" -v r="$r" -v i="$i" -v from="${FAKE_FROM:-3}" -v drop="${FAKE_DROP:-0}" 'BEGIN {
		srand(7 + k * 100000 + r * 100 + i); v = 1000 * (1 + 0.02 * (rand() - 0.5))
		if (k >= from) v *= 1 - drop; printf "%.1f", v }')
	mkdir -p "$c"
	if [ "$bad" = 1 ]; then v=CRASH s=$FAKE_SIG; else v=PASS s=; fi
	jq --argjson o "$ops" '.totals.ops_per_sec = $o' "$FAKE_MODULE" > "$c/module.json"
	jq -n --arg c "${c##*/}" --arg k "$kernel" --arg v "$v" --arg s "$s" \
		'{cell: $c, vcpus: 2, workload: "full_update", kernel: $k, noise: "none",
		  repeat: 0, accel: "tcg", verdict: $v, signature: $s}' > "$c/cell.json.tmp"
	mv "$c/cell.json.tmp" "$c/cell.json"
done
EOS
chmod +x "$d/fake-build" "$d/fake-run"
export HTAB_BUILD_KERNEL=$d/fake-build HTAB_BISECT_RUN=$d/fake-run FAKE_LOG=$d/calls FAKE_SIG=$SIG \
	FAKE_MODULE=$ROOT/tests/fixtures/module/full_update_v2_tcg.json

# A series of five patches (their content does not matter to the fakes).
mkdir -p "$d/series"
for i in 1 2 3 4 5; do
	printf -- '--- a/kernel/bpf/percpu_freelist.c\n+++ b/kernel/bpf/percpu_freelist.c\n@@ -1 +1 @@\n-x\n+y%d\n' $i \
		> "$d/series/000$i-step$i.patch"
done
printf '# a test series\n0001-step1.patch\n0002-step2.patch -p1\n0003-step3.patch\n0004-step4.patch\n0005-step5.patch\n' \
	> "$d/series/series"

bisect() {	# NAME ARGS...: bisect into $d/NAME, stdout NAME.out, stderr NAME.err; $? its exit
	local n=$1; shift
	: > "$d/calls"
	"$HT" bisect --series "$d/series" --out "$d/$n" "$@" > "$d/$n.out" 2> "$d/$n.err"
}
runs() { grep -c '^run ' "$d/calls"; }

# 1. Deterministic: bad from step 3.
bisect det --signature "unable to handle page fault" -- --cpus 2 --workload full_update
expect_eq "det: exit" "$?" 0
cat "$d/det.out"
expect_eq "det: verdict" "$(tail -n 1 "$d/det.out" | cut -d'(' -f1)" "bisect: first bad step 3: 0003-step3.patch "
expect_eq "det: steps tested" "$(jq -c .tested "$d/det/bisect.json")" '["5 BAD","2 GOOD","3 BAD"]'
expect_eq "det: json verdict" "$(jq -c .verdict "$d/det/bisect.json")" \
	'{"kind":"first_bad","step":3,"patch":"0003-step3.patch"}'
expect_eq "det: step 3 evidence" "$(jq -c '.steps[3].evidence | [.bad, .cells, .base.bad, .base.cells]' "$d/det/bisect.json")" \
	"[$(jq '.steps[3].runs * 4' "$d/det/bisect.json"),$(jq '.steps[3].runs * 4' "$d/det/bisect.json"),0,$(jq '.steps[3].runs * 4' "$d/det/bisect.json")]"
grep -q '^step 3/5 (0003-step3.patch): BAD after 1 run: 4/4 bad, rate 1.000 (95% CI 0.398-1.000) vs base 0/4, rate 0.000 (0.000-0.602), p(Fisher) 0.0286, good below 1.000' "$d/det.out" ||
	fail "det: step 3's line: $(grep '^step 3' "$d/det.out")"
expect_eq "det: variant of step 3" "$(sed -n 's/^PATCHES=//p' "$d/det/variants/$(jq -r .steps[3].variant "$d/det/bisect.json")/variant.conf")" \
	'"0001-step1.patch 0002-step2.patch 0003-step3.patch"'
expect_eq "det: builds (one a step tested, the base)" "$(grep -c '^build ' "$d/calls")" 4

# 2. Flaky: bad with probability 0.3 from step 3; the base clean.
FAKE_MODE=flaky bisect flaky2 --signature "$SIG" -- --cpus 2
rc=$?
cat "$d/flaky2.out"
expect_eq "flaky: exit" "$rc" 0
expect_eq "flaky: found" "$(jq -c .verdict "$d/flaky2/bisect.json")" \
	'{"kind":"first_bad","step":3,"patch":"0003-step3.patch"}'
r3=$(jq .steps[3].runs "$d/flaky2/bisect.json")
expect_cmp "flaky: step 3 took more than one run" "$r3" ">" 1
grep -q "^step 3/5 (0003-step3.patch): BAD after $r3 runs" "$d/flaky2.out" || fail "flaky: no step 3 line"
flaky_runs=$(runs)
echo "flaky: $flaky_runs runs in all (step 3: $r3)"
FAKE_MODE=flaky bisect flaky2 --signature "$SIG"
expect_eq "flaky: a rerun on the same OUT with other run options is refused" "$?" 2

# 3. None bad, with stray crashes of the same signature on every step and
# the base (rate 0.1): no culprit is named.
FAKE_MODE=none FAKE_STRAY=0.1 FAKE_CELLS=10 bisect none --signature "$SIG" --max-runs 20 -- --cpus 2
rc=$?
cat "$d/none.out"
expect_eq "none: verdict" "$(jq -r .verdict.kind "$d/none/bisect.json")" none
expect_eq "none: exit" "$rc" 0
expect_eq "none: last line" "$(tail -n 1 "$d/none.out")" \
	"bisect: none: every step good (step 5, the whole series, is GOOD)"

# 4. Capped low: a rare bug (0.1) and 2 runs a step: undecided, nothing named.
FAKE_MODE=flaky FAKE_P=0.1 bisect capped --signature "$SIG" --max-runs 2 -- --cpus 2
rc=$?
cat "$d/capped.out"
expect_eq "capped: exit" "$rc" 1
expect_eq "capped: verdict" "$(jq -c .verdict "$d/capped/bisect.json")" '{"kind":"undecided","range":[1,5]}'
grep -q '^step 5/5 (0005-step5.patch): UNDECIDED after 2 runs' "$d/capped.out" || fail "capped: no UNDECIDED line"

# 5. Resume after kill -9: a slow fake, killed once some rounds finished;
# the rerun reuses them and finds the same step with fewer calls.
: > "$d/calls"
FAKE_MODE=flaky FAKE_SLEEP=0.2 kill9_after_rounds "$d/resume" 6 "$d/resume1.out" "$d/resume1.err" \
	bisect --series "$d/series" --out "$d/resume" --signature "$SIG" -- --cpus 2
done_before=$(ls "$d"/resume/step-*/round-*.done | wc -l)
expect_cmp "resume: rounds done before the kill" "$done_before" ">=" 6
FAKE_MODE=flaky bisect resume --signature "$SIG" -- --cpus 2
rc=$?
cat "$d/resume.out"
expect_eq "resume: exit" "$rc" 0
expect_eq "resume: same verdict as uninterrupted" "$(jq -c .verdict "$d/resume/bisect.json")" \
	"$(jq -c .verdict "$d/flaky2/bisect.json")"
expect_eq "resume: same steps as uninterrupted" "$(jq -c .tested "$d/resume/bisect.json")" \
	"$(jq -c .tested "$d/flaky2/bisect.json")"
resumed=$(runs)
expect_cmp "resume: fewer run calls than a fresh bisect ($flaky_runs)" "$resumed" "<" "$flaky_runs"
grep -q 'of the runs reused from OUT' "$d/resume.out" || fail "resume: no step said its rounds were reused"
FAKE_MODE=flaky bisect resume --signature "$SIG" -- --cpus 2
expect_eq "resume: a third run runs nothing" "$(runs)" 0

# 6. A metric: ops/s 20% lower from step 3 (2% noise).
FAKE_MODE=none FAKE_DROP=0.2 bisect metric --metric module.ops_per_sec --worse-by 10 -- --cpus 2
rc=$?
cat "$d/metric.out"
expect_eq "metric: exit" "$rc" 0
expect_eq "metric: found" "$(jq -c .verdict "$d/metric/bisect.json")" \
	'{"kind":"first_bad","step":3,"patch":"0003-step3.patch"}'
expect_cmp "metric: step 3's ratio" "$(jq .steps[3].evidence.ratio "$d/metric/bisect.json")" "<" 0.85

# 7. --test-step (git bisect run): 0 good, 1 bad, 125 undecided or setup error.
bisect ts --signature "$SIG" --test-step 2 -- --cpus 2
expect_eq "test-step 2: good" "$?" 0
bisect ts --signature "$SIG" --test-step 4 -- --cpus 2
expect_eq "test-step 4: bad" "$?" 1
expect_eq "test-step 4: json" "$(jq -c .verdict "$d/ts/bisect.json")" '{"kind":"test_step","step":4,"decision":"BAD"}'
FAKE_MODE=flaky FAKE_P=0.1 bisect ts-capped --signature "$SIG" --test-step 4 --max-runs 1 -- --cpus 2
expect_eq "test-step capped: skip" "$?" 125
FAKE_BUILD_FAIL=bisect-$(jq -r .tag "$d/ts/bisect.json")-s1 bisect ts --signature "$SIG" --test-step 1 -- --cpus 2
expect_eq "test-step build failure: skip" "$?" 125
grep -q "error: step 1: building bisect-.*-s1 failed" "$d/ts.err" || fail "build failure not said: $(cat "$d/ts.err")"
bisect ts --signature "$SIG" --test-step 9 -- --cpus 2
expect_eq "test-step out of range: skip" "$?" 125
FAKE_BUILD_FAIL=bisect-$(jq -r .tag "$d/ts/bisect.json")-s5 bisect buildfail --signature "$SIG" -- --cpus 2
expect_eq "search: build failure" "$?" 2

# 8. Bad input: one line naming the value and what is valid, exit 2.
s=(--series "$d/series" --out "$d/bad")
usage_error "--series '$d/nope': no readable series file" bisect --series "$d/nope" --out "$d/bad" --signature x
usage_error "bisect needs one predicate" bisect "${s[@]}"
usage_error "bisect needs one predicate" bisect "${s[@]}" --signature x --metric module.ops_per_sec
usage_error "--metric 'ops': unknown; valid: module.ops_per_sec" bisect "${s[@]}" --metric ops --worse-by 5
usage_error "--metric 'module.ops_per_sec' needs --worse-by PCT" bisect "${s[@]}" --metric module.ops_per_sec
usage_error "--worse-by '200': must be a percentage above 0 and below 100" bisect "${s[@]}" --metric module.ops_per_sec --worse-by 200
usage_error "--confidence '95': must be a number between 0 and 1" bisect "${s[@]}" --signature x --confidence 95
usage_error "--max-runs '0': must be an integer 1..1000" bisect "${s[@]}" --signature x --max-runs 0
usage_error "--base-variant 'nosuch': no variant 'nosuch'" bisect "${s[@]}" --signature x --base-variant nosuch
usage_error "--base-variant '7.0/fixed': no kernel line '7.0'" bisect "${s[@]}" --signature x --base-variant 7.0/fixed
usage_error "run option '--out' after --" bisect "${s[@]}" --signature x -- --out y
usage_error "run option '--kernel=fixed' after --" bisect "${s[@]}" --signature x -- --kernel=fixed
usage_error "unknown option '--bogus'" bisect "${s[@]}" --signature x --bogus
usage_error "'extra': run's options go after --" bisect "${s[@]}" --signature x extra
mkdir -p "$d/badseries"
printf '0001-a.patch\n' > "$d/badseries/series"
usage_error "no patch file $d/badseries/0001-a.patch" bisect --series "$d/badseries" --out "$d/bad" --signature x
printf '0001 a.patch\n' > "$d/badseries/series"
usage_error "'0001 a.patch': only -p1 may follow a patch name" bisect --series "$d/badseries" --out "$d/bad" --signature x

# build-kernel.sh itself lists a variant of HTAB_VARIANT_DIRS.
v=$(jq -r .steps[3].variant "$d/det/bisect.json")
HTAB_VARIANT_DIRS=$d/det/variants "$ROOT/vm-images/build-kernel.sh" --list | grep -qx "$v" ||
	fail "build-kernel.sh --list does not list $v of HTAB_VARIANT_DIRS"
echo "ok: build-kernel.sh --list names $v"
