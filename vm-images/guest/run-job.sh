#!/bin/sh
# The job runner, run by the guest's init chrooted into the host root.
# Why a separate script: init only knows how to reach the host; everything a
# cell does (noise, bpftrace, insmod, waiting, copying results) is here, in
# the order DESIGN.md gives, reading the parameters from the cell's job.env.
# Exit status: 0 the module reported SUCCESS, 1 it reported FAILURE,
# 2 setup error (wrong kernel, insmod refused, bpftrace did not attach),
# 4 the module did not finish in RUN_TIMEOUT.
cell=${1:?usage: run-job.sh CELL_DIR}
DBG=/sys/kernel/debug/htab_torture
ATTACH_TIMEOUT=60
RUN_TIMEOUT=600
BPFTRACE=
NOISE_CMD=
TEST_ACTION=
JOB_SCRIPT=
# TARGET=host: run by `htab-torture run --target host` on the machine itself,
# not in a guest; the log then goes to CONSOLE (a file in the cell), and
# dmesg.txt holds only what the kernel logged during the job.
TARGET=vm
CONSOLE=/dev/console
. "$cell/job.env" || exit 2

up() { cut -d' ' -f1 /proc/uptime; }
log() { echo "[$(up)] $*" | tee -a "$cell/guest.log" >> "$CONSOLE"; }
phase() { echo "$1=$(up)" >> "$cell/phases.env"; }

# Observers are stopped on every exit path: bpftrace prints its maps only
# when it is interrupted, and noise must not outlive the measurement.
stop_observers() {
	for p in $bt_pids; do kill -INT "$p" 2>/dev/null; done
	for p in $bt_pids; do wait "$p"; done
	bt_pids=
	if [ -n "$noise_pid" ]; then
		kill -INT "$noise_pid" 2>/dev/null
		wait "$noise_pid"
		noise_pid=
	fi
}

finish() {
	stop_observers
	if [ "$TARGET" = host ]; then
		dmesg 2>/dev/null | tail -n +$((dmesg_lines0 + 1)) > "$cell/dmesg.txt"
	else
		dmesg > "$cell/dmesg.txt" 2>/dev/null
	fi
	sync
	log "runner: exit $1"
	exit "$1"
}

bt_pids=
noise_pid=
dmesg_lines0=0
[ "$TARGET" = host ] && dmesg_lines0=$(dmesg 2>/dev/null | wc -l)
phase T_BOOT_DONE
log "runner: kernel $(uname -r), $(nproc) CPUs, job $cell"
if [ "$(uname -r)" != "$KERNEL_RELEASE" ]; then
	log "runner: module built for $KERNEL_RELEASE, guest runs $(uname -r)"
	finish 2
fi

# Test-only actions, to prove the harness classifies broken guests.
case "$TEST_ACTION" in
panic) echo 1 > /proc/sys/kernel/sysrq; echo c > /proc/sysrq-trigger ;;
hang) log "runner: hanging on purpose"; while :; do sleep 3600; done ;;
warn) echo "WARNING: CPU: 0 PID: 1 at test/htab_torture.c:1 test_warning+0x0/0x10" > /dev/kmsg ;;
esac

# A custom job (tests, or a user's own sequence) replaces the standard
# insmod-wait-rmmod sequence; it is sourced so it can use log, phase, $cell,
# and its exit status is the job's. Observers still run around it.
run_custom_job() {
	log "runner: custom job $JOB_SCRIPT"
	( . "$JOB_SCRIPT" )
	finish $?
}

if [ -n "$NOISE_CMD" ]; then
	log "runner: noise: $NOISE_CMD"
	# In the cell directory: stress-ng writes its YAML metrics there.
	(cd "$cell" && exec sh -c "exec $NOISE_CMD") > "$cell/noise.log" 2>&1 &
	noise_pid=$!
fi

if [ -n "$BPFTRACE" ]; then
	mkdir -p "$cell/bpftrace"
	for bt in $BPFTRACE; do
		name=$(basename "$bt" .bt)
		# A reused cell dir must not hold an old "attached" line.
		rm -f "$cell/bpftrace/$name.ndjson"
		bpftrace -f json -o "$cell/bpftrace/$name.ndjson" "$bt" \
			2> "$cell/bpftrace/$name.stderr" &
		bt_pids="$bt_pids $!"
	done
	# Stress must not start before every probe is live, or the first
	# seconds of the run are missing from the histogram.
	for bt in $BPFTRACE; do
		name=$(basename "$bt" .bt)
		t=0
		until grep -q attached_probes "$cell/bpftrace/$name.ndjson" 2>/dev/null; do
			sleep 0.5
			t=$((t + 1))
			if [ $t -ge $((ATTACH_TIMEOUT * 2)) ]; then
				log "runner: bpftrace $name did not attach in ${ATTACH_TIMEOUT}s"
				cat "$cell/bpftrace/$name.stderr" >> "$CONSOLE"
				finish 2
			fi
		done
	done
	log "runner: bpftrace attached"
fi
phase T_ATTACHED

# run_module OUT_JSON PARAMS...: one insmod-wait-copy-rmmod cycle.
# Returns 0 when the module reported SUCCESS, 1 FAILURE, 2 insmod refused,
# 4 not done in RUN_TIMEOUT. Custom jobs call it too.
run_module() {
	out=$1; shift
	log "runner: insmod $MODULE $*"
	if ! insmod "$MODULE" "$@" 2> "$cell/insmod.err"; then
		log "runner: insmod refused: $(cat "$cell/insmod.err")"
		return 2
	fi
	t=0
	until [ "$(cat $DBG/status 2>/dev/null)" = done ]; do
		sleep 0.2
		t=$((t + 1))
		if [ $t -ge $((RUN_TIMEOUT * 5)) ]; then
			log "runner: module not done after ${RUN_TIMEOUT}s"
			cat $DBG/results > "$out.partial" 2>/dev/null
			rmmod htab_torture
			return 4
		fi
	done
	cat $DBG/results > "$out.tmp" && mv "$out.tmp" "$out"
	rmmod htab_torture || log "runner: rmmod failed"
	grep -q '"result": *"SUCCESS"' "$out" && return 0
	return 1
}

[ -n "$JOB_SCRIPT" ] && run_custom_job

phase T_STRESS_START
run_module "$cell/module.json" $MODPARAMS
rc=$?
phase T_STRESS_END
stop_observers
phase T_COPY_DONE
finish $rc
