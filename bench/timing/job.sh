# Guest job for bench/timing (sourced by run-job.sh through JOB_SCRIPT):
# REPEATS rounds of htab_torture.ko $WORKLOAD under each of $SETTINGS
# (time_ops/time_sample pairs, e.g. "0/1 1/1 1/64"); the order rotates each
# round; the other parameters are the same.
order=$SETTINGS
i=1
while [ "$i" -le "$REPEATS" ]; do
	for s in $order; do
		run_module "$cell/r${i}_t${s%/*}s${s#*/}.json" workload="$WORKLOAD" max_entries="$ENTRIES" \
			duration_ms=$((DURATION * 1000)) time_ops="${s%/*}" time_sample="${s#*/}" || return $?
	done
	order="${order#* } ${order%% *}"
	i=$((i + 1))
done
sync
return 0
