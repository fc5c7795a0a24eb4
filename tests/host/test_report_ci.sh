#!/bin/bash
# Issue 25 item 4: `htab-torture report RUN` writes RUN/report.junit.xml,
# which CI test views read, and RUN/report.ktap, which kselftest and KUnit
# tooling read. Checked on copies of the report fixtures
# (report writes into the run directory) with Debian's xmllint: the file
# parses, it validates against tests/fixtures/junit/junit.xsd (the subset
# GitLab, GitHub's reporters and Jenkins share; the schema itself must
# refuse a planted stray element and a failure without a message), and
# by XPath it holds one testcase per cell, whose failure / error / skipped
# matches the cell's cell.json verdict, counts that add up, the wall times
# and the properties. A console excerpt with an escape sequence and bytes
# that are not UTF-8 still makes a well-formed file. report.ktap goes
# through a strict KTAP version 1 parser (below, after ktap.rst: version
# and plan lines, numbering, two-space nesting, directives, no unknown
# lines, a parent failing with a subtest) and its tree is held against
# cell.json: one test per cell, ok exactly for PASS and SKIP, SKIP's
# directive with the reason, TIMEOUT's, the signature as a diagnostic,
# the verdict checks of cell.json `checks` and module.json as subtests.
. "$(dirname "$0")/../lib.sh"
command -v xmllint > /dev/null || { echo "no xmllint (Debian package libxml2-utils)"; exit 77; }
XSD="$ROOT/tests/fixtures/junit/junit.xsd"
d=$(fresh_dir report_ci)
cp -r "$ROOT"/tests/fixtures/report/{ab_run,partial_run,problems_run} "$d/"

