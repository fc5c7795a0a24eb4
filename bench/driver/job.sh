# Guest job for bench/driver (sourced by run-job.sh through JOB_SCRIPT).
# Interleaves, in one boot, REPEATS rounds of every program of PROGS
# ("name:module:params" words, params comma-separated; module "-" is
# bench/libbpf's full_update_driver); the order rotates each round so no
# program always runs first after a cool-down. Same map shape for all:
# hash, prealloc, max_entries=$ENTRIES, value 16 B (the module's stamp),
# full, updates of absent keys.
progs=$PROGS
i=1
while [ "$i" -le "$REPEATS" ]; do
	for p in $progs; do
		name=${p%%:*} rest=${p#*:}
		ko=${rest%%:*} params=${rest#*:}
		if [ "$ko" = - ]; then
			log "bench_driver: $name: full_update_driver -d $DURATION -e $ENTRIES"
			"$LIBBPF_DIR/full_update_driver" -d "$DURATION" -e "$ENTRIES" \
				> "$cell/r${i}_$name.out" 2> "$cell/r${i}_$name.err" || return 1
		else
			kit_module=$MODULE MODULE=$ko
			# shellcheck disable=SC2086 # params are words
			run_module "$cell/r${i}_$name.json" workload=full_update \
				max_entries="$ENTRIES" value_size=16 duration_ms=$((DURATION * 1000)) \
				$(echo "$params" | tr , ' ')
			rc=$? MODULE=$kit_module
			[ $rc -eq 0 ] || return $rc
		fi
	done
	progs="${progs#* } ${progs%% *}"
	i=$((i + 1))
done
sync
return 0
