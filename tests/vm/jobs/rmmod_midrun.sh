# Guest job: rmmod at arbitrary moments of a run (mid-fill, mid-run,
# mid-verdict), 20 times in a row. Each rmmod must succeed and leave no
# module and no debugfs directory behind; the host test then checks the
# console and dmesg for any splat. One line per cycle in $cell/rmmod.txt.
rc=0
i=0
for delay in 0 0.05 0.1 0.2 0.3 0.5 0.8 1.2 0 0.05 0.1 0.2 0.3 0.5 0.8 1.2 0.02 0.4 0.6 1.0; do
	i=$((i + 1))
	# Large maps make the fill and the verdict long enough to be hit.
	case $((i % 4)) in
	0) args="workload=full_update max_entries=200000" ;;
	1) args="workload=add_del_on_diff_cpu" ;;
	2) args="workload=churn map_type=lru_hash max_entries=100000" ;;
	3) args="workload=lookup map_type=percpu_hash max_entries=300000" ;;
	esac
	insmod "$MODULE" $args duration_ms=2000 || { log "rmmod_midrun: insmod $args failed"; rc=1; continue; }
	sleep $delay
	st=$(cat /sys/kernel/debug/htab_torture/status 2>/dev/null)
	rmmod htab_torture
	r=$?
	left=ok
	lsmod | grep -q '^htab_torture ' && left=module-still-loaded
	[ -e /sys/kernel/debug/htab_torture ] && left=debugfs-left
	echo "$i $delay $st rmmod=$r $left $args" >> "$cell/rmmod.txt"
	[ $r -eq 0 ] && [ $left = ok ] || rc=1
done
exit $rc