# Wall times on problems_run's cells and the distro kernel's name and line
# (the fixtures predate timings.wall_s, kernel_name and kernel_line),
# an ESC in one crash excerpt, raw bytes in the console of the cell whose
# excerpt is cut from its console.
for f in "$d"/problems_run/*/cell.json; do
	jq '.timings.wall_s = (40 + .vcpus + .repeat / 4) |
		if .kernel == "distro" then .kernel_name = "distro-6.1" | .kernel_line = "6.1" else . end' \
		"$f" > "$f.new" && mv "$f.new" "$f"
done
f="$d/problems_run/v2-full_update-distro-none-r0/cell.json"
jq '.crash.excerpt |= sub("Call Trace:"; "Call Trace: \u001b[31m")' "$f" > "$f.new" && mv "$f.new" "$f"
sed -i 's/^\(.*RIP: 0010:__pcpu_freelist_pop+0x4c.*\)$/\1 \xff\xfe/' \
	"$d/problems_run/v4-full_update-distro-none-r0/console.log"
# The harness's checks in two cell.json (the fixtures predate the key): a
# FAIL with a corrupt value, a PASS on a map without residual_expected.
f="$d/problems_run/v4-full_update-revert-none-r0/cell.json"
jq '.checks = {corrupt: 1, double_alloc: 0, walk_bad: 0, stamp_races: 2, e2big_not_full: 0,
	residual: 4095, residual_expected: 4096}' "$f" > "$f.new" && mv "$f.new" "$f"
f="$d/problems_run/v4-full_update-distro-none-r1/cell.json"
jq '.checks = {corrupt: 0, double_alloc: 0, walk_bad: 0, stamp_races: 0, e2big_not_full: 3,
	residual: 4000, residual_expected: null}' "$f" > "$f.new" && mv "$f.new" "$f"

x() {	# x FILE XPATH: the XPath's value
	xmllint --xpath "$2" "$1" 2> /dev/null
}

for run in ab_run partial_run problems_run; do
	"$HT" report "$d/$run" > /dev/null || fail "report $run exited $?"
	j="$d/$run/report.junit.xml"
	[ -s "$j" ] || fail "no $run/report.junit.xml"
	xmllint --noout "$j" || fail "$run/report.junit.xml is not well-formed"
	xmllint --noout --schema "$XSD" "$j" 2> "$d/xsd.err" ||
		fail "$run/report.junit.xml does not validate: $(cat "$d/xsd.err")"
	echo "ok: $run/report.junit.xml parses and validates against junit.xsd"

	expect_eq "$run testsuite count" "$(x "$j" 'count(/testsuites/testsuite)')" 1
	expect_eq "$run testsuite name" "$(x "$j" 'string(/testsuites/testsuite/@name)')" "$run"
	ncells=$(find "$d/$run" -mindepth 2 -maxdepth 2 -name console.log | wc -l)
	expect_eq "$run testcases" "$(x "$j" 'count(//testcase)')" "$ncells"
	for a in tests failures errors skipped; do
		expect_eq "$run testsuites/@$a = testsuite/@$a" \
			"$(x "$j" "string(/testsuites/@$a)")" "$(x "$j" "string(//testsuite/@$a)")"
	done
	expect_eq "$run tests" "$(x "$j" 'string(//testsuite/@tests)')" "$ncells"
	expect_eq "$run failures" "$(x "$j" 'string(//testsuite/@failures)')" \
		"$(x "$j" 'count(//testcase[failure])')"
	expect_eq "$run errors" "$(x "$j" 'string(//testsuite/@errors)')" \
		"$(x "$j" 'count(//testcase[error])')"
	expect_eq "$run skipped" "$(x "$j" 'string(//testsuite/@skipped)')" \
		"$(x "$j" 'count(//testcase[skipped])')"

	# Each cell: its testcase's child is what its verdict says.
	for c in "$d/$run"/*/console.log; do
		c=$(dirname "$c") id=${c##*/}
		tc="//testcase[@name='$id']"
		v=$( [ -f "$c/cell.json" ] && jq -r .verdict "$c/cell.json" || echo INCOMPLETE)
		w=$( [ -f "$c/cell.json" ] && jq -r .workload "$c/cell.json" || echo full_update)
		expect_eq "$id classname" "$(x "$j" "string($tc/@classname)")" "htab-torture.$w"
		case $v in
		PASS) want= ;;
		FAIL) want=failure ;;
		SKIP) want=skipped ;;
		*) want=error ;;
		esac
		expect_eq "$id ($v) result element" "$(x "$j" "name($tc/*)")" "$want"
		case $v in
		FAIL | CRASH | TIMEOUT)
			sig=$(jq -r .signature "$c/cell.json")
			expect_eq "$id message" "$(x "$j" "string($tc/*/@message)")" "$sig" ;;
		SKIP)
			expect_eq "$id message" "$(x "$j" "string($tc/skipped/@message)")" \
				"$(jq -r .reason "$c/cell.json")" ;;
		esac
		[ "$want" = error ] && expect_eq "$id error type" "$(x "$j" "string($tc/error/@type)")" "$v"
	done
done

j="$d/problems_run/report.junit.xml"
expect_eq "accel property" "$(x "$j" 'string(//property[@name="accel"]/@value)')" "tcg (emulated)"
expect_eq "host property" "$(x "$j" 'string(//property[@name="host"]/@value)')" \
	"hostname: ci-runner-7, cpus: 2, model: Intel Xeon (emulated via TCG)"
expect_eq "kernels property" "$(x "$j" 'string(//property[@name="kernels"]/@value)')" "distro, revert"
expect_eq "distro's name" "$(x "$j" 'string(//property[@name="kernel.distro.name"]/@value)')" distro-6.1
expect_eq "distro's line" "$(x "$j" 'string(//property[@name="kernel.distro.line"]/@value)')" 6.1
expect_eq "revert has no line" "$(x "$j" 'count(//property[@name="kernel.revert.line"])')" 0
expect_eq "revert's release" "$(x "$j" 'string(//property[@name="kernel.revert.release"]/@value)')" \
	"6.1.158-htab-revert"
expect_eq "a cell's time" "$(x "$j" 'string(//testcase[@name="v4-full_update-distro-none-r1"]/@time)')" \
	44.250
