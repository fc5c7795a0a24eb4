# The map's memory as seed 002's htab-mem bench measures it, for
# `htab-torture run --job-script vm-images/guest/memcg-job.sh` (make seed-002).
# Sourced by run-job.sh in place of its insmod-wait-rmmod sequence, so $cell,
# $MODULE, $MODPARAMS, $DBG, log, phase and wait_status are the runner's.
#
# insmod runs inside a fresh cgroup v2 with the memory controller on: the
# module creates its map in insmod's context (kmod/map.c), and 6.1 charges
# the map (bpf_map_init_memcg: the creating task's memcg) and every element
# it allocates later, also from the module's kthreads, to that cgroup. With
# hold=1 the module stops after its setup and after its workers; between the
# two the runner samples memory.current every MEMCG_INTERVAL s into
# memcg.tsv (guest uptime s, bytes), and at the second stop it reads
# memory.peak (since the cgroup was made: map creation, setup and the run,
# not the verdict's fills after it). memcg.env keeps the figures the host
# reads (harness/run/record/cell_json.c, cell.json "memory"; FORMAT.md):
#   MEMCG_BASE     memory.current after the setup, before the workers
#   MEMCG_PEAK     memory.peak when the workers are done
#   MEMCG_END      memory.current when the workers are done
#   MEMCG_INTERVAL the sampling period, s
# Exit as run_module's: 0 SUCCESS, 1 FAILURE, 2 setup error, 4 timeout.
MEMCG_INTERVAL=${MEMCG_INTERVAL:-0.25}
CG=/sys/fs/cgroup

memcg_fail() { log "runner: memcg: $*"; exit 2; }

[ -e $CG/cgroup.controllers ] || mount -t cgroup2 cgroup2 $CG ||
	memcg_fail "cannot mount cgroup2 on $CG"
grep -qw memory $CG/cgroup.controllers || memcg_fail "no memory controller in $CG/cgroup.controllers"
grep -qw memory $CG/cgroup.subtree_control || echo +memory > $CG/cgroup.subtree_control ||
	memcg_fail "cannot enable +memory in $CG/cgroup.subtree_control"
G=$CG/htab-map
rmdir $G 2> /dev/null
mkdir $G || memcg_fail "cannot create $G"
[ -e $G/memory.peak ] || memcg_fail "$G has no memory.peak (kernel older than 5.19?)"

# The module file and insmod's binary and libraries are read here, outside
# the cgroup: their page cache is then charged to the runner's cgroup, not
# counted as the map's (the .ko alone is ~3 MiB).
ins=$(command -v insmod)
for f in "$MODULE" "$ins" $(ldd "$ins" 2> /dev/null | awk '$3 ~ /^\// { print $3 }'); do
	cat "$f" > /dev/null 2>&1
done
log "runner: insmod $MODULE $MODPARAMS hold=1 (in cgroup $G)"
# $$ of the sh -c is the pid insmod will have after exec.
if ! sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec insmod "$@"' sh \
		"$G" "$MODULE" $MODPARAMS hold=1 2> "$cell/insmod.err"; then
	log "runner: insmod refused: $(cat "$cell/insmod.err")"
	exit 2
fi
t=0
wait_status ready
rc=$?
if [ $rc -eq 0 ]; then
	read -r base < $G/memory.current
	: > "$cell/memcg.tsv"
	phase T_STRESS_START
	echo go > $DBG/gate
	while :; do
		read -r up_s _ < /proc/uptime
		read -r cur < $G/memory.current
		echo "$up_s $cur" >> "$cell/memcg.tsv"
		# builtins only but sleep: with every vCPU busy under TCG each
		# fork costs tens of ms (3 s runs at 8 vCPUs gave 2-3 samples).
		read -r st < $DBG/status 2> /dev/null || st=
		[ "$st" = ready ] || [ "$st" = running ] || break
		sleep "$MEMCG_INTERVAL"
		t=$((t + 1))
		[ $t -lt 2400 ] || { rc=4; break; }
	done
	phase T_STRESS_END
	read -r peak < $G/memory.peak
	read -r end < $G/memory.current
	printf 'MEMCG_BASE=%s\nMEMCG_PEAK=%s\nMEMCG_END=%s\nMEMCG_INTERVAL=%s\n' \
		"$base" "$peak" "$end" "$MEMCG_INTERVAL" > "$cell/memcg.env"
	log "runner: memcg: base $base, peak $peak, end $end bytes ($(wc -l < "$cell/memcg.tsv") samples)"
	[ "$st" = measured ] && echo go > $DBG/gate
fi
t=0
[ $rc -eq 4 ] || { wait_status done; rc=$?; }
if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
	log "runner: module not done (status $(cat $DBG/status 2> /dev/null))"
	cat $DBG/results > "$cell/module.json.partial" 2> /dev/null
	rmmod htab_torture
	exit 4
fi
cat $DBG/results > "$cell/module.json.tmp" && mv "$cell/module.json.tmp" "$cell/module.json"
rmmod htab_torture || log "runner: rmmod failed"
grep -q '"result": *"SUCCESS"' "$cell/module.json" && exit 0
exit 1
