# Guest job for bench/verify (sourced by run-job.sh through JOB_SCRIPT):
# REPEATS rounds; in each, every workload of $WORKLOADS runs with verify=0
# and verify=1 (the order of the two alternates by round); the other
# parameters are the same.
i=1
while [ "$i" -le "$REPEATS" ]; do
	for wl in $WORKLOADS; do
		for v in $([ $((i % 2)) -eq 1 ] && echo 0 1 || echo 1 0); do
			run_module "$cell/r${i}_${wl}_v$v.json" workload="$wl" \
				duration_ms=$((DURATION * 1000)) time_ops=0 verify="$v" || return $?
		done
	done
	i=$((i + 1))
done
sync
return 0
