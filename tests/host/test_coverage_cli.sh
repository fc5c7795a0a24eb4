#!/bin/bash
# --coverage on run, without a VM: it is --kernel coverage (the plan's cells
# are on the coverage kernel); beside another --kernel, or with --target
# host, it is refused in one line naming the value and what is valid, exit
# 2, nothing written. (The gcda → table step itself: tests/unit/test_coverage.)
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir coverage_cli)
usage_error "--kernel 'fixed' with --coverage: only 'coverage' or LINE/coverage is valid (or leave --kernel out)" \
	run --cpus 2 --coverage --kernel fixed --out "$d/a"
usage_error "--kernel 'distro' with --coverage: only 'coverage' or LINE/coverage is valid" \
	run --cpus 2 --kernel coverage,distro --coverage --out "$d/a"
usage_error "--coverage cannot be used with --target host" \
	run --coverage --target host --out "$d/a"
[ -z "$(ls "$d")" ] || fail "a refused command wrote into $d: $(ls "$d")"
expect_eq "plan" "$("$HT" run --plan-only --cpus 2,4 --coverage | tr '\n' ' ')" \
	"v2-full_update-coverage-none-r0 v4-full_update-coverage-none-r0 "
expect_eq "plan with --kernel coverage" "$("$HT" run --plan-only --cpus 2 --coverage --kernel coverage)" \
	"v2-full_update-coverage-none-r0"
"$HT" run --help | grep -q -- "--coverage" || fail "--help lacks --coverage"
echo "ok: --help names --coverage"
# A line's coverage kernel is valid too (its cells are LINE-coverage).
expect_eq "6.12/coverage plan" "$("$HT" run --cpus 2 --coverage --kernel 6.12/coverage --plan-only --out "$d/b")" \
	v2-full_update-6.12-coverage-none-r0
