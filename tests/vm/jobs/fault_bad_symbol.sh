# Guest job (sourced by run-job.sh via JOB_SCRIPT) for
# tests/vm/test_fault_bad_symbol.sh: each bad fault= must make insmod fail
# with EINVAL (kmod says "Invalid parameters") and leave a kernel message
# containing the expected text; one line per case goes to $cell/cases.txt.
# Then one good fault= runs through run_module, whose status is the job's.
: > "$cell/cases.txt"
bad_case() {
	want=$1; shift
	dmesg -C
	if insmod "$MODULE" workload=full_update duration_ms=100 "$@" 2> "$cell/case.err"; then
		rmmod htab_torture
		echo "case $* loaded: FAIL" >> "$cell/cases.txt"
		return
	fi
	if ! grep -q 'Invalid' "$cell/case.err"; then
		echo "case $* insmod said '$(cat "$cell/case.err")': FAIL" >> "$cell/cases.txt"
	elif ! dmesg | grep -qF -- "$want"; then
		echo "case $* no '$want' in dmesg: FAIL" >> "$cell/cases.txt"
	else
		echo "case $* ok" >> "$cell/cases.txt"
	fi
	dmesg >> "$cell/cases.dmesg"
}
bad_case "cannot probe symbol no_such_function_xyz: error -2 (no such symbol)" \
	fault=delay:no_such_function_xyz:1000ns
bad_case "cannot probe symbol kprobe_int3_handler" fault=delay:kprobe_int3_handler:1000ns
bad_case "exhaust works on __pcpu_freelist_pop only, not alloc_htab_elem" fault=exhaust:alloc_htab_elem
bad_case "delay needs a duration" fault=delay:__pcpu_freelist_pop
bad_case "p=1.5 must be a decimal in (0, 1]" fault=delay:2000ns:p=1.5
bad_case "p=0 must be a decimal in (0, 1]" fault=exhaust:p=0
bad_case "give one of p= and every=" fault=exhaust:p=0.1:every=3
bad_case "every=0 must be an integer >= 1" fault=exhaust:every=0
bad_case "duration 2ms must be" fault=delay:2ms
bad_case "duration 5000us must be" fault=delay:5000us
bad_case "unknown fault type \"bogus\"" fault=bogus:1
bad_case "cpus=abc is not a non-empty cpulist" fault=exhaust:cpus=abc
bad_case "unknown option foo=" fault=exhaust:foo=1
bad_case "only letters, digits" 'fault=delay:2us;x'
bad_case "cannot probe symbol no_such_function_xyz" fault=exhaust:p=0.5 fault=delay:no_such_function_xyz:1us
sed 's/^/runner: /' "$cell/cases.txt" | while read -r l; do log "$l"; done
grep -q 'FAIL$' "$cell/cases.txt" && return 1
lsmod | grep -q '^htab_torture ' && { log "htab_torture still loaded"; return 1; }
run_module "$cell/module.json" workload=full_update duration_ms=1000 \
	fault=delay:__pcpu_freelist_pop:1us:every=10:cpus=0+exhaust:p=0.5
