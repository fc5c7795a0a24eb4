#!/bin/bash
# The same kernel in a bzImage that decompresses itself with LZ4: Debian's
# 6.1 image is XZ-compressed and its decompressor takes ~3 s of every boot
# under TCG (~0.4 s with LZ4; bench/RESULTS.md, "Debian's 6.1 kernel with an
# LZ4 decompressor"). KASLR and the boot protocol stay as they are: only
# arch/x86/boot is rebuilt.
#
# Usage: lz4-bzimage.sh LINE BZIMAGE CONFIG OUT
# LINE is the kernel line whose Debian source (vm-images/kernel-source.sh)
# builds the boot code; CONFIG the image's .config (Debian's
# /boot/config-RELEASE). Steps: the payload (bzimage-payload.sh: vmlinux.bin
# followed by its relocations) is split at the ELF's end; a hard-linked copy
# of the line's source is configured with CONFIG switched to
# CONFIG_KERNEL_LZ4, `make prepare`d, given the image's version strings
# (include/generated/compile.h, utsversion.h: the setup header's
# kernel_version and KASLR's entropy string come out the same) and that
# vmlinux, and arch/x86/boot is built around it (boot.mk, nm-vmlinux.sh,
# relocs.sh). OUT is written only when its payload decompresses to the
# original's byte for byte and its kernel_version string is the original's.
# ~25 s here (2 cores), plus the source's extraction the first time. One
# rebuild per OUT at a time (OUT.lock): an OUT already written is kept.
#
# Exit: 0 OUT written; 3 nothing to gain (the payload is already LZ4, gzip,
# LZO or zstd: fast to decompress; Debian's 6.12 images are zstd) or the image is not one this can rebuild (no
# ELF payload, not x86-64); 1 anything else failed (the message says what,
# the make log is kept beside OUT as OUT.log); 2 usage.
# Environment: HTAB_KBUILD (the work tree's parent, default vm-images/build),
# HTAB_NICE (default 10).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: lz4-bzimage.sh LINE BZIMAGE CONFIG OUT" >&2; exit 2; }
line=$1 img=$2 config=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
vm=$(dirname "$here")
msg() { echo "lz4-bzimage: $*" >&2; }
die() { msg "$1"; exit "${2:-1}"; }
[ -r "$img" ] || die "cannot read $img" 2
[ -r "$config" ] || die "cannot read $config" 2
grep -q '^CONFIG_X86_64=y' "$config" || die "$config: not an x86-64 kernel's config" 3
srcinfo=$("$vm/kernel-source.sh" info "$line") || exit $?
eval "$srcinfo"

build=${HTAB_KBUILD:-$vm/build}
mkdir -p "$build" "$(dirname "$out")"
# One rebuild per OUT at a time: a second caller (a parallel run) waits and
# finds it written.
exec 9> "$out.lock"
flock 9
if [ -s "$out" ]; then
	msg "$out: written meanwhile"
	exit 0
fi
work=$(mktemp -d "$build/lz4-bzimage.XXXXXX")
trap 'rm -rf "$work"' EXIT
log=$out.log

# --- the kernel as it is --------------------------------------------------------
comp=$("$vm/bzimage-payload.sh" "$img" "$work/payload") || die "$img: no payload to extract"
case $comp in
lz4|gzip|lzo|zstd) die "$img: its payload is $comp: fast to decompress already, nothing to gain" 3 ;;
esac
[ "$(head -c 5 "$work/payload" | od -An -t x1 | tr -d ' ')" = 7f454c4602 ] ||
	die "$img: its payload is no 64-bit ELF" 3
# The ELF ends with its section headers; the relocations follow.
eval "$(readelf -hW "$work/payload" | awk -F: '
	/Start of section headers/ { split($2, a, " "); print "shoff=" a[1] }
	/Size of section headers/ { split($2, a, " "); print "shentsize=" a[1] }
	/Number of section headers/ { split($2, a, " "); print "shnum=" a[1] }')"
