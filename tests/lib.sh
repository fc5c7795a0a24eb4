# Shared helpers for the shell tests (sourced). Each test exits 0 on pass.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HT="$ROOT/harness/htab-torture"
OUT="$ROOT/tests/out"
mkdir -p "$OUT"

fail() { echo "FAIL: $*" >&2; exit 1; }

# RESTORE: `htab-torture run` options for a test whose guests boot only to
# run its cells: restore the guest saved once per (kernel, vCPUs, RAM) in
# vm-images/out/snapshots/ instead of booting it (README, "--restore"; the
# harness's default too, so a test that leaves it out restores as well).
# Tests of booting itself pass --restore off. HTAB_TEST_RESTORE=off runs
# the tests that pass RESTORE on cold boots.
RESTORE=(--restore "${HTAB_TEST_RESTORE:-on}")

# expect_eq WHAT GOT WANT
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; echo "ok: $1 = $3"; }

# expect_cmp WHAT A OP B  (numeric, jq does the arithmetic on floats)
expect_cmp() {
	jq -en --argjson a "$2" --argjson b "$4" "\$a $3 \$b" > /dev/null ||
		fail "$1: $2 $3 $4 does not hold"
	echo "ok: $1: $2 $3 $4"
}

# fresh_dir NAME: an empty output directory for one test
fresh_dir() { rm -rf "${OUT:?}/$1"; mkdir -p "$OUT/$1"; echo "$OUT/$1"; }

# expect_no_kernel_report FILE...: the harness's console classifier
# (`htab-torture scan`) finds no kernel report (WARNING, BUG, Oops, GPF,
# panic, lockup, stall, hung task, lockdep, KASAN) in any FILE; a FILE that
# is missing fails too
expect_no_kernel_report() {
	local out rc
	out=$("$HT" scan "$@" 2>&1); rc=$?
	[ $rc -ne 1 ] || fail "kernel report in the guest's log: $(grep -v ': clean$' <<< "$out")"
	[ $rc -eq 0 ] || fail "scan exit $rc: $out"
	echo "ok: no kernel report in $*"
}

# cell_dir NAME RUN AXIS=VALUE...: set NAME to the directory of the one cell of
# run RUN whose axes have these values, e.g. cell_dir c "$d/run" callers=kthread+nmi.
# The cells and their axes come from RUN/summary.json (the cells the run
# recorded, rewritten after each, so no run arguments to repeat here and no
# id spelled out); an AXIS is a key of `run --plan-only --json`'s cells
# (vcpus, workload, kernel, noise, ..., test_action, repeat), and a cell
# without the key has it at none (test_action left off). No such cell, or
# several, fails naming them.
cell_dir() {
	local _cd_name=$1 _cd_run=$2 _cd_kv _cd_ids
	shift 2
	[ -n "${PLAN_AXES:-}" ] || PLAN_AXES=$("$HT" run --plan-only --json --test-action panic --out . |
		jq -r '.[0] | del(.id, .dir) | keys | join(" ")')
	[ -n "$PLAN_AXES" ] || fail "cell_dir: no axes from 'htab-torture run --plan-only --json'"
	[ $# -gt 0 ] || fail "cell_dir $_cd_run: no AXIS=VALUE"
	for _cd_kv; do
		[[ $_cd_kv == ?*=* ]] || fail "cell_dir: '$_cd_kv' is not AXIS=VALUE"
		[[ " $PLAN_AXES " == *" ${_cd_kv%%=*} "* ]] ||
			fail "cell_dir: '${_cd_kv%%=*}' is not an axis (axes: $PLAN_AXES)"
	done
	[ -r "$_cd_run/summary.json" ] || fail "cell_dir: no $_cd_run/summary.json"
	_cd_ids=$(jq -r '($ARGS.positional | map(capture("^(?<k>[^=]+)=(?<v>.*)$"))) as $want
		| .cells[] | select(. as $c | all($want[]; ($c[.k] // "none" | tostring) == .v)) | .cell' \
		"$_cd_run/summary.json" --args "$@") || fail "cell_dir: cannot read $_cd_run/summary.json"
	case $(grep -c . <<< "$_cd_ids") in
	0) fail "cell_dir: no cell of $_cd_run has $*" ;;
	1) ;;
	*) fail "cell_dir: several cells of $_cd_run have $*: $(paste -sd' ' <<< "$_cd_ids")" ;;
	esac
	[ -d "$_cd_run/$_cd_ids" ] || fail "cell_dir: $_cd_run/summary.json lists $_cd_ids, no such directory"
	printf -v "$_cd_name" '%s' "$_cd_run/$_cd_ids"
}

# cj CELL FILTER: jq -r FILTER of CELL/cell.json
cj() { jq -r "$2" "$1/cell.json"; }

# workloads: the module's workloads, one a line, from kmod/workloads.h (their one list)
workloads() { sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\)).*/\1/p' "$ROOT/kmod/workloads.h"; }

