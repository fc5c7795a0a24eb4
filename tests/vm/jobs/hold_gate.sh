# Guest job: hold=1 stops the module's controller where the runner takes
# coverage snapshots. It must wait at "ready" (map set up, no worker
# released: a 0.5 s run would be over), go on at the first write to gate,
# wait at "measured" (results not final), finish at the second write, and
# go away on rmmod while it waits. Results in $cell/hold.json and hold.txt.
st() { cat $DBG/status 2>/dev/null; }
say() { echo "$*" >> "$cell/hold.txt"; log "hold_gate: $*"; }
die_job() { say "FAIL: $*"; rmmod htab_torture 2>/dev/null; exit 1; }
wait_for() {	# STATUS: within 30 s
	i=0
	until [ "$(st)" = "$1" ]; do
		sleep 0.1
		i=$((i + 1))
		[ $i -lt 300 ] || die_job "status '$(st)', want '$1'"
	done
	say "status $1"
}

insmod "$MODULE" workload=full_update duration_ms=500 hold=1 || die_job "insmod hold=1 refused"
wait_for ready
sleep 2
[ "$(st)" = ready ] || die_job "did not wait at ready: status '$(st)'"
say "still ready after 2 s"
echo go > $DBG/gate
wait_for measured
sleep 1
[ "$(st)" = measured ] || die_job "did not wait at measured: status '$(st)'"
grep -q '"status": "running"' $DBG/results || die_job "results final before the second gate"
say "still measured after 1 s, results not final"
echo go > $DBG/gate
wait_for done
cat $DBG/results > "$cell/hold.json"
rmmod htab_torture || die_job "rmmod after done failed"

# rmmod while the controller holds at ready: the module goes, no splat.
insmod "$MODULE" workload=full_update duration_ms=500 hold=1 || die_job "second insmod refused"
wait_for ready
timeout 30 rmmod htab_torture || die_job "rmmod while holding failed"
lsmod | grep -q '^htab_torture ' && die_job "module still loaded"
say "rmmod while holding: gone"
exit 0