expect_eq "the suite's time (sum of the cells')" "$(x "$j" 'string(//testsuite/@time)')" 300.750
expect_eq "ab_run has no time" "$(x "$d/ab_run/report.junit.xml" 'count(//*[@time])')" 0

# Bodies: the module's failure lines, the crash excerpt, the runner's last line.
tc='//testcase[@name="v4-full_update-revert-none-r0"]/failure'
expect_eq "failure type" "$(x "$j" "string($tc/@type)")" FAIL
expect_eq "failure lines" "$(x "$j" "string($tc)")" \
	"corrupt value: key 17 on CPU 1 holds the stamp of key 4113 (writer CPU 0, seq 88)
residual 4095 != capacity 4096"
body=$(x "$j" 'string(//testcase[@name="v2-full_update-distro-none-r0"]/error)')
[[ $body == *"RIP: 0010:__pcpu_freelist_pop+0x3b/0x1d0"* && $body == *"---[ end trace"* ]] ||
	fail "crash excerpt not in the error: $body"
[[ $body == *"Call Trace: ?[31m"* ]] || fail "the ESC is not a '?': $body"
body=$(x "$j" 'string(//testcase[@name="v4-full_update-distro-none-r0"]/error)')
[[ $body == *"+0x4c/0x1e0 ??"* ]] || fail "bytes that are not UTF-8 are not '?': $body"
expect_eq "timeout body" "$(x "$j" 'string(//testcase[@name="v2-full_update-distro-none-r1"]/error)')" \
	"runner: insmod /path/to/htab-torture/kmod/htab_torture.ko workload=full_update"
expect_eq "a cell never finished" \
	"$(x "$d/partial_run/report.junit.xml" 'string(//testcase[@name="v8-full_update-distro-none-r1"]/error/@type)')" \
	INCOMPLETE

# The schema is no rubber stamp.
sed 's|</testsuite>|<bogus/></testsuite>|' "$j" > "$d/bad1.xml"
sed '0,/<failure message="[^"]*"/s//<failure/' "$j" > "$d/bad2.xml"
for b in bad1 bad2; do
	xmllint --noout "$d/$b.xml" || fail "$b.xml is not well-formed"
	xmllint --noout --schema "$XSD" "$d/$b.xml" 2> /dev/null && fail "junit.xsd accepts $b.xml"
done
echo "ok: junit.xsd refuses a stray element and a failure without a message"

