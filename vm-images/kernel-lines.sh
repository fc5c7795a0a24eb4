#!/bin/sh
# The kernel lines and their Debian kernels, read from vm-images/lines/
# (one folder per line, each with line.conf: the source package variants
# are built from, and a table `distro`: label, release ERE, packages). The one place that answers "which distro kernel is LABEL":
# the harness, the Makefile, bench and tests all ask it.
#
# Usage: kernel-lines.sh labels            every distro label, one a line
#        kernel-lines.sh default           the label `--kernel distro` means
#        kernel-lines.sh packages          every label's and line's Debian packages
#        kernel-lines.sh line LABEL        the line of LABEL (installed or not)
#        kernel-lines.sh resolve LABEL     LABEL=.. LINE=.. RELEASE=.. IMAGE=.. KDIR=..
#        kernel-lines.sh release [LABEL]   RELEASE only (default: the default)
# LABEL may be `distro` (the default). resolve picks the newest installed
# release (version order) matching the label's ERE that has both
# $HTAB_SYSROOT/boot/vmlinuz-R and $HTAB_SYSROOT/usr/src/linux-headers-R.
# Exit: 0 ok, 1 the label's kernel is not installed (says which packages),
# 2 usage error or unknown label (names the valid ones).
set -eu
lines=$(cd "$(dirname "$0")" && pwd)/lines
root=${HTAB_SYSROOT:-}

table() {	# line label ere packages..., comments and blanks dropped
	# version order: 6.1, 6.12, 6.12-rt (a glob puts 6.12-rt/ before 6.12/)
	for line in $(cd "$lines" && printf '%s\n' */distro | sed 's|/distro$||' | sort -V); do
		f=$lines/$line/distro
		sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e "s|^|$line	|" "$f"
	done
}

default_label() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$lines/default" | head -n 1; }

row() {	# the table row of label $1, or exit 2
	want=$1
	[ "$want" = distro ] && want=$(default_label)
	r=$(table | awk -F'\t' -v l="$want" '$2 == l')
	if [ -z "$r" ]; then
		echo "kernel-lines: unknown distro kernel '$1' (valid: distro $(table | cut -f2 | tr '\n' ' '| sed 's/ $//'))" >&2
		exit 2
	fi
	echo "$r"
}

resolve() {
	r=$(row "$1")
	line=$(echo "$r" | cut -f1)
	label=$(echo "$r" | cut -f2)
	ere=$(echo "$r" | cut -f3)
	pkgs=$(echo "$r" | cut -f4)
	best=
	for d in "$root"/lib/modules/*/; do
		rel=$(basename "$d")
		echo "$rel" | grep -Eq -- "$ere" || continue
		[ -e "$root/boot/vmlinuz-$rel" ] && [ -d "$root/usr/src/linux-headers-$rel" ] || continue
		best="$best$rel
"
	done
	best=$(printf '%s' "$best" | sort -V | tail -n 1)
	if [ -z "$best" ]; then
		echo "kernel-lines: $label (line $line) is not installed: no release matching $ere with its image in $root/boot and headers in $root/usr/src (install $pkgs: make deps)" >&2
		exit 1
	fi
	echo "LABEL=$label LINE=$line RELEASE=$best IMAGE=$root/boot/vmlinuz-$best KDIR=$root/usr/src/linux-headers-$best"
}

case "${1:-}" in
labels) table | cut -f2 ;;
default) default_label ;;
packages) { table | cut -f4 | tr ' ' '\n'; sed -n 's/^SOURCE_PKG=//p' "$lines"/*/line.conf; } | sort -u ;;
line) [ $# -eq 2 ] || { echo "usage: kernel-lines.sh line LABEL" >&2; exit 2; }; r=$(row "$2"); echo "$r" | cut -f1 ;;
resolve) [ $# -eq 2 ] || { echo "usage: kernel-lines.sh resolve LABEL" >&2; exit 2; }; resolve "$2" ;;
release) out=$(resolve "${2:-distro}"); echo "$out" | sed 's/.* RELEASE=\([^ ]*\) .*/\1/' ;;
*) echo "kernel-lines: unknown command '${1:-}' (valid: labels default packages line resolve release)" >&2
   sed -n '6,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
