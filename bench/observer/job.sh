# Guest job for bench/observer (sourced by run-job.sh through JOB_SCRIPT).
# REPEATS rounds, order rotating, of htab_torture.ko full_update (time_ops=0)
# with: no tracing (plain), $KPROBE_BT (kprobe+kretprobe) attached, and
# $FENTRY_BT (kfunc/kretfunc) attached. Each traced run starts bpftrace,
# waits until it has attached, runs the module, then stops bpftrace (SIGINT:
# it prints its maps as NDJSON). Then one check: does the fentry script see
# the pops of bpf_loop updates from a BPF program (full_update_driver)?
# bt_start OUT SCRIPT and bt_stop PID are the runner's (vm-images/guest/
# run-job.sh): they wait until bpftrace's probes are live and make sure a
# lost SIGINT cannot hang the round.
modes="plain kprobe fentry"
i=1
while [ "$i" -le "$REPEATS" ]; do
	for m in $modes; do
		case $m in
		kprobe) bt_start "$cell/r${i}_$m" "$KPROBE_BT" || return 2 ;;
		fentry) bt_start "$cell/r${i}_$m" "$FENTRY_BT" || return 2 ;;
		esac
		run_module "$cell/r${i}_$m.json" workload=full_update max_entries="$ENTRIES" \
			duration_ms=$((DURATION * 1000)) time_ops=0
		rc=$?
		[ "$m" = plain ] || bt_stop "$bt_pid"
		[ $rc -eq 0 ] || return $rc
	done
	modes="${modes#* } ${modes%% *}"
	i=$((i + 1))
done
for m in kprobe fentry; do
	eval bt=\$$(echo $m | tr a-z A-Z)_BT
	bt_start "$cell/bpfprog_$m" "$bt" || return 2
	"$LIBBPF_DIR/full_update_driver" -d 1 -l 1000 > "$cell/bpfprog_$m.drv" 2>&1
	bt_stop "$bt_pid"
done
sync
return 0
