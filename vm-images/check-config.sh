#!/bin/sh
# Checks a kernel .config against what the kit needs (vm-images/tree-config.req)
# for a run: one message naming every missing option and why, exit 2.
# Usage: check-config.sh CONFIG [--cpus N] [--faults] [--bpftrace] [--btf]
# Exit: 0 all there, 2 something missing or a usage error.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: check-config.sh CONFIG [--cpus N] [--faults] [--bpftrace] [--btf]" >&2; exit 2; }
config=$1; shift
[ -r "$config" ] || { echo "check-config: cannot read $config" >&2; exit 2; }
when="always" cpus=1
while [ $# -gt 0 ]; do
	case $1 in
	--cpus) [ $# -ge 2 ] || { echo "check-config: --cpus needs N" >&2; exit 2; }
		cpus=$2; when="$when cpus"; shift ;;
	--faults|--bpftrace|--btf) when="$when ${1#--}" ;;
	*) echo "check-config: unknown option '$1' (valid: --cpus N, --faults, --bpftrace, --btf)" >&2; exit 2 ;;
	esac
	shift
done
case $cpus in ''|*[!0-9]*) echo "check-config: --cpus '$cpus' is not a number" >&2; exit 2 ;; esac

gaps=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/tree-config.req" |
	awk -F'\t' -v when=" $when " -v cpus="$cpus" -v cfg="$config" '
	FILENAME == cfg { if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) { k = substr($0, 1, RLENGTH - 1); v[k] = substr($0, RLENGTH + 1) }; next }
	index(when, " " $3 " ") && !(($1 SUBSEP $2) in done) {
		done[$1 SUBSEP $2] = 1
		have = ($1 in v) ? $1 "=" v[$1] : $1 " not set"
		if ($2 == "y" && v[$1] != "y")
			printf "  %s=y (has %s): %s\n", $1, have, $4
		else if ($2 == ">=cpus" && ($1 in v ? v[$1] + 0 : 0) < cpus + 0)
			printf "  %s>=%d (has %s): %s\n", $1, cpus, have, $4
	}' "$config" -)
[ -z "$gaps" ] && exit 0
printf '%s lacks what the kit needs:\n%s\n' "$config" "$gaps" >&2
exit 2