# ktap_tree FILE: a strict KTAP version 1 parser; the tree as JSON on
# stdout ([{num, name, ok, directive, data, diag: [...], subtests: [...]}]),
# or the first violation on stderr and exit 1.
ktap_tree() {
	python3 - "$1" << 'PY'
import json, re, sys

RESULT = re.compile(r"^(ok|not ok) ([0-9]+)(?: ([^#]*[^# ]))?(?: # ?(.*))?$")
DIRECTIVES = ("SKIP", "TODO", "XFAIL", "TIMEOUT", "ERROR")
try:
    lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
except UnicodeDecodeError as e:
    sys.exit("not UTF-8: %s" % e)
if lines[-1] != "":
    sys.exit("no newline at the end")
lines.pop()


def bad(i, why):
    sys.exit("line %d: %s: %r" % (i + 1, why, lines[i] if i < len(lines) else "EOF"))


def level(i, depth):
    ind = "  " * depth
    if i >= len(lines) or lines[i] != ind + "KTAP version 1":
        bad(i, "want %r" % (ind + "KTAP version 1"))
    i += 1
    plan, tests, diag, sub = None, [], [], None
    while i < len(lines):
        line = lines[i]
        if line == ind + "  KTAP version 1":
            if sub is not None:
                bad(i, "two subtest blocks for one test")
            sub, i = level(i, depth + 1)
            continue
        if not line.startswith(ind):
            break
        body = line[len(ind):]
        if body.startswith(" "):
            bad(i, "indented by other than two spaces a level")
        if body.startswith("#"):
            if body != "#" and not body.startswith("# "):
                bad(i, "a diagnostic line is '# text'")
            diag.append(body[2:])
        elif re.fullmatch(r"1\.\.[0-9]+", body):
            if plan is not None or tests:
                bad(i, "plan not right after the version line")
            plan = int(body[3:])
            diag = []   # the level's own ("# Subtest: ..."), no test's
        else:
            m = RESULT.match(body)
            if not m:
                bad(i, "unknown line")
            if plan is None:
                bad(i, "result before the plan")
            ok, num, name, data = m.group(1) == "ok", int(m.group(2)), m.group(3), m.group(4)
            if num != len(tests) + 1:
                bad(i, "test %d, want %d" % (num, len(tests) + 1))
            word = (data or "").split(" ", 1)[0]
            directive = word if word in DIRECTIVES else None
            if directive in ("TIMEOUT", "ERROR") and ok:
                bad(i, "%s on an ok line" % directive)
            if ok and sub and any(not t["ok"] and t["directive"] != "SKIP" for t in sub):
                bad(i, "ok, but a subtest failed")
            tests.append({"num": num, "name": name, "ok": ok, "directive": directive,
                          "data": data, "diag": diag, "subtests": sub or []})
            diag, sub = [], None
        i += 1
    if sub is not None:
        bad(i, "a subtest block without its parent's result")
    if plan != len(tests):
        bad(i, "plan 1..%s, %d tests" % (plan, len(tests)))
    return tests, i


tree, i = level(0, 0)
if i != len(lines):
    bad(i, "after the last test")
json.dump(tree, sys.stdout)
PY
}

# The checker itself refuses what ktap.rst does not allow.
printf 'KTAP version 1\n1..2\nok 1 a\n' > "$d/bad.ktap"
ktap_tree "$d/bad.ktap" > /dev/null 2>&1 && fail "KTAP checker accepts a short plan"
printf 'KTAP version 1\n1..1\n  KTAP version 1\n  1..1\n  not ok 1 x\nok 1 a\n' > "$d/bad.ktap"
ktap_tree "$d/bad.ktap" > /dev/null 2>&1 && fail "KTAP checker accepts ok over a failed subtest"
printf 'KTAP version 1\n1..1\nok 2 a\n' > "$d/bad.ktap"
ktap_tree "$d/bad.ktap" > /dev/null 2>&1 && fail "KTAP checker accepts a number out of order"
printf 'KTAP version 1\n1..1\nstray\nok 1 a\n' > "$d/bad.ktap"
ktap_tree "$d/bad.ktap" > /dev/null 2>&1 && fail "KTAP checker accepts an unknown line"
echo "ok: the KTAP checker refuses a short plan, ok over a failure, a wrong number, a stray line"

