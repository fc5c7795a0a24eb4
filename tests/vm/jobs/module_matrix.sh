# Guest job: every workload x map type x prealloc the module accepts, one
# short run each in one boot (36 runs), results in $cell/matrix/. Exit 0
# only if every run reported SUCCESS. The host test checks the JSON.
mkdir -p "$cell/matrix"
rc=0
for wl in full_update overwrite batch_add_batch_del add_del_on_diff_cpu lookup churn; do
	for mt in hash percpu_hash lru_hash lru_percpu_hash; do
		for pa in 1 0; do
			case $mt in lru_*) [ $pa = 0 ] && continue ;; esac
			name=$wl-$mt-p$pa
			run_module "$cell/matrix/$name.json" workload=$wl map_type=$mt \
				prealloc=$pa duration_ms=${MATRIX_MS:-400}
			r=$?
			echo "$name $r" >> "$cell/matrix/index.txt"
			[ $r -eq 0 ] || rc=1
		done
	done
done
exit $rc
