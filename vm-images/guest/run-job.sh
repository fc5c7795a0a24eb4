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
VCPUS=
BPFTRACE_FORM=auto
BPFTRACE_AOT=
BPFTRACE_AOT_TIMEOUT=60
# TARGET=host: run by `htab-torture run --target host` on the machine itself,
# not in a guest; the log then goes to CONSOLE (a file in the cell), and
# dmesg.txt holds only what the kernel logged during the job.
TARGET=vm
CONSOLE=/dev/console
. "$cell/job.env" || exit 2
# bt_form, bt_workers: shared with init's observers started before a save.
. "${0%/*}/observers.sh" || exit 2

# Every process costs tens of ms in a TCG guest with many vCPUs (a fork is
# a copy of the address space, an exec a page-in through 9p): the steps
# before and after the module's window use shell builtins where they can.
# now: the uptime into $now_s, without a process. up: the same, printed
# (for $(up) in custom jobs).
now() { read -r now_s _ < /proc/uptime; }
up() { now; echo "$now_s"; }
log() {
	now
	set -- "[$now_s] $*"
	echo "$1" >> "$cell/guest.log"
	echo "$1" >> "$CONSOLE"
}
phase() { now; echo "$1=$now_s" >> "$cell/phases.env"; }

# bt_signal PID: ask bpftrace PID to print its maps and exit: SIGINT, or
# for an AOT program (below) the start of AOT_STOP.
bt_signal() {
	if is_aot "$1"; then
		ln -sf /bin/true "/run/$AOT_STOP" && "/run/$AOT_STOP"
	else
		kill -INT "$1" 2>/dev/null
	fi
}

