#!/bin/sh
# kmod/'s module built against a kernel tree or headers: a copy of kmod/'s
# sources built with make -C KDIR M=DIR.tmp, then renamed to DIR, so a half
# build is never used; under DIR.lock (flock), so two builds at once do not
# share DIR.tmp: the second waits, then finds the first's module. Kept
# while no kmod/ source is newer than DIR/htab_torture.ko.
# Usage: build-kmod.sh DIR KDIR   (the module: DIR/htab_torture.ko; the
# make log: DIR.tmp/build.log on a failure, whose tail goes to stderr)
# Callers: `run` (harness/run/plan/kernels.c) and `bisect --kernel-tree`.
[ $# -eq 2 ] || { echo "usage: build-kmod.sh DIR KDIR" >&2; exit 2; }
d=$1 k=$2
s=$(cd "$(dirname "$0")/../kmod" && pwd) || exit 1
mkdir -p "$(dirname "$d")" && exec 9> "$d.lock" && flock 9 || exit 1
if [ -f "$d/htab_torture.ko" ] && [ -z "$(find "$s" -maxdepth 1 \( -name '*.[ch]' -o -name Kbuild \) ! -name '*.mod.c' -newer "$d/htab_torture.ko")" ]; then
	exit 0
fi
echo "building $d/htab_torture.ko against $k" >&2
rm -rf "$d.tmp" && mkdir -p "$d.tmp" || exit 1
for f in "$s"/*.c "$s"/*.h "$s"/Kbuild; do
	case $f in *.mod.c) ;; *) cp "$f" "$d.tmp/" || exit 1 ;; esac
done
if make -C "$k" M="$d.tmp" modules > "$d.tmp/build.log" 2>&1; then
	rm -rf "$d" && mv "$d.tmp" "$d"
else
	tail -n 20 "$d.tmp/build.log" >&2
	exit 1
fi
