#!/bin/sh
# One step of `htab-torture bisect --kernel-tree DIR --range GOOD..BAD`
# (harness/bisect/git_range.c): check commit SHA out in the bisect's own
# clone TREE (never the user's checkout), build it incrementally with the
# user's .config, build the kit's module against it (vm-images/build-kmod.sh)
# and keep what the step's rounds boot in STEP_DIR: bzImage, System.map,
# config, kernel.release, kmod/htab_torture.ko and, where a hard link can
# be made, vmlinux. Under TREE.lock: a killed bisect's make may still run.
#
# Usage: build-git-step.sh TREE SHA JOBS STEP_DIR
# Exit: 0 built, else the failing command's (the log says which).
set -ex
[ $# -eq 4 ] || { echo "usage: build-git-step.sh TREE SHA JOBS STEP_DIR" >&2; exit 2; }
t=$1 sha=$2 jobs=$3 s=$4
kmod=$(cd "$(dirname "$0")" && pwd)/build-kmod.sh
exec 9> "$t.lock"
flock 9
cd "$t"
# the previous step's vmlinux is hard-linked into its step directory
rm -f vmlinux
git checkout -q -f --detach "$sha"
make olddefconfig
make -j"$jobs" bzImage modules
"$kmod" "$s/kmod" "$t"
cp arch/x86/boot/bzImage "$s/bzImage"
cp System.map "$s/System.map"
cp .config "$s/config"
cp include/config/kernel.release "$s/kernel.release"
ln -f vmlinux "$s/vmlinux" || echo 'vmlinux not kept (no hard link)'
