#!/bin/bash
# vm-images/mkinitramfs.sh run three times at once for one initramfs (as
# two VM tests restoring the same kernel build it): each succeeds and the
# file is a whole archive, with no temporary left. It wrote one fixed
# NAME.tmp before, and a second run's mv found it gone.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir initramfs_concurrent)
kver=$("$ROOT/vm-images/kernel-lines.sh" resolve distro | sed 's/.* RELEASE=\([^ ]*\) .*/\1/')
[ -n "$kver" ] || fail "no distro kernel (make deps)"
out=$d/initramfs.cpio.gz
pids=()
for i in 1 2 3; do
	"$ROOT/vm-images/mkinitramfs.sh" "$kver" "$out" > "$d/log$i" 2>&1 &
	pids+=($!)
done
for i in 1 2 3; do
	wait "${pids[$((i - 1))]}" || fail "run $i: exit $? ($(tail -n 2 "$d/log$i"))"
done
gzip -t "$out" || fail "$out is not a whole gzip file"
zcat "$out" | cpio -it --quiet 2> /dev/null | grep -qx init || fail "$out has no init"
expect_eq "files left beside it" "$(ls "$d" | grep -c '\.tmp')" 0
