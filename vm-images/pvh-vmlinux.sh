#!/bin/bash
# The uncompressed vmlinux inside a bzImage, for a PVH boot under TCG
# (QEMU -kernel ELF enters at the kernel's XEN_ELFNOTE_PHYS32_ENTRY): the
# kernel then skips decompressing itself under emulation (~3 s of each boot
# at 16 vCPUs here, bench/RESULTS.md "Boot under TCG").
# Usage: pvh-vmlinux.sh BZIMAGE OUT
# The payload is where the boot protocol's setup header says ((setup_sects +
# 1) * 512 + payload_offset, payload_length bytes), compressed with xz, zstd,
# gzip, bzip2, lzma, lzo or lz4 (by its magic). Exit: 0 OUT written (an ELF
# with the PVH entry note), 3 the kernel has no PVH entry (CONFIG_PVH unset)
# or the payload is no ELF, 1 anything else failed (the message says what).
set -euo pipefail
img=${1:?usage: pvh-vmlinux.sh BZIMAGE OUT} out=${2:?usage: pvh-vmlinux.sh BZIMAGE OUT}
die() { echo "pvh-vmlinux: $1" >&2; exit "${2:-1}"; }
u32() { od -An -t u4 -j "$1" -N 4 "$img" | tr -d ' '; }
[ -r "$img" ] || die "cannot read $img"
[ "$(od -An -c -j 514 -N 4 "$img" | tr -d ' ')" = HdrS ] || die "$img is not a bzImage (no HdrS header)"
ss=$(od -An -t u1 -j 497 -N 1 "$img" | tr -d ' ')
[ "$ss" -ne 0 ] || ss=4
off=$(( (ss + 1) * 512 + $(u32 584) ))
len=$(u32 588)
size=$(stat -c %s "$img")
[ $((off + len)) -le "$size" ] && [ "$len" -gt 0 ] ||
	die "$img: truncated (its payload would end at byte $((off + len)), the file has $size)"
magic=$(od -An -t x1 -j "$off" -N 6 "$img" | tr -d ' ')
case $magic in
fd377a585a00*) dec="xz -dc" ;;
28b52ffd*) dec="zstd -dc" ;;
1f8b*) dec="gzip -dc" ;;
425a68*) dec="bzip2 -dc" ;;
5d0000*) dec="xz -dc --format=lzma" ;;
894c5a*) dec="lzop -dc" ;;
02214c18*) dec="lz4 -dc" ;;
*) die "$img: unknown payload compression (magic $magic)" ;;
esac
tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
# The payload may carry trailing bytes: a decompressor's complaint after a whole stream is fine.
tail -c +$((off + 1)) "$img" | head -c "$len" | $dec > "$tmp" 2>/dev/null || [ -s "$tmp" ] ||
	die "$img: decompressing its payload ($dec) failed"
[ "$(head -c 4 "$tmp" | od -An -t x1 | tr -d ' ')" = 7f454c46 ] || die "$img: its payload is no ELF" 3
# XEN_ELFNOTE_PHYS32_ENTRY (18): the PVH entry point.
readelf -n "$tmp" 2>/dev/null | grep -qE '^ +Xen +0x[0-9a-f]+[[:space:]].*\(0x00000012\)' ||
	die "$img: no PVH entry note (kernel built without CONFIG_PVH)" 3
mv "$tmp" "$out"