# bt_stop PID [OUT]: SIGINT bpftrace so it prints its maps, and make sure it goes.
# bpftrace 0.17 can lose a SIGINT (its loop leaves only when epoll_wait
# itself returns EINTR; seen 3 times in ~90 stops): resend every 5 s while
# it has printed nothing more; after 120 s save its stacks and kill it, so
# a cell never hangs on an observer (its histogram is then missing).
# Polled every 0.1 s: it exits within about a second, and every cell waits.
# OUT is what bpftrace writes to (default: its -o *.ndjson file).
bt_stop() {
	out=${2:-$(ls -l "/proc/$1/fd/" 2>/dev/null | sed -n 's/.* -> \(.*\.ndjson\)$/\1/p' | head -n 1)}
	sz0=$(wc -c < "$out" 2>/dev/null)
	bt_signal "$1"
	t=0
	while running "$1" && [ $t -lt 1200 ]; do
		sleep 0.1
		t=$((t + 1))
		if [ $((t % 50)) -eq 0 ] && [ "$(wc -c < "$out" 2>/dev/null)" = "$sz0" ]; then
			log "runner: bpftrace $1 still running $((t / 10)) s after SIGINT: SIGINT again"
			bt_signal "$1"
		fi
	done
	if running "$1"; then
		log "runner: bpftrace $1 did not exit on SIGINT in 120 s: killed"
		for task in /proc/$1/task/*; do
			echo "== $task $(cat "$task/comm") $(cat "$task/wchan")"
			cat "$task/stack"
		done > "$cell/bpftrace-hang-$1.txt" 2>&1
		kill -KILL "$1"
	fi
	wait "$1" 2>/dev/null	# (an adopted observer is init's child, not ours)
}

# bt_launch OUT SCRIPT [ARG...]: start bpftrace on SCRIPT (with its positional
# ARGs) writing OUT.ndjson (NDJSON) and OUT.stderr; sets bt_pid. bt_wait PID OUT SCRIPT: wait until it is live
# (attached_probes printed and asleep in its poll loop); 2 if it died or
# took longer than ATTACH_TIMEOUT. bt_start = both, for custom jobs.
bt_launch() {
	rm -f "$1.ndjson"	# a reused cell dir must not hold an old "attached" line
	o=$1 s=$2
	shift 2
	bpftrace -f json -o "$o.ndjson" "$s" "$@" 2> "$o.stderr" &
	bt_pid=$!
}
bt_wait() {
	bt_live_within "$1" $((ATTACH_TIMEOUT * 10)) "$2" && return 0
	log "runner: bpftrace $3 did not attach in ${ATTACH_TIMEOUT}s: $(cat "$2.stderr")"
	kill -KILL "$1" 2>/dev/null
	wait "$1"
	return 2
}
bt_start() { bt_launch "$1" "$2" && bt_wait "$bt_pid" "$1" "$2"; }

# Observers init started before the snapshot was saved (guest/init
# observe: htab.observe=, `htab-torture run --bpftrace-preattach on`),
# chrooted into their own tmpfs: OBS/index lists "SCRIPT FORM ARG PID" (ARG
# - for none), each writing OBS/NAME.ndjson and NAME.stderr. A cell adopts
# the one that runs the form and argument it would have started itself;
# obs_release stops the rest before the module loads (their probes would
# slow it) and empties the index, so only the first cell of a boot adopts.
OBS=/run/obs
# obs_adopt SCRIPT RUN ARG OUT: true with bt_pid set when a live one matches.
# Init saw it live before the save; it still is if it runs. bpftrace 0.17
# wakes from epoll_wait every 100 ms, so one look at its wchan can catch it
# awake (a CI run adopted nothing so): it gets up to 3 s.
obs_adopt() {
	[ -f "$OBS/index" ] || return 1
	while read -r s r a p; do
		[ "$s $r $a" = "$1 $2 ${3:--}" ] || continue
		b=${s##*/}
		if ! running "$p"; then
			log "runner: bpftrace $r saved live has exited: not adopted ($(head -c 300 "$OBS/${b%.bt}.stderr" 2>/dev/null))"
			continue
		elif ! bt_live_within "$p" 30 "$OBS/${b%.bt}"; then
			log "runner: bpftrace $r saved live is not asleep in epoll_wait with attached_probes printed after 3 s (wchan $w): not adopted"
			continue
		fi
		grep -vx "$s $r $a $p" "$OBS/index" > "$OBS/index.left"
		mv "$OBS/index.left" "$OBS/index"
		bt_pid=$p
		eval "obs_out_$p=\$4 obs_file_$p=\$OBS/\${b%.bt}"
		log "runner: bpftrace $r live since the save: adopted (pid $p)"
		return 0
	done < "$OBS/index"
	return 1
}
obs_file() { eval "obs_f=\${obs_file_$1:-}"; }	# into $obs_f
obs_release() {
	[ -f "$OBS/index" ] || return 0
	while read -r s r a p; do
		running "$p" || continue
		kill -KILL "$p" 2>/dev/null
		log "runner: bpftrace $r live since the save, not this cell's: stopped"
	done < "$OBS/index"
	rm -f "$OBS/index"
}

# Ahead-of-time programs (BPFTRACE_AOT: the host's cache directory, which
# the guest sees read-only at the same path; empty: off). bpftrace's own
# start-up (LLVM, BTF, feature probes, codegen) is most of a cell after a
# restore; bpftrace-aotrt loads a program `bpftrace --aot` compiled before
# and needs none of it. A cell without the program in the cache runs
# bpftrace as always and compiles the program after its measurement, into
# $cell/bpftrace/aot/KEY (or KEY.fail with why), which the host copies into
# the cache. The key: the program as compiled, /proc/version (release,
# build number and date tell source-built variants apart), and bpftrace's
# two binaries. Where bpftrace 0.17's runtime falls short, the script runs
# as always:
# - it crashes on kfunc/kretfunc probes (segfault after attached_probes),
#   so fentry forms are never compiled;
# - it has no positional parameters: a script using only $1, with a
#   number or nothing as its argument, is compiled with $1 replaced;
# - it ignores SIGINT and never prints its maps on a signal, so the
#   compiled program has one more probe that calls exit() (which prints
#   them) when a program named AOT_STOP starts; bt_stop starts one (true,
#   through a link of that name). Every AOT program of the guest exits on
#   it at once. (The probe reads no tracepoint arguments: without BTF,
#   as in the source-built kernels, bpftrace --aot cannot compile those.);
# - its -o crashes: its output goes to stdout, redirected.
# An AOT program that dies before it is live is marked KEY.fail and the
# script runs as always in that cell.
AOT_STOP=htab-aot-stop
TRACEFS=/sys/kernel/tracing
bt_aot_pids=