for run in ab_run partial_run problems_run; do
	k="$d/$run/report.ktap"
	ktap_tree "$k" > "$d/$run.ktap.json" 2> "$d/ktap.err" ||
		fail "$run/report.ktap is not KTAP version 1: $(cat "$d/ktap.err")"
	t="$d/$run.ktap.json"
	ncells=$(find "$d/$run" -mindepth 2 -maxdepth 2 -name console.log | wc -l)
	expect_eq "$run KTAP tests" "$(jq length "$t")" "$ncells"
	for c in "$d/$run"/*/console.log; do
		c=$(dirname "$c") id=${c##*/}
		v=$( [ -f "$c/cell.json" ] && jq -r .verdict "$c/cell.json" || echo INCOMPLETE)
		case $v in PASS | SKIP) want=true ;; *) want=false ;; esac
		expect_eq "$id ($v) ok" "$(jq --arg id "$id" '.[] | select(.name == $id) | .ok' "$t")" "$want"
		dir=$(jq -r --arg id "$id" '.[] | select(.name == $id) | .directive // ""' "$t")
		case $v in
		SKIP)
			expect_eq "$id directive" "$dir" SKIP
			expect_eq "$id skip reason" \
				"$(jq -r --arg id "$id" '.[] | select(.name == $id) | .data' "$t")" \
				"SKIP $(jq -r .reason "$c/cell.json")" ;;
		TIMEOUT) expect_eq "$id directive" "$dir" TIMEOUT ;;
		INCOMPLETE) expect_eq "$id directive" "$dir" ERROR ;;
		*) expect_eq "$id directive" "$dir" "" ;;
		esac
		case $v in
		FAIL | CRASH | TIMEOUT)
			sig=$(jq -r .signature "$c/cell.json")
			expect_eq "$id signature diagnostic" \
				"$(jq -r --arg id "$id" '.[] | select(.name == $id) | .diag[0]' "$t")" "$v: $sig" ;;
		esac
		# Subtests: exactly the checks the cell records.
		want=$(jq -r '[(if .result then "module_result" else empty end),
			((.verdict // {}) | keys_unsorted[] | select(IN("corrupt", "double_alloc",
			"walk_bad", "unexpected_errors", "setup_errors", "warns", "residual",
			"stamp_races", "e2big_not_full")))] | sort | join(" ")' "$c/module.json" 2> /dev/null)
		[ -f "$c/cell.json" ] && jq -e .checks "$c/cell.json" > /dev/null &&
			want=$( (tr ' ' '\n' <<< "$want"; jq -r '.checks | keys[] |
				select(. != "residual_expected")' "$c/cell.json") | grep . | sort -u | tr '\n' ' ')
		got=$(jq -r --arg id "$id" '[.[] | select(.name == $id) | .subtests[].name] | sort | join(" ")' "$t")
		expect_eq "$id subtests" "$got" "$(echo $want)"
	done
done

t="$d/problems_run.ktap.json"
sub() {	# sub CELL CHECK: "ok|not ok DATA" of one subtest
	jq -r --arg id "$1" --arg s "$2" '.[] | select(.name == $id) | .subtests[] |
		select(.name == $s) | "\(if .ok then "ok" else "not ok" end) \(.data)"' "$t"
}
expect_eq "FAIL's module_result" "$(sub v4-full_update-revert-none-r0 module_result)" "not ok result=FAILURE"
expect_eq "FAIL's corrupt" "$(sub v4-full_update-revert-none-r0 corrupt)" "not ok corrupt=1"
expect_eq "FAIL's residual" "$(sub v4-full_update-revert-none-r0 residual)" \
	"not ok residual=4095 residual_expected=4096"
expect_eq "FAIL's stamp_races" "$(sub v4-full_update-revert-none-r0 stamp_races)" "ok stamp_races=2 (legal, not a failure)"
expect_eq "PASS's e2big_not_full" "$(sub v4-full_update-distro-none-r1 e2big_not_full)" \
	"ok e2big_not_full=3 (legal, not a failure)"
expect_eq "PASS's residual without residual_expected" "$(sub v4-full_update-distro-none-r1 residual)" \
	"ok SKIP no residual_expected (an LRU map evicts)"
expect_eq "FAIL's failure lines as diagnostics" \
	"$(jq -r '.[] | select(.name == "v4-full_update-revert-none-r0") | .diag[1:3] | join("|")' "$t")" \
	"  corrupt value: key 17 on CPU 1 holds the stamp of key 4113 (writer CPU 0, seq 88)|  residual 4095 != capacity 4096"
expect_eq "crash excerpt as diagnostics" \
	"$(jq -r '.[] | select(.name == "v2-full_update-distro-none-r0") | .diag[2]' "$t")" \
	"  [    9.100000] RIP: 0010:__pcpu_freelist_pop+0x3b/0x1d0"
jq -r '.[] | select(.name == "v4-full_update-distro-none-r0") | .diag[]' "$t" | grep -q '+0x4c/0x1e0 ??$' ||
	fail "bytes that are not UTF-8 are not '?' in report.ktap"
echo "ok: report.ktap is UTF-8 where the console was not"
