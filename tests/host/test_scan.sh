#!/bin/bash
# `htab-torture scan FILE...`: every console fixture (tests/fixtures/console,
# its README) is classified as its header says — "FILE: clean" for kind
# none, else "FILE: KIND: TITLE" — alone, all at once and as --json; exit 0
# only when every file is clean, 1 on a finding, 2 on a usage error (one
# line naming the file or the option, nothing on stdout). Also lib.sh's
# expect_no_kernel_report, which the VM tests ask instead of grepping.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir scan)
fx=$ROOT/tests/fixtures/console

# header NAME KEY: the fixture's "# KEY: value"
header() { sed -n "/^# /!q; s/^# $2: //p" "$fx/$1"; }

want_all='' n=0 nclean=0 clean='' finding=''
for f in "$fx"/*.log; do
	name=${f##*/}
	# The classifier gets the console after the header, as the unit tests give it.
	awk 'body || !/^# / { body = 1; print }' "$f" > "$d/$name"
	kind=$(header "$name" kind)
	[ -n "$kind" ] || fail "$name has no '# kind:' header"
	if [ "$kind" = none ]; then
		want="$d/$name: clean" want_rc=0 nclean=$((nclean + 1)) clean=$d/$name
	else
		want="$d/$name: $kind: $(header "$name" title)" want_rc=1 finding=$d/$name
	fi
	got=$("$HT" scan "$d/$name"); rc=$?
	expect_eq "$name" "$got" "$want"
	expect_eq "$name: exit" "$rc" "$want_rc"
	want_all+="$want"$'\n' n=$((n + 1))
done
expect_cmp "fixtures" "$n" ">=" 10
expect_cmp "clean fixtures" "$nclean" ">=" 1

# All at once: one line each, in argument order; a finding in one is exit 1.
got=$("$HT" scan "$d"/*.log); rc=$?
expect_eq "all fixtures at once" "$got" "${want_all%$'\n'}"
expect_eq "exit with findings among them" "$rc" 1
"$HT" scan "$clean" "$clean" > /dev/null
expect_eq "exit when every file is clean" "$?" 0

# --json: one object per file, the kind and signature cell.json would hold.
"$HT" scan --json "$d"/*.log > "$d/scan.json"
expect_eq "--json exit with findings" "$?" 1
expect_eq "--json objects" "$(jq length "$d/scan.json")" "$n"
for f in "$fx"/*.log; do
	name=${f##*/}
	o=$(jq -c --arg f "$d/$name" '.[] | select(.file == $f)' "$d/scan.json")
	[ -n "$o" ] || fail "--json: no object for $name"
	expect_eq "--json $name kind" "$(jq -r .kind <<< "$o")" "$(header "$name" kind)"
	if [ "$(header "$name" kind)" = none ]; then
		expect_eq "--json $name" "$(jq -c '[.signature, .line, .lineno, .reports, .excerpt]' <<< "$o")" \
			"[null,null,null,0,null]"
	else
		expect_eq "--json $name signature" "$(jq -r .signature <<< "$o")" "$(header "$name" title)"
		expect_cmp "--json $name lineno" "$(jq .lineno <<< "$o")" ">" 0
		expect_cmp "--json $name reports" "$(jq .reports <<< "$o")" ">=" 1
		# The excerpt opens with the report's line, as cell.json's crash.excerpt does.
		[[ $(jq -r '.excerpt | split("\n")[0]' <<< "$o") == *"$(jq -r .line <<< "$o")" ]] ||
			fail "--json $name: the excerpt does not open with its line"
	fi
done
"$HT" scan --json "$clean" > /dev/null
expect_eq "--json exit when clean" "$?" 0

# Usage errors: exit 2, one line on stderr naming the culprit, nothing on stdout.
usage_error "error: $d/missing.log: No such file or directory" scan "$clean" "$d/missing.log"
usage_error "error: $d: Is a directory" scan "$d"
usage_error "error: unknown option '--bogus': scan takes --json, --vmlinux, --modules, --help" scan --bogus "$clean"
usage_error "error: no file to scan" scan
usage_error "error: no file to scan" scan --json
expect_eq "stdout of a scan with a missing file" "$("$HT" scan "$finding" "$d/missing.log" 2> /dev/null)" ""

# The VM tests' check (lib.sh): passes on clean consoles, fails on a report or a missing file.
(expect_no_kernel_report "$clean" "$clean") > /dev/null 2>&1 || fail "expect_no_kernel_report: refused a clean console"
refused() {	# FILE WANT: expect_no_kernel_report fails on FILE, saying WANT…
	local err
	err=$( (expect_no_kernel_report "$clean" "$1") 2>&1 > /dev/null) &&
		fail "expect_no_kernel_report: passed $1"
	[[ $err == "$2"* ]] || fail "expect_no_kernel_report $1: '$err', want '$2…'"
	echo "ok: expect_no_kernel_report $1: $err"
}
refused "$finding" "FAIL: kernel report in the guest's log: $finding: "
refused "$d/missing.log" "FAIL: scan exit 2: error: $d/missing.log: No such file"

"$HT" scan --help | grep -q '^usage: htab-torture scan \[--json\] \[--vmlinux PATH \[--modules DIR\]\] FILE\.\.\.$' || fail "scan --help: no usage line"
"$HT" --help | grep -q '^  scan ' || fail "htab-torture --help does not list scan"
echo "ok: scan --help, htab-torture --help"