# bt_aot RUN [ARG]: true when RUN may run ahead of time; sets aot_key, and
# aot_bin to the cached program ("" if none yet). Writes the program as
# compiled to $out.aot.bt ($out: bt_launch's OUT, set by the caller).
bt_aot() {
	aot_bin= aot_key=
	[ -n "$BPFTRACE_AOT" ] && [ -d "$TRACEFS/events/sched/sched_process_exec" ] || return 1
	! grep -qE '(^|[[:space:],])(kfunc|kretfunc|fentry|fexit):' "$1" || return 1
	! grep -qE '\$([2-9]|#)' "$1" || return 1
	case ${2:-0} in '' | *[!0-9]*) return 1 ;; esac
	{
		sed "s/\\\$1\\([^0-9]\\|\$\\)/${2:-0}\\1/g" "$1"
		printf '\n// added by the kit: bpftrace-aotrt exits when %s starts\n' $AOT_STOP
		printf 'tracepoint:sched:sched_process_exec\n/comm == "%s"/\n{\n\texit();\n}\n' $AOT_STOP
	} > "$out.aot.bt" || return 1
	aot_key=$({ cat "$out.aot.bt" /proc/version
		ls -lL /usr/bin/bpftrace /usr/bin/bpftrace-aotrt; } 2>&1 | sha256sum | cut -c1-16)
	[ -e "$BPFTRACE_AOT/$aot_key.fail" ] && { aot_key=; return 1; }
	[ -s "$BPFTRACE_AOT/$aot_key" ] && aot_bin=$BPFTRACE_AOT/$aot_key
	return 0
}

# bt_launch_aot OUT PROGRAM: as bt_launch, for an AOT program.
bt_launch_aot() {
	rm -f "$1.ndjson"
	bpftrace-aotrt -f json "$2" > "$1.ndjson" 2> "$1.stderr" &
	bt_pid=$!
	bt_aot_pids="$bt_aot_pids $bt_pid"
}
is_aot() { case " $bt_aot_pids " in *" $1 "*) return 0 ;; esac; return 1; }

