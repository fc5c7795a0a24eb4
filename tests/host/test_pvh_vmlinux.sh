#!/bin/bash
# vm-images/pvh-vmlinux.sh: the distro bzImage's payload is an ELF vmlinux
# with the PVH entry note (Debian has CONFIG_PVH); a kernel without it exits
# 3, something that is no bzImage exits 1, each with a message.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir pvh_vmlinux)
s=$ROOT/vm-images/pvh-vmlinux.sh
# The default distro kernel's image, wherever make deps put it.
img=$("$ROOT/vm-images/kernel-lines.sh" resolve distro | sed 's/.* IMAGE=\([^ ]*\) .*/\1/')
[ -f "$img" ] || fail "no image for the default distro kernel (make deps)"
"$s" "$img" "$d/vmlinux" || fail "pvh-vmlinux.sh $img: exit $?"
expect_eq "ELF magic" "$(head -c 4 "$d/vmlinux" | od -An -t x1 | tr -d ' ')" 7f454c46
readelf -n "$d/vmlinux" | grep -q '(0x00000012)' || fail "no XEN_ELFNOTE_PHYS32_ENTRY in $d/vmlinux"
echo "ok: $(stat -c %s "$d/vmlinux") bytes with the PVH entry note"
# A bzImage whose payload is no ELF: 3; not a bzImage at all: 1.
head -c 1024 "$img" > "$d/short"
"$s" "$d/short" "$d/x" 2> "$d/err"; rc=$?
[ "$rc" = 1 ] || [ "$rc" = 3 ] || fail "truncated bzImage: exit $rc"
grep -q '^pvh-vmlinux: ' "$d/err" || fail "truncated bzImage: no message"
echo "ok: truncated bzImage: exit $rc: $(cat "$d/err")"
echo "not a kernel" > "$d/text"
"$s" "$d/text" "$d/x" 2> "$d/err"; expect_eq "not a bzImage: exit" "$?" 1
grep -q 'is not a bzImage' "$d/err" || fail "not a bzImage: $(cat "$d/err")"
[ ! -e "$d/x" ] || fail "an output was left after a failure"
# A source-built variant (CONFIG_PVH unset) exits 3, when one is built here.
v=$(ls "$ROOT"/vm-images/build/*/bzImage 2>/dev/null | head -n 1)
if [ -n "$v" ] && ! grep -q '^CONFIG_PVH=y' "$(dirname "$v")/.config"; then
	"$s" "$v" "$d/x" 2> "$d/err"; expect_eq "variant without CONFIG_PVH: exit" "$?" 3
	grep -q 'no PVH entry note' "$d/err" || fail "variant: $(cat "$d/err")"
fi
