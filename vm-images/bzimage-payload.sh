#!/bin/bash
# The kernel a bzImage carries, decompressed: what its decompressor would
# place in memory (vmlinux.bin, an ELF, followed by the relocations KASLR
# applies when the kernel has CONFIG_X86_NEED_RELOCS).
# Usage: bzimage-payload.sh BZIMAGE OUT
# The payload is where the boot protocol's setup header says ((setup_sects +
# 1) * 512 + payload_offset, payload_length bytes), compressed with xz, zstd,
# gzip, bzip2, lzma, lzo or lz4 (by its magic); its last 4 bytes are the
# decompressed size (Kbuild's size_append; gzip's own trailer), checked.
# Prints the compression's name (xz, zstd, gzip, bzip2, lzma, lzo, lz4).
# Exit: 0 OUT written, 1 anything failed (the message says what).
set -euo pipefail
img=${1:?usage: bzimage-payload.sh BZIMAGE OUT} out=${2:?usage: bzimage-payload.sh BZIMAGE OUT}
die() { echo "bzimage-payload: $1" >&2; exit 1; }
u32() { od -An -t u4 -j "$1" -N 4 "$img" | tr -d ' '; }
[ -r "$img" ] || die "cannot read $img"
[ "$(od -An -c -j 514 -N 4 "$img" | tr -d ' ')" = HdrS ] || die "$img is not a bzImage (no HdrS header)"
ss=$(od -An -t u1 -j 497 -N 1 "$img" | tr -d ' ')
[ "$ss" -ne 0 ] || ss=4
off=$(( (ss + 1) * 512 + $(u32 584) ))
len=$(u32 588)
size=$(stat -c %s "$img")
[ $((off + len)) -le "$size" ] && [ "$len" -gt 4 ] ||
	die "$img: truncated (its payload would end at byte $((off + len)), the file has $size)"
magic=$(od -An -t x1 -j "$off" -N 6 "$img" | tr -d ' ')
case $magic in
fd377a585a00*) name=xz dec="xz -dc" ;;
28b52ffd*) name=zstd dec="zstd -dc" ;;
1f8b*) name=gzip dec="gzip -dc" ;;
425a68*) name=bzip2 dec="bzip2 -dc" ;;
5d0000*) name=lzma dec="xz -dc --format=lzma" ;;
894c5a*) name=lzo dec="lzop -dc" ;;
02214c18*) name=lz4 dec="lz4 -dc" ;;
*) die "$img: unknown payload compression (magic $magic)" ;;
esac
want=$(u32 $((off + len - 4)))
tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
# The size after the stream is trailing input to a decompressor: its complaint is fine.
tail -c +$((off + 1)) "$img" | head -c "$len" | $dec > "$tmp" 2>/dev/null || [ -s "$tmp" ] ||
	die "$img: decompressing its payload ($dec) failed"
got=$(stat -c %s "$tmp")
[ "$got" = "$want" ] || die "$img: its payload decompressed to $got bytes, its trailer says $want"
mv "$tmp" "$out"
echo "$name"
