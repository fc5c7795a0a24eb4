# Guest job (sourced by run-job.sh via JOB_SCRIPT) for tests/vm/test_libbpf_tools.sh:
# runs each libbpf tool once, saving stdout, stderr and exit status per tool
# in the cell directory; the host-side test checks them. Always returns 0:
# the verdict is the host test's.
B=$LIBBPF_DIR
log "libbpf_tools: full_update_driver -d 2"
"$B/full_update_driver" -d 2 > "$cell/fud.out" 2> "$cell/fud.err"
echo $? > "$cell/fud.rc"
for t in hash lru_hash; do
	log "libbpf_tools: full_update_driver -m lookup -t $t -n 1 -d 1 -e 1025 -l 1000"
	"$B/full_update_driver" -m lookup -t $t -n 1 -d 1 -e 1025 -l 1000 > "$cell/fudl-$t.out" 2> "$cell/fudl-$t.err"
	echo $? > "$cell/fudl-$t.rc"
done
log "libbpf_tools: batch_dump -p 1,100,1000 -r 3"
"$B/batch_dump" -p 1,100,1000 -r 3 > "$cell/bd.out" 2> "$cell/bd.err"
echo $? > "$cell/bd.rc"
sync
return 0
