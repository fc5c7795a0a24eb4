# What a cell runs for each bpftrace script, sourced (POSIX sh) by the
# runner (run-job.sh) and by init where it starts observers before a
# snapshot is saved (htab.observe=, `htab-torture run --bpftrace-preattach`),
# so both decide alike. BT_ROOT: where the host root is seen ("" in the
# runner, which runs chrooted into it; /host in init). BPFTRACE_FORM: auto
# or kprobe (job.env).

# bt_form SCRIPT: the script to run for SCRIPT. Where the kernel has BTF and
# SCRIPT has a NAME_fentry.bt sibling, the fentry form runs: bench/observer
# measured it cheaper per hit (6.4 vs 7.7 us, fentry/kprobe throughput 1.17,
# CI 1.01..1.32) and it also sees pops inside BPF-program updates. Without
# BTF (the source-built variants) the kprobe form runs. BPFTRACE_FORM=kprobe
# in job.env forces the kprobe form. The form used is written to NAME.form.
# The harness writes BPFTRACE_FORM=kprobe for every cell of a run with a
# fault (it decides which cells have one): the injectors' probes were placed
# and validated against the kprobe form; beside a BPF trampoline on the same
# function the delay kprobe fired twice per pop and outside the fexit-timed
# region (measured: 222213 hits for 111104 updates, delay cell p50 5.9 us for
# a 10 us delay).
bt_form() {
	f=${1%.bt}_fentry.bt
	if [ "${BPFTRACE_FORM:-auto}" != kprobe ] && [ -e /sys/kernel/btf/vmlinux ] &&
		[ -e "${BT_ROOT:-}$f" ]; then
		echo "$f"
	else
		echo "$1"
	fi
}

# bt_workers RUN JOB_SCRIPT: "1" when RUN (a form bt_form chose) is to count
# only htab_torture.ko's workers (its argument 1), else nothing. With the
# module as the load, the kit's scripts count its workers only (comm
# htab_torture/N): the controller's fill and verdict pop 2 x capacity
# uncontended and would dilute the contended distribution. A custom job
# (JOB_SCRIPT) may drive the map otherwise (a BPF program): its observers
# see every caller. A user's own script gets no argument.
bt_workers() {
	[ -z "$2" ] && grep -q 'comm, "htab_torture/"' "${BT_ROOT:-}$1" && echo 1
	return 0
}
