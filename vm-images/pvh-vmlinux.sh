#!/bin/bash
# The uncompressed vmlinux inside a bzImage, for a PVH boot under TCG
# (QEMU -kernel ELF enters at the kernel's XEN_ELFNOTE_PHYS32_ENTRY): the
# kernel then skips decompressing itself under emulation (~3 s of each boot
# at 16 vCPUs here, bench/RESULTS.md "Boot under TCG").
# Usage: pvh-vmlinux.sh BZIMAGE OUT
# The payload is extracted by bzimage-payload.sh. Exit: 0 OUT written (an
# ELF with the PVH entry note), 3 the kernel has no PVH entry (CONFIG_PVH
# unset) or the payload is no ELF, 1 anything else failed (the message says
# what).
set -euo pipefail
img=${1:?usage: pvh-vmlinux.sh BZIMAGE OUT} out=${2:?usage: pvh-vmlinux.sh BZIMAGE OUT}
die() { echo "pvh-vmlinux: $1" >&2; exit "${2:-1}"; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
"$here/bzimage-payload.sh" "$img" "$tmp" > /dev/null || die "$img: no payload to extract"
[ "$(head -c 4 "$tmp" | od -An -t x1 | tr -d ' ')" = 7f454c46 ] || die "$img: its payload is no ELF" 3
# XEN_ELFNOTE_PHYS32_ENTRY (18): the PVH entry point.
readelf -n "$tmp" 2>/dev/null | grep -qE '^ +Xen +0x[0-9a-f]+[[:space:]].*\(0x00000012\)' ||
	die "$img: no PVH entry note (kernel built without CONFIG_PVH)" 3
mv "$tmp" "$out"
