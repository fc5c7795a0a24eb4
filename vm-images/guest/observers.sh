# What a cell runs for each bpftrace script, sourced (POSIX sh) by the
# runner (run-job.sh) and by init where it starts observers before a
# snapshot is saved (htab.observe=, `htab-torture run --bpftrace-preattach`),
# so both decide alike and wait alike for one to go live. BT_ROOT: where
# the host root is seen ("" in the runner, which runs chrooted into it;
# /host in init). BPFTRACE_FORM: auto or kprobe (job.env).

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

# bt_live PID: true once bpftrace PID sleeps in its poll loop. bpftrace 0.17
# prints attached_probes BEFORE it has attached; its probes are live only
# when it reaches epoll_wait. Starting the stress earlier livelocked a vCPU
# on the int3 of the ftrace site being patched (TCG, soft lockup seen in
# bench/observer).
# (read, a shell builtin: the wait polls it every 0.1 s, and under TCG a
# fork+exec per poll would slow the start-up it waits for.)
bt_live() { w=; read -r w 2>/dev/null < "/proc/$1/wchan"; [ "$w" = do_epoll_wait ]; }

# running PID: the process exists and has not exited (a child that exited
# stays a zombie until waited for, and kill -0 succeeds on a zombie).
# (Builtins only, as bt_live: the attach wait asks every 0.1 s.)
running() {
	while read -r k v _; do
		[ "$k" = State: ] && { [ "$v" != Z ]; return; }
	done 2>/dev/null < "/proc/$1/status"
	return 1
}

# bt_live_within PID TENTHS OUT: true once bpftrace PID is asleep in its
# poll loop with attached_probes in OUT.ndjson, looking every 0.1 s; false
# when it exits first or TENTHS looks pass (w: the last wchan seen).
bt_live_within() {
	t=0
	until bt_live "$1" && grep -q attached_probes "$3.ndjson" 2>/dev/null; do
		[ $t -lt "$2" ] && running "$1" || return 1
		sleep 0.1
		t=$((t + 1))
	done
}
