# Guest job for bench/driver (sourced by run-job.sh through JOB_SCRIPT).
# Interleaves, in one boot, REPEATS rounds of: htab_torture.ko full_update
# with time_ops=0, the same with time_ops=1, and bench/libbpf's
# full_update_driver; the order rotates each round so no program always runs
# first after a cool-down. Same map shape for all: hash, prealloc,
# max_entries=$ENTRIES, value 16 B (the module's stamp), full, updates of absent keys.
progs="mod0 mod1 drv"
i=1
while [ "$i" -le "$REPEATS" ]; do
	for p in $progs; do
		case $p in
		mod?) run_module "$cell/r${i}_$p.json" workload=full_update max_entries="$ENTRIES" \
			value_size=16 duration_ms=$((DURATION * 1000)) time_ops="${p#mod}" || return $? ;;
		drv) log "bench_driver: full_update_driver -d $DURATION -e $ENTRIES"
		     "$LIBBPF_DIR/full_update_driver" -d "$DURATION" -e "$ENTRIES" \
			> "$cell/r${i}_drv.out" 2> "$cell/r${i}_drv.err" || return 1 ;;
		esac
	done
	progs="${progs#* } ${progs%% *}"
	i=$((i + 1))
done
sync
return 0
