#!/bin/bash
# vm-images/kernel-lines.sh: which Debian kernel a distro label means, in
# a fake sysroot: the newest matching release with image and headers, one
# line never taken for another (6.12 vs 6.12-rt, 6.1 vs 6.12), `distro`
# is the recorded default, and errors name the label and what to install.
. "$(dirname "$0")/../lib.sh"
kl=$ROOT/vm-images/kernel-lines.sh
export HTAB_SYSROOT
HTAB_SYSROOT=$(fresh_dir kernel_lines)
kernel() {	# release [no-headers]
	mkdir -p "$HTAB_SYSROOT/lib/modules/$1" "$HTAB_SYSROOT/boot"
	: > "$HTAB_SYSROOT/boot/vmlinuz-$1"
	[ "${2:-}" = no-headers ] || mkdir -p "$HTAB_SYSROOT/usr/src/linux-headers-$1"
}
kernel 6.1.0-10-amd64
kernel 6.1.0-57-amd64
kernel 6.1.0-58-amd64 no-headers
kernel 6.12.9+deb12-amd64
kernel 6.12.117+deb12-amd64
kernel 6.12.117+deb12-rt-amd64
kernel 6.12.117+deb12-cloud-amd64

expect_eq "default" "$("$kl" default)" distro-6.1
expect_eq "distro" "$("$kl" release distro)" 6.1.0-57-amd64
expect_eq "distro-6.1 (version order, headers needed)" "$("$kl" release distro-6.1)" 6.1.0-57-amd64
expect_eq "distro-6.12" "$("$kl" release distro-6.12)" 6.12.117+deb12-amd64
expect_eq "distro-6.12-rt" "$("$kl" release distro-6.12-rt)" 6.12.117+deb12-rt-amd64
expect_eq "resolve" "$("$kl" resolve distro-6.12-rt)" \
	"LABEL=distro-6.12-rt LINE=6.12-rt RELEASE=6.12.117+deb12-rt-amd64 IMAGE=$HTAB_SYSROOT/boot/vmlinuz-6.12.117+deb12-rt-amd64 KDIR=$HTAB_SYSROOT/usr/src/linux-headers-6.12.117+deb12-rt-amd64"
"$kl" labels | grep -qx distro-6.12-rt || fail "labels: no distro-6.12-rt"
expect_eq "packages: the lines' sources, no kernel for apt to install on the host" \
	"$("$kl" packages | tr '\n' ' ')" "linux-source-6.1 linux-source-6.12 "
expect_eq "root of a release" "$("$kl" root 6.12.117+deb12-amd64)" "$HTAB_SYSROOT"
expect_eq "root of a kernel without headers (modules are enough)" \
	"$("$kl" root 6.1.0-58-amd64)" "$HTAB_SYSROOT"
err=$("$kl" root 6.1.0-99-amd64 2>&1); rc=$?
expect_eq "root of a kernel without modules: exit" "$rc" 1
expect_eq "root of a kernel without modules: message" "$err" \
	"kernel-lines: no lib/modules/6.1.0-99-amd64 in $HTAB_SYSROOT"

err=$("$kl" resolve distro-9.9 2>&1); rc=$?
expect_eq "unknown label exit" "$rc" 2
expect_eq "unknown label message" "$err" \
	"kernel-lines: unknown distro kernel 'distro-9.9' (valid: distro distro-6.1 distro-6.12 distro-6.12-rt)"
rm -rf "$HTAB_SYSROOT/usr/src/linux-headers-6.12.117+deb12-rt-amd64"
err=$("$kl" resolve distro-6.12-rt 2>&1); rc=$?
expect_eq "missing kernel exit" "$rc" 1
case $err in
*"distro-6.12-rt (line 6.12-rt) is not there"*"fetch linux-image-6.12-rt-amd64 linux-headers-6.12-rt-amd64: make deps"*) echo "ok: says what to fetch" ;;
*) fail "missing kernel message: $err" ;;
esac
"$kl" bogus 2> /dev/null; expect_eq "usage exit" "$?" 2

# Without HTAB_SYSROOT: the kit's root (HTAB_DISTRO_ROOT) and the host's,
# the newest release of either.
kit=$(fresh_dir kernel_lines_kit)
mkdir -p "$kit/lib/modules/6.1.0-999-amd64" "$kit/boot" "$kit/usr/src/linux-headers-6.1.0-999-amd64"
: > "$kit/boot/vmlinuz-6.1.0-999-amd64"
expect_eq "kit root beside the host's" "$(env -u HTAB_SYSROOT HTAB_DISTRO_ROOT="$kit" "$kl" resolve distro-6.1)" \
	"LABEL=distro-6.1 LINE=6.1 RELEASE=6.1.0-999-amd64 IMAGE=$kit/boot/vmlinuz-6.1.0-999-amd64 KDIR=$kit/usr/src/linux-headers-6.1.0-999-amd64"

# The harness asks the same script and says its answer in its own error.
if [ -x "$ROOT/harness/htab-torture" ]; then
	err=$("$ROOT/harness/htab-torture" run --kernel distro-9.9 --dry-run --out "$OUT/kernel_lines/run" 2>&1); rc=$?
	expect_eq "run --kernel distro-9.9 exit" "$rc" 2
	case $err in *"unknown distro kernel 'distro-9.9' (valid: distro distro-6.1"*) echo "ok: run names the valid labels" ;;
	*) fail "run --kernel distro-9.9: $err" ;; esac
fi

# Variants on a line: build-kernel.sh lists each plain (default line) and
# as LINE/VARIANT per line it supports; an unknown line names the lines.
bk=$ROOT/vm-images/build-kernel.sh
list=$(HTAB_SYSROOT= "$bk" --list)
for v in fixed 6.1/fixed 6.12/fixed 6.12/mut-lost-push; do
	echo "$list" | grep -qx "$v" || fail "build-kernel.sh --list: no $v"
done
echo "ok: --list has fixed, 6.1/fixed, 6.12/fixed"
err=$(HTAB_SYSROOT= "$bk" 9.9/fixed 2>&1); rc=$?
expect_eq "unknown line exit" "$rc" 2
expect_eq "unknown line message" "$err" "build-kernel: unknown kernel line '9.9'; valid: 6.1 6.12 6.12-rt "
if [ -x "$ROOT/harness/htab-torture" ]; then
	err=$("$ROOT/harness/htab-torture" run --kernel 6.12/fixed/x --plan-only --out "$OUT/kernel_lines/run" 2>&1)
	expect_eq "run --kernel 6.12/fixed/x exit" "$?" 2
	case $err in *"'6.12/fixed/x'"*"[LINE/]VARIANT"*) echo "ok: a label with two '/' is refused" ;;
	*) fail "run --kernel 6.12/fixed/x: $err" ;; esac
	ids=$("$ROOT/harness/htab-torture" run --kernel 6.12/fixed --cpus 2 --plan-only --out "$OUT/kernel_lines/run")
	expect_eq "cell id of 6.12/fixed" "$ids" v2-full_update-6.12-fixed-none-r0
fi
