# Guest job: writes bpftrace/__pcpu_freelist_pop_fentry_example.txt's content
# (text mode, like bpftrace/examples_job.sh does for the other scripts) to
# $cell/examples/ while htab_torture.ko runs full_update for 2 s.
mkdir -p "$cell/examples"
params="workload=full_update duration_ms=2000"
name=__pcpu_freelist_pop_fentry
ex="$cell/examples/${name}_example.txt"
echo "# bpftrace $(bpftrace --version | cut -d' ' -f2), kernel $(uname -r), $(nproc) vCPUs; workload: $params" > "$ex"
echo "# bpftrace bpftrace/$name.bt   (interrupted after the run)" >> "$ex"
bpftrace "$FENTRY_BT" >> "$ex" 2>&1 &
pid=$!
t=0
until grep -q '^Attaching' "$ex" || [ $t -ge 240 ]; do sleep 0.5; t=$((t + 1)); done
# "Attaching" is printed before attaching; live once in its poll loop
until [ "$(cat /proc/$pid/wchan 2>/dev/null)" = do_epoll_wait ] || [ $t -ge 480 ]; do sleep 0.5; t=$((t + 1)); done
run_module "$cell/examples/$name.module.json" $params
rc=$?
kill -INT $pid
wait $pid
sync
return $rc
