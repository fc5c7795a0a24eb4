# Guest job for bench/observer (sourced by run-job.sh through JOB_SCRIPT).
# REPEATS rounds, order rotating, of htab_torture.ko full_update (time_ops=0)
# with: no tracing (plain), $KPROBE_BT (kprobe+kretprobe) attached, and
# $FENTRY_BT (kfunc/kretfunc) attached. Each traced run starts bpftrace,
# waits until it has attached, runs the module, then stops bpftrace (SIGINT:
# it prints its maps as NDJSON). Then one check: does the fentry script see
# the pops of bpf_loop updates from a BPF program (full_update_driver)?
# usage: bt_start NAME SCRIPT; bt_stop
bt_start() {
	bt_out=$cell/$1
	bpftrace -f json -o "$bt_out.ndjson" "$2" 2> "$bt_out.stderr" &
	bt_pid=$!
	t=0
	until grep -q attached_probes "$bt_out.ndjson" 2>/dev/null; do
		sleep 0.5; t=$((t + 1))
		if [ $t -ge $((ATTACH_TIMEOUT * 2)) ] || ! kill -0 $bt_pid 2>/dev/null; then
			log "bench_observer: bpftrace $2 did not attach: $(cat "$bt_out.stderr")"
			kill -INT $bt_pid 2>/dev/null; return 2
		fi
	done
	# bpftrace 0.17 prints attached_probes BEFORE it attaches; the probes are
	# live when it reaches its poll loop (asleep in epoll_wait). Starting
	# the module earlier had a vCPU livelock on the int3 of the ftrace site
	# being patched in __pcpu_freelist_pop (TCG; see bench/RESULTS.md).
	until [ "$(cat /proc/$bt_pid/wchan 2>/dev/null)" = do_epoll_wait ]; do
		sleep 0.2; t=$((t + 1))
		if [ $t -ge $((ATTACH_TIMEOUT * 5)) ] || ! kill -0 $bt_pid 2>/dev/null; then
			log "bench_observer: bpftrace $2 never reached its poll loop"
			kill -INT $bt_pid 2>/dev/null; return 2
		fi
	done
	log "bench_observer: attached $2, in poll loop after $t checks"
}
# bpftrace prints its maps on SIGINT. bpftrace 0.17 can lose a SIGINT: its
# poll loop leaves only when epoll_wait() itself returns EINTR, so a signal
# that lands between two 100 ms waits sets the flag and is never looked at
# (seen here: 2 of ~50 stops, thread asleep in do_epoll_wait). So: resend
# every 5 s while nothing has been printed (once printing starts, SIGINT is
# back to default and would kill it); after 120 s log the stacks and kill
# it; the round then lacks @calls and the summary drops it.
bt_stop() {
	sz0=$(wc -c < "$bt_out.ndjson")
	kill -INT $bt_pid
	t=0
	while kill -0 $bt_pid 2>/dev/null && [ $t -lt 240 ]; do
		sleep 0.5; t=$((t + 1))
		if [ $((t % 10)) -eq 0 ] && [ "$(wc -c < "$bt_out.ndjson")" = "$sz0" ]; then
			log "bench_observer: bpftrace still running $((t / 2)) s after SIGINT, nothing printed: SIGINT again"
			kill -INT $bt_pid 2>/dev/null
		fi
	done
	if kill -0 $bt_pid 2>/dev/null; then
		log "bench_observer: bpftrace did not exit on SIGINT in 120 s; killed"
		for task in /proc/$bt_pid/task/*; do
			echo "== $task $(cat $task/comm) $(cat $task/wchan) state $(sed -n 's/^State:\t//p' $task/status)"
			cat $task/stack
		done > "$bt_out.hang" 2>&1
		kill -KILL $bt_pid
	fi
	wait $bt_pid
}
modes="plain kprobe fentry"
i=1
while [ "$i" -le "$REPEATS" ]; do
	for m in $modes; do
		case $m in
		kprobe) bt_start "r${i}_$m" "$KPROBE_BT" || return 2 ;;
		fentry) bt_start "r${i}_$m" "$FENTRY_BT" || return 2 ;;
		esac
		run_module "$cell/r${i}_$m.json" workload=full_update max_entries="$ENTRIES" \
			duration_ms=$((DURATION * 1000)) time_ops=0
		rc=$?
		[ "$m" = plain ] || bt_stop
		[ $rc -eq 0 ] || return $rc
	done
	modes="${modes#* } ${modes%% *}"
	i=$((i + 1))
done
for m in kprobe fentry; do
	eval bt=\$$(echo $m | tr a-z A-Z)_BT
	bt_start "bpfprog_$m" "$bt" || return 2
	"$LIBBPF_DIR/full_update_driver" -d 1 -l 1000 > "$cell/bpfprog_$m.drv" 2>&1
	bt_stop
done
sync
return 0
