# Guest job (sourced by vm-images/guest/run-job.sh via JOB_SCRIPT) that
# regenerates every bpftrace/*_example.txt: each script runs in bpftrace's
# text mode while htab_torture.ko drives the workload that exercises it.
# Usage: put JOB_SCRIPT=<this file> and MODULE=… in a cell's job.env, boot,
# then copy CELL/examples/*_example.txt next to the scripts.
mkdir -p "$cell/examples"
for bt in "$(dirname "$JOB_SCRIPT")"/*.bt; do
	name=$(basename "$bt" .bt)
	case $name in
	# Pushes happen on delete; spinlock waits need cross-CPU churn.
	__pcpu_freelist_push | native_queued_spin_lock_slowpath)
		params="workload=add_del_on_diff_cpu duration_ms=2000" ;;
	*) params="workload=full_update duration_ms=2000" ;;
	esac
	ex="$cell/examples/${name}_example.txt"
	echo "# bpftrace $(bpftrace --version | cut -d' ' -f2), kernel $(uname -r), $(nproc) vCPUs; workload: $params" > "$ex"
	echo "# bpftrace bpftrace/$name.bt   (interrupted after the run)" >> "$ex"
	bpftrace "$bt" >> "$ex" 2>&1 &
	pid=$!
	t=0
	# "Attaching" comes before the probes are live: wait for the poll loop
	# too (bt_live, bt_stop: the runner's helpers).
	until { grep -q '^Attaching' "$ex" && bt_live $pid; } || [ $t -ge 240 ]; do
		sleep 0.5
		t=$((t + 1))
	done
	run_module "$cell/examples/$name.module.json" $params
	bt_stop $pid "$ex"
done