# bt_aot_compile: compile the programs this cell's scripts lacked
# ($aot_todo: KEY:OUT pairs), after the measurement.
bt_aot_compile() {
	for item in $aot_todo; do
		key=${item%%:*} src=${item#*:}.aot.bt
		mkdir -p "$cell/bpftrace/aot" || return
		a=$(up)
		timeout "$BPFTRACE_AOT_TIMEOUT" bpftrace --aot "$cell/bpftrace/aot/$key.tmp" "$src" \
			> "$cell/bpftrace/aot/$key.log" 2>&1
		rc=$?
		if [ $rc -eq 0 ] && [ -s "$cell/bpftrace/aot/$key.tmp" ]; then
			mv "$cell/bpftrace/aot/$key.tmp" "$cell/bpftrace/aot/$key"
			rm -f "$cell/bpftrace/aot/$key.log"
			log "runner: bpftrace --aot $src: $key, $(echo "$(up) - $a" | bc) s"
		elif [ $rc -eq 124 ]; then
			# Cut short (the host's budget has room for this much): not
			# marked failed, a later cell compiles it.
			rm -f "$cell/bpftrace/aot/$key.tmp" "$cell/bpftrace/aot/$key.log"
			log "runner: bpftrace --aot $src: not done in ${BPFTRACE_AOT_TIMEOUT}s, left to a later cell"
		else
			rm -f "$cell/bpftrace/aot/$key.tmp"
			mv "$cell/bpftrace/aot/$key.log" "$cell/bpftrace/aot/$key.fail"
			log "runner: bpftrace --aot $src failed: $(head -c 300 "$cell/bpftrace/aot/$key.fail")"
		fi
	done
	aot_todo=
}


# Observers are stopped on every exit path: bpftrace prints its maps only
# when it is interrupted, and noise must not outlive the measurement.
stop_observers() {
	for p in $bt_pids; do
		obs_file "$p"
		f=$obs_f
		if [ -z "$f" ]; then
			bt_stop "$p"
			continue
		fi
		bt_stop "$p" "$f.ndjson"
		eval "o=\$obs_out_$p"
		cp "$f.ndjson" "$o.ndjson"
		cp "$f.stderr" "$o.stderr" 2>/dev/null
	done
	bt_pids=
	if [ -n "$noise_pid" ]; then
		kill -INT "$noise_pid" 2>/dev/null
		wait "$noise_pid"
		noise_pid=
	fi
}

finish() {
	tasks_stop
	stop_observers
	# After the measurement: the programs later cells will load.
	case $1 in 0 | 1) bt_aot_compile ;; esac
	if [ -n "$dmesg_mark" ]; then
		# From this job's mark on; the whole log if the ring buffer lost it.
		dmesg 2>/dev/null | awk -v m="$dmesg_mark" 'index($0, m) { on = 1 } on' > "$cell/dmesg.txt"
		[ -s "$cell/dmesg.txt" ] || dmesg > "$cell/dmesg.txt" 2>/dev/null
	elif [ "$TARGET" = host ]; then
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
aot_todo=
dmesg_lines0=0 dmesg_mark=
# dmesg.txt holds only what the kernel logged during this job on this
# machine, and after an earlier cell in the same boot (run-group.sh sets
# HTAB_CELL_IN_BOOT): there a mark in the log (level 6, off the console)
# says where the job began, so earlier cells' reports stay theirs.
[ "$TARGET" = host ] && dmesg_lines0=$(dmesg 2>/dev/null | wc -l)
if [ "$TARGET" = vm ] && [ "${HTAB_CELL_IN_BOOT:-1}" -gt 1 ]; then
	dmesg_mark="htab-runner: job $cell begins"
	echo "<6>$dmesg_mark" > /dev/kmsg
fi
phase T_BOOT_DONE
# cpus CPULIST: how many CPUs a sysfs cpulist ("0-3,8") names, into $ncpus.
cpus() {
	ncpus=0
	set -f
	old_ifs=$IFS IFS=,
	for r in $1; do ncpus=$((ncpus + ${r#*-} - ${r%-*} + 1)); done
	IFS=$old_ifs
	set +f
}
S=/sys/devices/system/cpu
read -r release < /proc/sys/kernel/osrelease
read -r l < $S/online; cpus "$l"
log "runner: kernel $release, $ncpus CPUs, job $cell"
# Noise and observers start first: bpftrace's start-up (LLVM, BTF, its
# feature probes) takes 3.5-5.5 s under TCG, and the checks below run
# meanwhile (finish stops both if one fails); the wait for the probes comes
# just before the module.
if [ -n "$NOISE_CMD" ]; then
	log "runner: noise: $NOISE_CMD"
	# In the cell directory: stress-ng writes its YAML metrics there.
	(cd "$cell" && exec sh -c "exec $NOISE_CMD") > "$cell/noise.log" 2>&1 &
	noise_pid=$!
fi

if [ -n "$BPFTRACE" ]; then
	mkdir -p "$cell/bpftrace"
	# All start at once (LLVM start-up dominates), then all must be live:
	# stress must not start before every probe is, or the first seconds of
	# the run are missing from the histograms.
	# Which form, and whether it counts the module's workers only:
	# observers.sh. One init started before the save is adopted (obs_adopt).
	for bt in $BPFTRACE; do
		run=$(bt_form "$bt")
		bt_args=$(bt_workers "$run" "$JOB_SCRIPT")
		out=${bt##*/}
		out=$cell/bpftrace/${out%.bt}
		case $run in *_fentry.bt) echo fentry ;; *) echo kprobe ;; esac > "$out.form"
		if [ -n "$bt_args" ]; then echo workers; else echo all; fi > "$out.callers"
		aot_key=
		if obs_adopt "$bt" "$run" "$bt_args" "$out"; then
			echo preattached > "$out.engine"
		elif bt_aot "$run" $bt_args && [ -n "$aot_bin" ]; then
			echo aot > "$out.engine"
			bt_launch_aot "$out" "$aot_bin"
		else
			[ -z "$aot_key" ] || aot_todo="$aot_todo $aot_key:$out"
			echo bpftrace > "$out.engine"
			bt_launch "$out" "$run" $bt_args
		fi
		eval "bt_job_$bt_pid=\"\${aot_key:--} \$out \$run \$bt_args\""
		bt_pids="$bt_pids $bt_pid"
	done
fi
obs_release
# The freelist spans the possible CPUs: a guest must have all the cell's
# vCPUs possible, present and online (its init onlines what maxcpus= left).
if [ "$TARGET" = vm ]; then
	read -r l < $S/possible; cpus "$l"; pos=$ncpus
	read -r l < $S/present; cpus "$l"; pre=$ncpus
	read -r l < $S/online; cpus "$l"; onl=$ncpus
	printf 'POSSIBLE=%s\nPRESENT=%s\nONLINE=%s\n' "$pos" "$pre" "$onl" > "$cell/cpus.env"
	if [ -n "$VCPUS" ] && { [ "$pos" != "$VCPUS" ] || [ "$pre" != "$VCPUS" ] || [ "$onl" != "$VCPUS" ]; }; then
		log "runner: guest CPUs possible $pos, present $pre, online $onl: the cell has $VCPUS vCPUs"
		finish 2
	fi
fi
if [ "$release" != "$KERNEL_RELEASE" ]; then
	log "runner: module built for $KERNEL_RELEASE, guest runs $release"
	finish 2
fi

# Test-only actions, to prove the harness classifies broken guests.
case "$TEST_ACTION" in
panic) echo 1 > /proc/sys/kernel/sysrq; echo c > /proc/sysrq-trigger ;;
hang) log "runner: hanging on purpose"; while :; do sleep 3600; done ;;
# warn also sets the taint a real WARN() sets (W, 512): run-group.sh ends a
# shared boot on it, as the module counts only a WARN that fired after its start.
warn) echo "WARNING: CPU: 0 PID: 1 at test/htab_torture.c:1 test_warning+0x0/0x10" > /dev/kmsg
	echo 512 > /proc/sys/kernel/tainted ;;
