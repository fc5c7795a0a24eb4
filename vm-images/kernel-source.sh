#!/bin/bash
# The pristine source of a kernel line: its line.conf's SOURCE_PKG and
# SOURCE_TAR (HTAB_KSRC_PKG, HTAB_KSRC_TAR override), extracted once into
# HTAB_KBUILD (default vm-images/build)/src-<package version>/. What the
# kit builds from a line starts from there as a hard-linked copy
# (build-kernel.sh's variant trees, lz4-bzimage.sh's boot trees).
#
# Usage: kernel-source.sh info LINE      SRC_PKG=.. SRC_VER=.. SRC_TAR=.. SRC_DIR=..
#        kernel-source.sh extract LINE   the same, once SRC_DIR is extracted
# Exit: 0 ok, 1 the package is not installed or extracting failed, 2 usage
# error or unknown line (names the valid ones).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lines_dir=$here/lines
build=${HTAB_KBUILD:-$here/build}
msg() { echo "kernel-source: $*" >&2; }
usage() { msg "usage: kernel-source.sh info|extract LINE"; exit 2; }
[ $# -eq 2 ] || usage
case $1 in info|extract) ;; *) usage ;; esac
line=$2
if [ ! -f "$lines_dir/$line/line.conf" ]; then
	msg "unknown line '$line' (valid: $(cd "$lines_dir" && ls -d */ | tr -d / | sort -V | paste -sd' '))"
	exit 2
fi
SOURCE_PKG='' SOURCE_TAR=''
# shellcheck source=/dev/null
. "$lines_dir/$line/line.conf"
pkg=${HTAB_KSRC_PKG:-$SOURCE_PKG}
tar=${HTAB_KSRC_TAR:-$SOURCE_TAR}
ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || { msg "package $pkg is not installed (make deps)"; exit 1; }
[ -f "$tar" ] || { msg "no $tar (install $pkg: make deps)"; exit 1; }
src=$build/src-$(printf '%s' "$ver" | tr -c 'A-Za-z0-9.+-' '_')
if [ "$1" = extract ]; then
	mkdir -p "$build"
	(
		flock 8
		if [ ! -f "$src/.htab-extracted" ]; then
			msg "extracting $tar into $src"
			rm -rf "$src.tmp" "$src"
			mkdir -p "$src.tmp"
			nice -n "${HTAB_NICE:-10}" tar -xJf "$tar" -C "$src.tmp" --strip-components=1
			touch "$src.tmp/.htab-extracted"
			mv "$src.tmp" "$src"
		fi
	) 8> "$build/.lock-src"
fi
printf 'SRC_PKG=%q SRC_VER=%q SRC_TAR=%q SRC_DIR=%q\n' "$pkg" "$ver" "$tar" "$src"
