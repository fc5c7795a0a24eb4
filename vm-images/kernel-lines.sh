#!/bin/sh
# The kernel lines and their Debian kernels, read from vm-images/lines/
# (one folder per line, each with line.conf: the source package variants
# are built from, and a table `distro`: label, release ERE, packages). The one place that answers "which distro kernel is LABEL":
# the harness, the Makefile, bench and tests all ask it.
#
# Usage: kernel-lines.sh labels            every distro label, one a line
#        kernel-lines.sh default           the label `--kernel distro` means
#        kernel-lines.sh packages          the lines' source packages (apt installs them)
#        kernel-lines.sh line LABEL        the line of LABEL (installed or not)
#        kernel-lines.sh resolve LABEL     LABEL=.. LINE=.. RELEASE=.. IMAGE=.. KDIR=..
#        kernel-lines.sh release [LABEL]   RELEASE only (default: the default)
#        kernel-lines.sh fetch [LABEL...]  unpack each label's kernel (default: all)
#        kernel-lines.sh root RELEASE      the root with lib/modules/RELEASE
#                                          (its image and headers not asked)
# LABEL may be `distro` (the default). resolve picks the newest release
# (version order) matching the label's ERE that has ROOT/boot/vmlinuz-R,
# ROOT/lib/modules/R and ROOT/usr/src/linux-headers-R, in the kit's root
# (HTAB_DISTRO_ROOT, default /var/lib/htab-torture/distro) or the host's.
# fetch unpacks a label's image and headers packages (and the kernel
# packages they depend on: headers-common, kbuild) into the kit's root
# with apt-get download and dpkg-deb -x, unless resolve finds the label:
# Debian's guest kernels are not installed on the host, which so neither
# builds an initramfs for them nor boots one by default after `make deps`.
# HTAB_SYSROOT, when set (tests), is the only root, read and fetched into.
# Exit: 0 ok, 1 the label's kernel is not there (says how to fetch it) or
# a fetch failed, 2 usage error or unknown label (names the valid ones).
set -eu
lines=$(cd "$(dirname "$0")" && pwd)/lines
if [ -n "${HTAB_SYSROOT+set}" ]; then
	roots=${HTAB_SYSROOT:-/}
	kitroot=${HTAB_SYSROOT:-/}
else
	kitroot=${HTAB_DISTRO_ROOT:-/var/lib/htab-torture/distro}
	roots="/ $kitroot"
fi

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

# ROOT with the trailing slash of "/" dropped, so paths read ROOT/boot/...
noslash() { [ "$1" = / ] && echo "" || echo "${1%/}"; }

# The roots, as messages name them: "/ or ROOT"
where() { echo $roots | sed 's/ / or /g'; }

# "RELEASE ROOT" of every kernel in the roots with lib/modules/RELEASE and,
# unless $1 is "modules", its image and headers (later roots win a tie)
kernels() {
	for r in $roots; do
		r=$(noslash "$r")
		for d in "$r"/lib/modules/*/; do
			[ -d "$d" ] || continue
			rel=$(basename "$d")
			[ "${1:-}" = modules ] ||
				{ [ -e "$r/boot/vmlinuz-$rel" ] && [ -d "$r/usr/src/linux-headers-$rel" ]; } || continue
			echo "$rel ${r:-/}"
		done
	done
}

# The value of NAME in a resolve line on stdin
field() { sed -n "s/.*\(^\| \)$1=\([^ ]*\).*/\2/p"; }

resolve() {
	r=$(row "$1")
	line=$(echo "$r" | cut -f1)
	label=$(echo "$r" | cut -f2)
	ere=$(echo "$r" | cut -f3)
	pkgs=$(echo "$r" | cut -f4)
	# The ERE through the environment: awk -v would take its backslashes
	# as string escapes (gawk turns \. into . and \+ into +).
	best=$(kernels | ERE=$ere awk '$1 ~ ENVIRON["ERE"]' | sort -s -V -k1,1 | tail -n 1)
	if [ -z "$best" ]; then
		echo "kernel-lines: $label (line $line) is not there: no release matching $ere with ROOT/boot/vmlinuz-R, ROOT/lib/modules/R and ROOT/usr/src/linux-headers-R in $(where) (fetch $pkgs: make deps, or vm-images/kernel-lines.sh fetch $label)" >&2
		exit 1
	fi
	rel=${best% *}
	dir=$(noslash "${best#* }")
	echo "LABEL=$label LINE=$line RELEASE=$rel IMAGE=$dir/boot/vmlinuz-$rel KDIR=$dir/usr/src/linux-headers-$rel"
}

# The packages $@ and the kernel packages they depend on (the first of
# alternatives that apt has), one a line.
closure() {
	todo="$*" seen=
	while [ -n "$todo" ]; do
		set -- $todo
		p=$1; shift; todo="$*"
		case " $seen " in *" $p "*) continue ;; esac
		seen="$seen $p"
		for grp in $(apt-cache depends --no-recommends --no-suggests --no-conflicts \
				--no-breaks --no-replaces --no-enhances "$p" 2>/dev/null |
			awk '/^ [ |](Pre)?Depends: / { g = g ? g "|" $2 : $2; if (substr($0, 2, 1) != "|") { print g; g = "" } }' |
			grep -E '(^|[|])linux-(image|headers|kbuild)-'); do
			for alt in $(echo "$grp" | tr '|' ' '); do
				if apt-cache show --no-all-versions "$alt" > /dev/null 2>&1; then
					todo="$todo $alt"
					break
				fi
			done
		done
	done
	printf '%s\n' $seen
}

