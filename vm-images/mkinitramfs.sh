#!/bin/sh
# Builds the guest initramfs: busybox (static), our init, and the kernel
# modules the guest needs before it can reach the host over 9p
# (Debian builds virtio, 9p and virtio_console as modules).
# Usage: mkinitramfs.sh [--no-modules] KERNEL_RELEASE OUTPUT.cpio.gz
# --no-modules: for a kernel with virtio and 9p built in whose modules are
# not installed here (a --kernel-tree; check-config.sh made sure).
set -eu
nomod=0
[ "${1:-}" = --no-modules ] && { nomod=1; shift; }
kver=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
# Debian's kernels are in the kit's root or the host's (kernel-lines.sh
# root). Variant kernels (build-kernel.sh, release *-htab-*) have virtio
# and 9p built in and no modules: the initramfs then carries none.
modroot=/
if [ $nomod = 0 ] && ! modroot=$("$here/kernel-lines.sh" root "$kver" 2> /dev/null); then
	case "$kver" in
	*-htab-*) nomod=1 ;;
	*)
		echo "mkinitramfs: no kernel $kver with its modules (fetch it: make deps; vm-images/kernel-lines.sh root $kver says where it looked)" >&2
		exit 2 ;;
	esac
fi
# Load order matters: each module after the ones it depends on.
mods="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci
netfs fscache 9pnet 9pnet_virtio 9p virtio_console"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out.tmp.$$"' EXIT
mkdir -p "$tmp/bin" "$tmp/sbin" "$tmp/etc" "$tmp/proc" "$tmp/sys" "$tmp/dev" \
	"$tmp/lib/modules" "$tmp/host"
cp /bin/busybox "$tmp/bin/busybox"
for app in $("$tmp/bin/busybox" --list); do
	[ "$app" = busybox ] && continue
	ln -sf busybox "$tmp/bin/$app"
done
: > "$tmp/etc/modules.order"
[ $nomod = 1 ] && mods=
for m in $mods; do
	# A module may be built in (variant kernels): then there is nothing to load.
	f=$(modinfo -b "$modroot" -k "$kver" -n "$m" 2>/dev/null) || continue
	case "$f" in
	*.ko) cp "$f" "$tmp/lib/modules/$m.ko" ;;
	*.ko.xz) xz -dc "$f" > "$tmp/lib/modules/$m.ko" ;;
	*.ko.zst) zstd -dc "$f" > "$tmp/lib/modules/$m.ko" ;;
	*) continue ;;
	esac
	echo "$m" >> "$tmp/etc/modules.order"
done
# htab-reseed: fresh random state for a guest restored from a snapshot
# (guest/reseed.c). Static, like busybox: nothing else is there before 9p.
${CC:-gcc} -static -Os -Wall -Werror -o "$tmp/bin/htab-reseed" "$here/guest/reseed.c"
# htab-tasks: the module's task callers (callers=...+task; guest/tasks.c),
# started by the runner. Static, so the copy init leaves in /run/bin runs
# in the host root the runner is chrooted in, whatever libc is there.
${CC:-gcc} -static -Os -Wall -Werror -o "$tmp/bin/htab-tasks" "$here/guest/tasks.c"
cp "$here/guest/init" "$tmp/init"
chmod 755 "$tmp/init"
mkdir -p "$(dirname "$out")"
# A temporary name of this process's own: two runs building the same
# initramfs at once (run-tests.sh's two VM lanes did) each rename a whole
# file, and the last rename wins.
(cd "$tmp" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out.tmp.$$"
mv "$out.tmp.$$" "$out"
echo "mkinitramfs: $out ($(wc -c < "$out") bytes, modules: $(tr '\n' ' ' < "$tmp/etc/modules.order"))"
