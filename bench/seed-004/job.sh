# Guest job of make seed-004 (a --job-script, sourced by run-job.sh): the seed's
# sweep from a BPF program. For each map size 2^i + 1, i = 9 … 20, on an
# lru_hash and a hash map (alternating), bench/libbpf/full_update_driver -m
# lookup on one CPU for 1 s: the map filled with keys 0 .. size-1, lookups
# sweeping them in order from a program run by getpgid() (as the seed's
# map_perf_test sweeps from a program run by connect()); the verifier
# inlines the LRU lookup on `fixed`, not on `before-004`. Lines
# "TYPE SIZE LOOKUPS_PER_S" go to lookup.tsv; each run's output to
# lookup-TYPE-SIZE.out. Exit 0 when every run passed, else 1.
dir=$(dirname "$JOB_SCRIPT")/../libbpf
rc=0
: > "$cell/lookup.tsv"
for i in 9 10 11 12 13 14 15 16 17 18 19 20; do
	n=$(( (1 << i) + 1 ))
	for t in lru_hash hash; do
		o=$cell/lookup-$t-$n.out
		"$dir/full_update_driver" -m lookup -t $t -n 1 -d 1 -e $n -l 10000 > "$o" 2> "${o%.out}.err" || {
			log "seed-004: full_update_driver -m lookup -t $t -e $n: exit $? ($(grep '^result' "$o"))"
			rc=1
			continue
		}
		sed -nE "s/^[0-9]+:${t}_lookup_perf ([0-9]+) lookups per sec$/$t $n \1/p" "$o" >> "$cell/lookup.tsv"
	done
	log "seed-004: size $n done"
done
sync
return $rc
