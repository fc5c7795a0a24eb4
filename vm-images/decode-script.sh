#!/bin/sh
# The kernel's own scripts/decode_stacktrace.sh for a kernel line, for the
# kernels that come without a tree (Debian's, decoded with their -dbg
# vmlinux): taken once, with the scripts/decodecode it calls for "Code:"
# lines, from the line's source package (vm-images/lines/LINE/line.conf
# SOURCE_TAR) into vm-images/out/decode/LINE/, and its path printed.
#
# Usage: decode-script.sh LINE
# Exit: 0 printed, 1 the source package is not installed (says which),
# 2 usage or unknown line (names the valid ones).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: decode-script.sh LINE" >&2; exit 2; }
line=$1
case $line in
*/*|.*|'') ;;
*) [ -f "$here/lines/$line/line.conf" ] && conf=$here/lines/$line/line.conf ;;
esac
if [ -z "${conf:-}" ]; then
	echo "decode-script: unknown kernel line '$line' (valid: $(ls "$here/lines" | grep -v '^default$' | tr '\n' ' ' | sed 's/ $//'))" >&2
	exit 2
fi
SOURCE_TAR='' SOURCE_PKG=''
. "$conf"
out=${HTAB_DECODE_CACHE:-$here/out/decode}/$line
if [ ! -x "$out/scripts/decode_stacktrace.sh" ]; then
	[ -f "$SOURCE_TAR" ] || { echo "decode-script: no $SOURCE_TAR (apt-get install $SOURCE_PKG)" >&2; exit 1; }
	mkdir -p "$out.tmp"
	tar -xJf "$SOURCE_TAR" -C "$out.tmp" --strip-components=1 --wildcards \
		'*/scripts/decode_stacktrace.sh' '*/scripts/decodecode'
	rm -rf "$out" && mv "$out.tmp" "$out"
fi
echo "$out/scripts/decode_stacktrace.sh"
