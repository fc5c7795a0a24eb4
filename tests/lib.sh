# Shared helpers for the shell tests (sourced). Each test exits 0 on pass.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HT="$ROOT/harness/htab-torture"
OUT="$ROOT/tests/out"
mkdir -p "$OUT"

fail() { echo "FAIL: $*" >&2; exit 1; }

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
