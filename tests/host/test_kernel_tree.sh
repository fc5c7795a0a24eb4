#!/bin/bash
# --kernel-tree DIR refuses, before any boot and in one error, a tree that
# is not built (each missing file named with why) and a tree whose .config
# lacks what this run needs (each option with what it has and why, from
# vm-images/tree-config.req: built-in 9p, kretprobes for exhaust, NR_CPUS
# for the largest --cpus); exit 2. check-config.sh alone passes a config
# that has it all and names its own bad options.
. "$(dirname "$0")/../lib.sh"
cc=$ROOT/vm-images/check-config.sh
t=$(fresh_dir kernel_tree)
mkdir -p "$t/half" "$t/bad/arch/x86/boot" "$t/bad/include/config"
cat > "$t/bad/.config" <<'CFG'
CONFIG_BPF_SYSCALL=y
CONFIG_MODULES=y
CONFIG_MODULE_UNLOAD=y
CONFIG_DEBUG_FS=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_RD_GZIP=y
CONFIG_BINFMT_SCRIPT=y
CONFIG_DEVTMPFS=y
CONFIG_TMPFS=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_CONSOLE=y
CONFIG_NET_9P_VIRTIO=m
CONFIG_KPROBES=y
# CONFIG_KRETPROBES is not set
CONFIG_PERF_EVENTS=y
CONFIG_BPF_EVENTS=y
CONFIG_NR_CPUS=64
CFG
for f in arch/x86/boot/bzImage Module.symvers vmlinux; do : > "$t/bad/$f"; done
echo 6.12.117 > "$t/bad/include/config/kernel.release"

err=$("$HT" run --kernel-tree "$t/half" --cpus 2 --out "$t/run1" 2>&1); rc=$?
expect_eq "unbuilt tree exit" "$rc" 2
for f in arch/x86/boot/bzImage .config Module.symvers vmlinux include/config/kernel.release; do
	grep -qF "  no $f (" <<< "$err" || fail "unbuilt tree: $f not named: $err"
done
echo "ok: an unbuilt tree names its 5 missing files"

err=$("$HT" run --kernel-tree "$t/bad" --cpus 4,96 --fault none --fault exhaust --out "$t/run2" 2>&1); rc=$?
expect_eq "tree missing options exit" "$rc" 2
printf '%s\n' "$err"
for want in \
	"CONFIG_NET_9P_VIRTIO=y (has CONFIG_NET_9P_VIRTIO=m): " \
	"CONFIG_9P_FS=y (has CONFIG_9P_FS not set): " \
	"CONFIG_KRETPROBES=y (has CONFIG_KRETPROBES not set): the exhaust injector is a kretprobe" \
	"CONFIG_NR_CPUS>=96 (has CONFIG_NR_CPUS=64): "; do
	grep -qF "  $want" <<< "$err" || fail "missing option not named: $want"
done
[ "$(grep -c '^  CONFIG_' <<< "$err")" -eq 4 ] || fail "want exactly 4 gaps"
echo "ok: every gap named once, with what the tree has and why"
[ -z "$(ls "$t/run2" 2>/dev/null)" ] || [ ! -d "$t/run2/boots" ] || fail "a guest was started"

# The same tree passes a run that needs less: no fault, 4 vCPUs (9p still missing).
err=$("$cc" "$t/bad/.config" --cpus 4 2>&1); rc=$?
expect_eq "check-config without faults exit" "$rc" 2
expect_eq "gaps without faults" "$(grep -c '^  CONFIG_' <<< "$err")" 2
sed -i 's/^CONFIG_NET_9P_VIRTIO=m/CONFIG_NET_9P_VIRTIO=y/; $a CONFIG_9P_FS=y' "$t/bad/.config"
"$cc" "$t/bad/.config" --cpus 64 || fail "a complete config was refused"
echo "ok: a complete config passes"
usage_rc() { "$cc" "$@" 2> /dev/null; echo $?; }
expect_eq "check-config bad option" "$(usage_rc "$t/bad/.config" --bogus)" 2
expect_eq "check-config bad --cpus" "$(usage_rc "$t/bad/.config" --cpus x)" 2
usage_error "--kernel-tree '$t/none': not a directory" run --kernel-tree "$t/none" --out "$t/run3"
# A tree and --kernel in either order: both kernels, the tree named by the
# directory as given.
for order in "--kernel-tree $t/bad --kernel distro" "--kernel distro --kernel-tree $t/bad"; do
	# shellcheck disable=SC2086
	ks=$("$HT" run $order --cpus 2 --plan-only --json | jq -r '[.[].kernel] | join(",")')
	expect_eq "kernels of '$order'" "$ks" distro,tree-bad
done
ln -sfn bad "$t/mytree"
expect_eq "a symlink's own name" "$("$HT" run --kernel-tree "$t/mytree" --cpus 2 --plan-only)" v2-full_update-tree-mytree-none-r0
usage_error "its label tree-bad is a --kernel label too" run --kernel tree-bad --kernel-tree "$t/bad" --out "$t/run4"
