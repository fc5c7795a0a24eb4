#!/bin/bash
# vm-images/lz4-bzimage/lz4-bzimage.sh: Debian's 6.1 bzImage (XZ) comes out
# as a bzImage whose payload is LZ4 and decompresses to the original's byte
# for byte, with the same kernel_version string and boot protocol; an image
# that is LZ4 already exits 3; bad input (no bzImage, no config, an unknown
# line) exits 1 or 2 with a message naming it, leaving no output.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir lz4_bzimage)
s=$ROOT/vm-images/lz4-bzimage/lz4-bzimage.sh
p=$ROOT/vm-images/bzimage-payload.sh
eval "$("$ROOT/vm-images/kernel-lines.sh" resolve distro)"
[ -f "$IMAGE" ] || fail "no image for the default distro kernel (make deps)"
config=$(dirname "$IMAGE")/config-$RELEASE
[ -f "$config" ] || fail "no $config beside $IMAGE"
expect_eq "the distro image's payload" "$("$p" "$IMAGE" "$d/orig")" xz
"$s" "$LINE" "$IMAGE" "$config" "$d/lz4.bzImage" 2> "$d/err" ||
	fail "lz4-bzimage.sh $LINE $IMAGE: exit $?: $(tail -n 3 "$d/err")"
expect_eq "the new image's payload" "$("$p" "$d/lz4.bzImage" "$d/new")" lz4
cmp -s "$d/orig" "$d/new" || fail "the LZ4 payload differs from the XZ one"
echo "ok: the LZ4 payload is the XZ one's $(stat -c %s "$d/orig") bytes"
kv() { "$ROOT/vm-images/bzimage-version.sh" "$1"; }
expect_eq "kernel_version" "$(kv "$d/lz4.bzImage")" "$(kv "$IMAGE")"
expect_eq "boot protocol" "$(od -An -t x2 -j 518 -N 2 "$d/lz4.bzImage")" "$(od -An -t x2 -j 518 -N 2 "$IMAGE")"
[ ! -e "$d/lz4.bzImage.log" ] || fail "the make log was left after a success"
kb=${HTAB_KBUILD:-$ROOT/vm-images/build}
! compgen -G "$kb/lz4-bzimage.*" > /dev/null || fail "a work tree was left: $(ls -d "$kb"/lz4-bzimage.*)"

# Already LZ4: 3, nothing built.
"$s" "$LINE" "$d/lz4.bzImage" "$config" "$d/again" 2> "$d/err"; expect_eq "LZ4 already: exit" "$?" 3
grep -q 'is lz4: fast to decompress already' "$d/err" || fail "LZ4 already: $(cat "$d/err")"
# Bad input.
echo "not a kernel" > "$d/text"
"$s" "$LINE" "$d/text" "$config" "$d/x" 2> "$d/err"; expect_eq "not a bzImage: exit" "$?" 1
grep -q "$d/text is not a bzImage" "$d/err" || fail "not a bzImage: $(cat "$d/err")"
"$s" "$LINE" "$IMAGE" "$d/nosuch" "$d/x" 2> "$d/err"; expect_eq "no config: exit" "$?" 2
grep -q "cannot read $d/nosuch" "$d/err" || fail "no config: $(cat "$d/err")"
"$s" 9.9 "$IMAGE" "$config" "$d/x" 2> "$d/err"; expect_eq "unknown line: exit" "$?" 2
grep -q "unknown line '9.9' (valid: 6.1 " "$d/err" || fail "unknown line: $(cat "$d/err")"
[ ! -e "$d/x" ] || fail "an output was left after a failure"
echo "ok: bad input named, nothing written"