fetch() {
	r=$(row "$1")
	label=$(echo "$r" | cut -f2)
	pkgs=$(echo "$r" | cut -f4)
	if out=$(resolve "$label" 2> /dev/null); then
		echo "kernel-lines: $label: $(echo "$out" | field IMAGE) is there"
		return 0
	fi
	fail() { echo "kernel-lines: fetching $label ($pkgs) into $kitroot: $*" >&2; exit 1; }
	if [ -z "$(noslash "$kitroot")" ]; then
		echo "kernel-lines: fetch $label: HTAB_SYSROOT is the host's root; fetch unpacks into a root of the kit's, not past dpkg (unset it, or install $pkgs with apt)" >&2
		exit 2
	fi
	command -v apt-get > /dev/null && command -v dpkg-deb > /dev/null || fail "needs apt-get and dpkg-deb (Debian)"
	debs=$kitroot/.debs
	stage=$kitroot/.stage-$label
	mkdir -p "$debs" || fail "cannot make $debs"
	list=$(closure $pkgs)
	[ -n "$list" ] || fail "apt knows none of them (apt-get update?)"
	echo "kernel-lines: $label: fetching $(echo $list)"
	(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root $list) > /dev/null ||
		fail "apt-get download $(echo $list) failed"
	rm -rf "$stage" && mkdir -p "$stage" || fail "cannot make $stage"
	for p in $list; do
		v=$(apt-cache policy "$p" | sed -n 's/^ *Candidate: //p' | sed 's/:/%3a/')
		deb=$(ls "$debs/${p}_${v}"_*.deb 2> /dev/null | head -n 1)
		[ -n "$deb" ] || fail "no $debs/${p}_${v}_*.deb after the download"
		dpkg-deb -x "$deb" "$stage" || fail "dpkg-deb -x $deb failed"
	done
	# A headers package's Makefile includes its common part by absolute path.
	k=$(noslash "$kitroot")
	[ -z "$k" ] || for m in "$stage"/usr/src/linux-headers-*/Makefile; do
		[ -f "$m" ] && sed -i "s|^include /usr/src/|include $k/usr/src/|" "$m"
	done
	for d in "$stage"/lib/modules/*/; do
		[ -d "$d/kernel" ] || continue
		depmod -b "$stage" "$(basename "$d")" || fail "depmod $(basename "$d") failed"
	done
	# Everything but the images first: resolve sees a kernel only with its
	# image. -f: lines share packages (6.12 and 6.12-rt their kbuild), and
	# a fetch cut short is done again over what it left.
	for d in "$stage"/*; do
		[ "$(basename "$d")" = boot ] && continue
		cp -alf "$d" "$kitroot/" || fail "cannot link $d into $kitroot"
	done
	if [ -d "$stage/boot" ]; then
		mkdir -p "$kitroot/boot" && cp -alf "$stage/boot/." "$kitroot/boot/" || fail "cannot link the images"
	fi
	rm -rf "$stage"
	# The unpacked tree is what is kept: its packages would be 300 MB more.
	for p in $list; do rm -f "$debs/${p}_"*.deb; done
	out=$(resolve "$label") || fail "unpacked, but still not resolvable"
	echo "kernel-lines: $label: $(echo "$out" | field IMAGE)"
}

case "${1:-}" in
labels) table | cut -f2 ;;
default) default_label ;;
packages) sed -n 's/^SOURCE_PKG=//p' "$lines"/*/line.conf | sort -u ;;
line) [ $# -eq 2 ] || { echo "usage: kernel-lines.sh line LABEL" >&2; exit 2; }; r=$(row "$2"); echo "$r" | cut -f1 ;;
resolve) [ $# -eq 2 ] || { echo "usage: kernel-lines.sh resolve LABEL" >&2; exit 2; }; resolve "$2" ;;
release) out=$(resolve "${2:-distro}"); echo "$out" | field RELEASE ;;
fetch) shift
	[ $# -gt 0 ] || set -- $(table | cut -f2)
	for l in "$@"; do row "$l" > /dev/null; done
	for l in "$@"; do fetch "$l"; done ;;
root) [ $# -eq 2 ] || { echo "usage: kernel-lines.sh root RELEASE" >&2; exit 2; }
	r=$(kernels modules | REL=$2 awk '$1 == ENVIRON["REL"] { r = $2 } END { print r }')
	[ -n "$r" ] || { echo "kernel-lines: no lib/modules/$2 in $(where)" >&2; exit 1; }
	echo "$r" ;;
*) echo "kernel-lines: unknown command '${1:-}' (valid: labels default packages line resolve release fetch root)" >&2
   sed -n '/^# Usage:/,/^# LABEL may/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
