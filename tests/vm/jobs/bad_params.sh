# Guest job: each bad module parameter must make insmod fail with EINVAL (kmod prints "Invalid parameters")
# and a kernel message naming the parameter. One line per case in
# $cell/bad_params.txt: "<param>|<insmod rc>|<insmod stderr>|<new dmesg lines>".
# Exit 0 only if every case was refused and named.
rc=0
n=$(nproc)
while read -r name args; do
	[ -z "$name" ] && continue
	before=$(dmesg | wc -l)
	insmod "$MODULE" $args 2> "$cell/insmod.err"
	r=$?
	lsmod | grep -q '^htab_torture ' && { rmmod htab_torture; r=0; }
	msg=$(dmesg | tail -n +$((before + 1)) | grep htab_torture | tr '\n' ' ')
	echo "$name|$r|$(tr '\n' ' ' < "$cell/insmod.err")|$msg" >> "$cell/bad_params.txt"
	if [ $r -eq 0 ] || ! grep -q 'Invalid param' "$cell/insmod.err" ||
		! echo "$msg" | grep -q "$name"; then
		log "bad_params: '$args' not refused as expected"
		rc=1
	fi
done <<EOT
workload workload=nope
map_type map_type=btree
prealloc prealloc=2
max_entries max_entries=0
max_entries max_entries=99999999
value_size value_size=0
value_size value_size=5000
duration_ms duration_ms=50
duration_ms duration_ms=700000
time_ops time_ops=2
fill_pct fill_pct=101
cpus cpus=abc
cpus cpus=0-4095
cpus cpus=$n
cpus cpus=,
prealloc map_type=lru_hash prealloc=0
prealloc map_type=lru_percpu_hash prealloc=0
map_id map_id=999999
map_id map_id=-1
value_size value_size=8
verify verify=2
hold hold=2
selftest selftest=bogus
footprint max_entries=2097152 value_size=4096
tasks_per_cpu tasks_per_cpu=4
tasks_per_cpu callers=kthread+task tasks_per_cpu=0
tasks_per_cpu callers=kthread+task tasks_per_cpu=65
callers callers=kthread+task map_type=lru_hash
fault fault=bogus
fault fault=delay
fault fault=exhaust:p=2
fault fault=exhaust:cpus=4095
fault fault=exhaust+exhaust+exhaust+exhaust+exhaust
EOT
exit $rc