elf_end=$((shoff + shnum * shentsize))
total=$(stat -c %s "$work/payload")
[ "$elf_end" -le "$total" ] || die "$img: its payload's section headers end past it ($elf_end > $total)"
head -c "$elf_end" "$work/payload" > "$work/vmlinux"
tail -c +$((elf_end + 1)) "$work/payload" > "$work/relocs"
# The setup header's kernel_version: "RELEASE (BY@HOST) UTS_VERSION".
kv=$("$vm/bzimage-version.sh" "$img") || die "$img: no kernel_version string"
release=${kv%% *} rest=${kv#* (}
byhost=${rest%%) *} utsversion=${rest#*) }
[ -n "$release" ] && [ "$byhost" != "$rest" ] && [ "$utsversion" != "$rest" ] ||
	die "$img: cannot read its kernel_version string ('$kv')"
# linux_banner: "Linux version RELEASE (BY@HOST) (COMPILER) UTS_VERSION".
banner=$(strings -n 20 "$work/vmlinux" | grep -F "Linux version $release ($byhost) (" |
	grep -m 1 -F ") $utsversion") || die "$img: no linux_banner for '$kv' in its vmlinux"
compiler=${banner#"Linux version $release ($byhost) ("}
compiler=${compiler%") $utsversion"}

# --- the boot code, rebuilt with LZ4 ----------------------------------------------
"$vm/kernel-source.sh" extract "$line" > /dev/null || die "extracting $SRC_TAR failed"
tree=$work/tree
cp -al "$SRC_DIR" "$tree"
rm -f "$tree/.htab-extracted"
sed -E '/^(# )?CONFIG_KERNEL_(GZIP|BZIP2|LZMA|XZ|LZO|LZ4|ZSTD)[= ]/d' "$config" > "$tree/.config"
echo CONFIG_KERNEL_LZ4=y >> "$tree/.config"
kmake() { nice -n "${HTAB_NICE:-10}" make -C "$tree" -j "$(nproc)" KERNELRELEASE="$release" "$@"; }
msg "$img ($comp): rebuilding its boot code with LZ4 from $SRC_PKG $SRC_VER (log: $log)"
{
	kmake olddefconfig && kmake prepare
} > "$log" 2>&1 || die "make prepare in $tree failed (see $log)"
grep -q '^CONFIG_KERNEL_LZ4=y' "$tree/.config" || die "$SRC_PKG $SRC_VER: CONFIG_KERNEL_LZ4 did not stick"
printf '#define UTS_VERSION "%s"\n' "$utsversion" > "$tree/include/generated/utsversion.h"
printf '#define UTS_MACHINE\t\t"x86_64"\n#define LINUX_COMPILE_BY\t"%s"\n#define LINUX_COMPILE_HOST\t"%s"\n#define LINUX_COMPILER\t\t"%s"\n' \
	"${byhost%@*}" "${byhost#*@}" "$compiler" > "$tree/include/generated/compile.h"
cp "$work/vmlinux" "$tree/vmlinux"
# 6.12 takes the relocations from here (its vmlinux's post-link step wrote
# them); 6.1 runs CMD_RELOCS on vmlinux.
cp "$work/relocs" "$tree/arch/x86/boot/compressed/vmlinux.relocs"
# --no-print-directory: 6.12 re-runs make without boot.mk otherwise.
HTAB_RELOCS=$work/relocs kmake --no-print-directory -f Makefile -f "$here/boot.mk" NM="$here/nm-vmlinux.sh" \
	CMD_RELOCS="$here/relocs.sh" htab-bzimage >> "$log" 2>&1 ||
	die "building arch/x86/boot in $tree failed (see $log)"

# --- the same kernel, or nothing -----------------------------------------------------
new=$tree/arch/x86/boot/bzImage
[ "$("$vm/bzimage-payload.sh" "$new" "$work/check")" = lz4 ] || die "$new: its payload is not LZ4"
cmp -s "$work/check" "$work/payload" || die "$new: its payload differs from $img's"
kv2=$("$vm/bzimage-version.sh" "$new") || die "$new: no kernel_version string"
[ "$kv2" = "$kv" ] || die "$new: kernel_version '$kv2', not '$kv'"
cp "$new" "$out.tmp.$$"
mv "$out.tmp.$$" "$out"
rm -f "$log"
msg "$out: $(stat -c %s "$out") bytes, the kernel of $img"