# lkdtm:NAME: one of the kernel's own crash types (drivers/misc/lkdtm), to
# prove the classifier reads a real KASAN, KFENCE, UBSAN or list report.
lkdtm:*) lkdtm=/sys/kernel/debug/provoke-crash/DIRECT
	if [ ! -w "$lkdtm" ]; then
		log "runner: $TEST_ACTION: no $lkdtm in this kernel (CONFIG_LKDTM: run --sanitizers on)"
		finish 2
	fi
	# reading DIRECT lists the crash types this kernel's LKDTM knows
	if ! grep -qx "${TEST_ACTION#lkdtm:}" "$lkdtm"; then
		log "runner: $TEST_ACTION: not an LKDTM crash type of this kernel (valid: $(grep -x '[A-Z0-9_]*' "$lkdtm" | tr '\n' ' '))"
		finish 2
	fi
	log "runner: $TEST_ACTION"
	echo "${TEST_ACTION#lkdtm:}" > "$lkdtm" || log "runner: $lkdtm refused ${TEST_ACTION#lkdtm:}"
	sleep 2 ;;
# kmodule:NAME: NAME.ko of the kernel's own build (KDIR, the tree the module
# was built in), e.g. kfence_test: KFENCE's KUnit suite, whose first test's
# use of a KFENCE-guarded object is a real KFENCE report (with KASAN on, a
# use-after-free lkdtm provokes is KASAN's, never KFENCE's). The build's
# modules.order names its modules (NAME.ko in 6.1, NAME.o in 6.12): one
# file read over 9p, not a search of the tree.
kmodule:*) name=${TEST_ACTION#kmodule:}
	rel=$(grep -E "(^|/)$name\.k?o\$" "$KDIR/modules.order" 2>/dev/null | head -n 1)
	ko=$KDIR/${rel%.*}.ko
	if [ -z "$rel" ] || [ ! -f "$ko" ]; then
		mods=$(sed 's,.*/,,; s,\.k\{0,1\}o$,,' "$KDIR/modules.order" 2>/dev/null | sort | paste -sd ' ')
		log "runner: $TEST_ACTION: no $name.ko in $KDIR (modules there: ${mods:-none}; run --sanitizers on)"
		finish 2
	fi
	log "runner: $TEST_ACTION: insmod $ko"
	insmod "$ko" 2> "$cell/insmod.err" || log "runner: insmod $ko refused: $(cat "$cell/insmod.err")"
	sleep 2 ;;
esac

# A custom job (tests, or a user's own sequence) replaces the standard
# insmod-wait-rmmod sequence; it is sourced so it can use log, phase, $cell,
# and its exit status is the job's. Observers still run around it.
run_custom_job() {
	log "runner: custom job $JOB_SCRIPT"
	( . "$JOB_SCRIPT" )
	finish $?
}

if [ -n "$BPFTRACE" ]; then
	live=
	for pid in $bt_pids; do
		eval "set -- \$bt_job_$pid"
		key=$1 out=$2 run=$3
		shift 3
		obs_file "$pid"
		if [ -n "$obs_f" ] || bt_wait "$pid" "$out" "$run"; then
			live="$live $pid"
			continue
		fi
		is_aot "$pid" || finish 2
		# The AOT program died (or hung) before it was live: mark it
		# bad for later cells and run the script as always.
		mkdir -p "$cell/bpftrace/aot"
		{ echo "bpftrace-aotrt did not go live on $(uname -r):"; cat "$out.stderr"; } > "$cell/bpftrace/aot/$key.fail"
		log "runner: bpftrace-aotrt of $run did not go live: bpftrace instead"
		echo bpftrace > "$out.engine"
		bt_launch "$out" "$run" "$@"
		bt_wait "$bt_pid" "$out" "$run" || { bt_pids="$live $bt_pid"; finish 2; }
		live="$live $bt_pid"
	done
	bt_pids=$live
	log "runner: bpftrace attached"
fi
phase T_ATTACHED

# Coverage (the `coverage` kernel variant: gcov counters in the allocator's
# files). The counters are global, so they are reset before insmod and the
# module holds (hold=1) after its setup, where they are copied to
# gcov/setup/ (the map's creation and population) and reset again, and
# after its workers, where they are copied to gcov/workload/ before the
# verdict's own pops and pushes count; the copies after the verdict
# (gcov/verdict/) and after rmmod (gcov/rmmod/: the map's destruction too)
# are cumulative since that reset. Paths stay the debugfs ones (the tree's
# build path): the host maps them to the tree by suffix.
GCOV=/sys/kernel/debug/gcov
has_gcov() { [ -d "$GCOV" ] && [ -n "$(find "$GCOV" -name '*.gcda' 2>/dev/null | head -n 1)" ]; }
gcov_copy() {	# SNAPSHOT
	(cd "$GCOV" && find . -name '*.gcda') | while read -r f; do
		mkdir -p "$cell/gcov/$1/$(dirname "$f")" &&
			cat "$GCOV/$f" > "$cell/gcov/$1/$f" || return 1
	done && log "runner: coverage: gcov/$1 copied ($(find "$cell/gcov/$1" -name '*.gcda' | wc -l) files)"
}

# wait_status WANT...: until the module's status is one of WANT (0) or it
# is done first (3), or RUN_TIMEOUT passes since insmod (4).
wait_status() {
	while :; do
		st=
		{ read -r st < $DBG/status; } 2>/dev/null
		for w in "$@"; do [ "$st" = "$w" ] && return 0; done
		[ "$st" = done ] && return 3
		sleep 0.2
		t=$((t + 1))
		[ $t -lt $((RUN_TIMEOUT * 5)) ] || return 4
	done
}

# The module's task callers (callers=...+task, kmod/callers_task.c): with
# them it has $DBG/tasks, and it waits for them before its window opens;
# they stop at its end and report before its verdict, so once it is done
# they are exiting. Their open debugfs files hold the module: stopped
# before rmmod.
TASKS_BIN=/run/bin/htab-tasks
tasks_pid=
tasks_start() {
	[ -e $DBG/tasks ] || return 0
	if [ ! -x "$TASKS_BIN" ]; then
		log "runner: no $TASKS_BIN (the guest's initramfs has it): no task callers"
		return 0
	fi
	"$TASKS_BIN" $DBG > "$cell/tasks.log" 2>&1 &
	tasks_pid=$!
	log "runner: task callers: $TASKS_BIN $DBG (pid $tasks_pid)"
}
tasks_stop() {
	[ -n "$tasks_pid" ] || return 0
	t=0
	while running "$tasks_pid" && [ $t -lt 50 ]; do sleep 0.1; t=$((t + 1)); done
	if running "$tasks_pid"; then
		log "runner: htab-tasks $tasks_pid still running: stopped"
		kill -TERM "$tasks_pid"
	fi
	wait "$tasks_pid"
	log "runner: htab-tasks exit $?: $(tail -n 1 "$cell/tasks.log")"
	tasks_pid=
}

# run_module OUT_JSON PARAMS...: one insmod-wait-copy-rmmod cycle.
# Returns 0 when the module reported SUCCESS, 1 FAILURE, 2 insmod refused,
# 4 not done in RUN_TIMEOUT. Custom jobs call it too.
run_module() {
	out=$1; shift
	hold=
	if has_gcov; then
		hold=hold=1
		echo 1 > "$GCOV/reset" || log "runner: coverage: could not reset $GCOV before insmod"
	fi
	log "runner: insmod $MODULE $* $hold"
	if ! insmod "$MODULE" "$@" $hold 2> "$cell/insmod.err"; then
		log "runner: insmod refused: $(cat "$cell/insmod.err")"
		return 2
	fi
	tasks_start
	t=0
	rc=0
	if [ -n "$hold" ]; then
		# A failed reset or copy is logged and the run goes on: the host
		# finds the snapshot missing and says so; the verdict still counts.
		wait_status ready; rc=$?
		if [ $rc -eq 0 ]; then
			gcov_copy setup || log "runner: coverage: could not copy gcov/setup"
			echo 1 > "$GCOV/reset" && log "runner: coverage: counters reset after the setup" ||
				log "runner: coverage: could not reset $GCOV"
			echo go > $DBG/gate
			wait_status measured; rc=$?
		fi
		if [ $rc -eq 0 ]; then
			gcov_copy workload || log "runner: coverage: could not copy gcov/workload"
			echo go > $DBG/gate
		fi
	fi
	[ $rc -eq 4 ] || { wait_status done; rc=$?; }
	if [ $rc -eq 4 ]; then
		log "runner: module not done after ${RUN_TIMEOUT}s (status $(cat $DBG/status 2>/dev/null))"
		cat $DBG/results > "$out.partial" 2>/dev/null
		tasks_stop
		rmmod htab_torture
		return 4
	fi
	[ -z "$hold" ] || gcov_copy verdict || log "runner: coverage: could not copy gcov/verdict"
	cat $DBG/results > "$out.tmp" && mv "$out.tmp" "$out"
	tasks_stop
	rmmod htab_torture || log "runner: rmmod failed"
	[ -z "$hold" ] || gcov_copy rmmod || log "runner: coverage: could not copy gcov/rmmod"
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
