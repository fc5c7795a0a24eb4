#!/bin/bash
# The module builds out of tree against the distro guest kernel's headers
# without warnings, and carries the parameters the harness passes.
. "$(dirname "$0")/../lib.sh"
kver=$(make -s -C "$ROOT" --no-print-directory -f Makefile print-kver)
b="$OUT/kmod_build"
rm -rf "$b"; mkdir -p "$b"
# Build a copy: the test must not disturb the tree's own build products.
cp -r "$ROOT"/kmod/. "$b"/
make -C "$b" clean > /dev/null 2>&1
make -C "/usr/src/linux-headers-$kver" M="$b" modules > "$b/build.log" 2>&1 ||
	{ cat "$b/build.log"; fail "module build failed"; }
if grep -E 'warning:' "$b/build.log"; then fail "module build has warnings"; fi
expect_eq "vermagic" "$(modinfo -F vermagic "$b/htab_torture.ko" | cut -d' ' -f1)" "$kver"
for p in workload max_entries duration_ms cpus; do
	modinfo -F parm "$b/htab_torture.ko" | grep -q "^$p:" || fail "no parameter $p"
	echo "ok: parameter $p"
done
