#!/bin/sh
# The group runner: one boot runs several cells of one (kernel, vCPUs),
# one after another (htab-torture run without --boot-per-cell). Run by the
# guest's init chrooted into the host root, with the run directory mounted
# at OUT. Why: under TCG the boot is most of a cell's wall time; cells that
# would boot the same guest share one.
#
# The host drives it through files in OUT/boots/BOOT/: it writes cmd.N (N =
# 1, 2, ...) holding the id of the N-th cell to run, whose job.env it has
# already written; it ends the boot by stopping QEMU once the last cell's
# results are in (nothing after them is recorded). For each cell this script runs run-job.sh on
# OUT/ID (a fresh insmod; observers per cell, as in a boot of its own), then
# prints "htab-group: cell N done: ..." on the console (where the host cuts
# the shared console into per-cell parts) and writes "cell N STATUS STATE"
# on the htab.ret port. STATE ok: the guest is as the cell found it, the
# host may send the next one. Anything else ends this boot (a taint that
# appeared, the module still loaded, a stress-ng or bpftrace still running,
# a runner that did not exit 0): the next cell must not inherit a guest it
# may have broken.
# Exit status (init reports it as "end STATUS"): 0 a cell left the guest
# not ok, 3 no command in CMD_WAIT seconds (the host is gone).
out=${1:?usage: run-group.sh OUT BOOT}
boot=${2:?usage: run-group.sh OUT BOOT}
B=$out/boots/$boot
runner=$(dirname "$0")/run-job.sh
CMD_WAIT=900
# Taints a module load sets by itself: out-of-tree (O, 4096) and unsigned (E, 8192).
LOAD_TAINTS=12288

up() { cut -d' ' -f1 /proc/uptime; }
# HTAB_RET_PORT: the htab.ret port's device, found by init (ret_port).
say() { [ -z "$HTAB_RET_PORT" ] || echo "$1" > "$HTAB_RET_PORT"; }

# stray: the name of a process still running as stress-ng or bpftrace (the
# first found), else nothing. Builtins over /proc/*/comm: at 96 vCPUs (640
# processes, most of them per-CPU kthreads) one pgrep took 1.3-1.9 s under
# TCG and this loop 0.3-0.55 s, paid after every cell.
stray() {
	for p in /proc/[0-9]*; do
		c=
		read -r c 2>/dev/null < "$p/comm"
		case $c in stress-ng | bpftrace) echo "$c"; return ;; esac
	done
}

taint0=$(cat /proc/sys/kernel/tainted)
echo "htab-group: boot $boot ready at $(up)s (taint $taint0)" > /dev/console
i=1
while :; do
	t=0
	until [ -s "$B/cmd.$i" ]; do
		sleep 0.1
		t=$((t + 1))
		if [ $t -ge $((CMD_WAIT * 10)) ]; then
			echo "htab-group: no cmd.$i in $CMD_WAIT s: stopping" > /dev/console
			exit 3
		fi
	done
	id=$(cat "$B/cmd.$i")
	# Where this cell's part of the boot begins on the guest's clock
	# (cell.json timings are taken from here, not from the boot).
	echo "T_CELL_START=$(up)" >> "$out/$id/phases.env"
	HTAB_CELL_IN_BOOT=$i /bin/sh "$runner" "$out/$id"
	rc=$?
	state=ok
	new=$(( $(cat /proc/sys/kernel/tainted) & ~taint0 & ~LOAD_TAINTS ))
	[ "$new" -eq 0 ] || state=taint-$new
	# What the runner starts must end with it: a straggler would be the
	# next cell's noise (or observer).
	s=$(stray)
	[ -z "$s" ] || state=stray-$s
	grep -q '^htab_torture ' /proc/modules && state=module-loaded
	[ $rc -eq 0 ] || state=exit-$rc
	echo "htab-group: cell $i done: $id exit $rc, $state" > /dev/console
	say "cell $i $rc $state"
	[ "$state" = ok ] || exit 0
	i=$((i + 1))
done
