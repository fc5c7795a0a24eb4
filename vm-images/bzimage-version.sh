#!/bin/bash
# A bzImage's kernel_version string, as the boot protocol's setup header
# points at it (the 16-bit offset at 0x20e, plus 0x200): "RELEASE
# (BY@HOST) UTS_VERSION", the same words the kernel's banner carries.
# Usage: bzimage-version.sh BZIMAGE
# Exit: 0 printed, 1 not a bzImage or no string there (the message says which).
set -euo pipefail
img=${1:?usage: bzimage-version.sh BZIMAGE}
die() { echo "bzimage-version: $1" >&2; exit 1; }
[ -r "$img" ] || die "cannot read $img"
[ "$(od -An -c -j 514 -N 4 "$img" | tr -d ' ')" = HdrS ] || die "$img is not a bzImage (no HdrS header)"
off=$(( $(od -An -t u2 -j 526 -N 2 "$img" | tr -d ' ') + 512 ))
kv=$(dd if="$img" bs=1 skip="$off" count=512 status=none | tr '\0' '\n' | head -n 1)
[ -n "$kv" ] || die "$img: no kernel_version string at byte $off"
echo "$kv"
