#!/bin/bash
# `htab-torture report` end to end: a real 2-vCPU run (or, with
# REPORT_FIXTURE_ONLY=1 / no guest kernel, the A/B fixture), then a fixture
# run with a crashed and a timed-out cell. Each report.html is opened in
# headless Chromium: every <img> must have loaded (the page's own script
# counts them into body data-images-ok/-total), the tables must be there,
# and a screenshot is saved beside the report (report.png).
. "$(dirname "$0")/../lib.sh"
command -v chromium > /dev/null || { echo "chromium not installed (make deps)"; exit 77; }
command -v gnuplot > /dev/null || { echo "gnuplot not installed (make deps)"; exit 77; }

chrome() {	# chrome URL-or-file extra-args...: headless, hermetic
	local prof
	prof=$(mktemp -d)
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-dev-shm-usage --hide-scrollbars --user-data-dir="$prof" \
		--virtual-time-budget=5000 "${@:2}" "file://$1" 2> "$prof.log"
	local rc=$?
	rm -rf "$prof" "$prof.log"
	return $rc
}

check_report() {	# run dir, expected verdict data attributes...
	local d=$1; shift
	# by a relative path, as `make run` and `make coverage` give it (gnuplot
	# runs in plots/: its log path once broke every plot that way)
	(cd "$(dirname "$d")" && "$HT" report "$(basename "$d")") || fail "report exit $?"
	for f in summary.csv summary.json report.txt report.html; do
		[ -s "$d/$f" ] || fail "$d/$f missing or empty"
	done
	local dom="$d/report.dom.html"
	chrome "$d/report.html" --dump-dom > "$dom" || fail "chromium --dump-dom failed"
	local ok total
	ok=$(sed -n 's/.*<body[^>]*data-images-ok="\([0-9]*\)".*/\1/p' "$dom")
	total=$(sed -n 's/.*<body[^>]*data-images-total="\([0-9]*\)".*/\1/p' "$dom")
	[ -n "$total" ] || fail "the page's image check did not run"
	expect_cmp "images on the page" "$total" ">" 0
	expect_eq "images loaded" "$ok" "$total"
	for id in env kernels params verdicts; do
		grep -q "<table id=\"$id\"" "$dom" || fail "table #$id missing"
		echo "ok: table #$id"
	done
	grep -q 'class="scaling"' "$dom" || fail "scaling table missing"
	for v in "$@"; do
		grep -q "data-verdict=\"$v\"" "$dom" || fail "no $v row in the verdict table"
		echo "ok: $v row"
	done
	chrome "$d/report.html" --screenshot="$d/report.png" --window-size=1280,2400 > /dev/null ||
		fail "screenshot failed"
	[ -s "$d/report.png" ] || fail "no screenshot"
	echo "ok: screenshot $d/report.png"
}

# 1. A real run when a guest kernel and the module are there, else the fixture.
d=$(fresh_dir report_html)
if [ "${REPORT_FIXTURE_ONLY:-0}" != 1 ] && [ -n "$(make -s -C "$ROOT" print-kver 2>/dev/null)" ] &&
	ls "$ROOT"/kmod/*.ko > /dev/null 2>&1; then
	"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 2 --out "$d" || fail "run exit $?"
	check_report "$d" PASS
	grep -Eq '^[0-9]+:full_update [0-9]+ events per sec$' "$d/report.txt" ||
		fail "no seed-format per-CPU line in report.txt"
else
	echo "note: no guest kernel/module built: using the A/B fixture run"
	rmdir "$d" && cp -r "$ROOT/tests/fixtures/report/ab_run" "$d"
	check_report "$d" PASS
	grep -q '<table id="ab"' "$d/report.dom.html" || fail "A/B table missing"
fi

# 2. Crashed and timed-out cells are listed with signatures; the rest still plots.
d=$(fresh_dir report_html_partial)
rmdir "$d" && cp -r "$ROOT/tests/fixtures/report/partial_run" "$d"
check_report "$d" PASS CRASH TIMEOUT SKIP INCOMPLETE
grep -q 'BUG: soft lockup in __pcpu_freelist_pop' "$d/report.dom.html" || fail "CRASH signature missing"
grep -q 'no console output for 120 s' "$d/report.dom.html" || fail "TIMEOUT signature missing"
expect_eq "CRASH in summary.json" \
	"$(jq -r '.cells[] | select(.verdict == "CRASH") | .signature' "$d/summary.json")" \
	"BUG: soft lockup in __pcpu_freelist_pop"
[ -s "$d/plots/scaling_full_update_evs.png" ] || fail "finished cells not plotted"
echo "ok: partial run reported and plotted"
