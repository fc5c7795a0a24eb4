# Guest job for bench/timing (sourced by run-job.sh through JOB_SCRIPT):
# REPEATS rounds of htab_torture.ko $WORKLOAD with time_ops=1 and time_ops=0,
# order alternating each round, same parameters otherwise.
order="1 0"
i=1
while [ "$i" -le "$REPEATS" ]; do
	for t in $order; do
		run_module "$cell/r${i}_t$t.json" workload="$WORKLOAD" max_entries="$ENTRIES" \
			duration_ms=$((DURATION * 1000)) time_ops="$t" || return $?
	done
	order="${order#* } ${order%% *}"
	i=$((i + 1))
done
sync
return 0
