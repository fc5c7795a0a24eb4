#!/bin/bash
# Issue 25 item 4: `htab-torture report RUN` writes RUN/report.junit.xml,
# which CI test views read. Checked on copies of the report fixtures
# (report writes into the run directory) with Debian's xmllint: the file
# parses, it validates against tests/fixtures/junit/junit.xsd (the subset
# GitLab, GitHub's reporters and Jenkins share; the schema itself must
# refuse a planted stray element and a failure without a message), and
# by XPath it holds one testcase per cell, whose failure / error / skipped
# matches the cell's cell.json verdict, counts that add up, the wall times
# and the properties. A console excerpt with an escape sequence and bytes
# that are not UTF-8 still makes a well-formed file.
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