# usage_error WANT ARGS...: htab-torture ARGS exits 2 with one line on stderr holding WANT
usage_error() {
	local want=$1 err rc; shift
	err=$("$HT" "$@" 2>&1 >/dev/null); rc=$?
	expect_eq "exit of '$*'" "$rc" 2
	[[ $err == *"$want"* ]] || fail "'$*': '$err' lacks '$want'"
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "'$*': more than one line: $err"
	echo "ok: $err"
}

# kill9_after_rounds BISECT_OUT N OUT ERR ARGS...: htab-torture ARGS (a bisect into
# BISECT_OUT) in the background, stdout OUT, stderr ERR, killed with SIGKILL
# once N of its rounds are done.
kill9_after_rounds() {
	local bout=$1 n=$2 so=$3 se=$4 pid; shift 4
	"$HT" "$@" > "$so" 2> "$se" &
	pid=$!
	for _ in $(seq 300); do
		[ "$(ls "$bout"/step-*/round-*.done 2>/dev/null | wc -l)" -ge "$n" ] && break
		sleep 0.1
	done
	kill -9 $pid
	wait $pid 2> /dev/null
	sleep 0.5
}

# kill9_after_first_cell DIR OUT ERR ARGS...: htab-torture ARGS in the background
# (stdout OUT, stderr ERR), killed with SIGKILL once a cell of run DIR has
# its cell.json; then no QEMU of DIR may outlive it (PR_SET_PDEATHSIG).
kill9_after_first_cell() {
	local d=$1 o=$2 e=$3 pid
	shift 3
	"$HT" "$@" > "$o" 2> "$e" &
	pid=$!
	for _ in $(seq 600); do
		ls "$d"/*/cell.json > /dev/null 2>&1 && break
		sleep 0.2
	done
	ls "$d"/*/cell.json > /dev/null 2>&1 || { kill -9 $pid; fail "no cell finished in 120 s"; }
	kill -9 $pid
	wait $pid 2> /dev/null
	for _ in 1 2 3 4 5 6 7 8 9 10; do pgrep -f -- "$d/" > /dev/null || break; sleep 0.3; done
	pgrep -f -- "$d/" > /dev/null && fail "orphaned QEMU after kill -9: $(pgrep -af -- "$d/")"
	echo "ok: no orphaned QEMU"
}

# rerun_finishes_the_rest DIR OUT ERR N ARGS...: after kill9_after_first_cell
# on run DIR of N cells, htab-torture ARGS again (stdout OUT, stderr ERR). The
# cells finished before the kill (1 to N-1; KEPT is set to their number) are
# skipped, byte-identical and were started once; afterwards every one of
# the N cells PASSed once in cell.json's attempt, and summary.json lists
# each once.
rerun_finishes_the_rest() {
	local d=$1 o=$2 e=$3 n=$4 f c
	local -A before=()
	shift 4
	for f in "$d"/*/cell.json; do before[$f]=$(sha256sum < "$f"); done
	KEPT=${#before[@]}
	expect_cmp "cells finished before the kill" "$KEPT" ">=" 1
	expect_cmp "cells finished before the kill" "$KEPT" "<" "$n"
	"$HT" "$@" > "$o" 2> "$e" || fail "rerun exit $?: $(cat "$e")"
	expect_eq "rerun skipped the finished cells" "$(grep -c 'finished before' "$e")" "$KEPT"
	for f in "${!before[@]}"; do
		expect_eq "$(basename "$(dirname "$f")") untouched" "$(sha256sum < "$f")" "${before[$f]}"
		expect_eq "$(basename "$(dirname "$f")") attempts" "$(wc -l < "$(dirname "$f")/attempts.log")" 1
	done
	expect_eq "cells with a cell.json" "$(ls "$d"/*/cell.json | wc -l)" "$n"
	for f in "$d"/*/cell.json; do
		c=$(dirname "$f")
		expect_eq "${c##*/} verdict" "$(jq -r .verdict "$f")" PASS
		expect_eq "${c##*/} attempt in cell.json" "$(jq .attempt "$f")" "$(wc -l < "$c/attempts.log")"
	done
	expect_eq "summary cells" "$(jq '.cells | length' "$d/summary.json")" "$n"
	expect_eq "summary ids unique" "$(jq '[.cells[].cell] | unique | length' "$d/summary.json")" "$n"
}
