# Guest job: every workload x map type x prealloc the module accepts, one
# short run each in one boot (6 per workload), results in $cell/matrix/. Exit 0
# only if every run reported SUCCESS. The host test checks the JSON.
mkdir -p "$cell/matrix"
rc=0
# The workloads of kmod/workloads.h, their one list (JOB_SCRIPT is absolute).
wls=$(sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\)).*/\1/p' "${JOB_SCRIPT%/tests/vm/jobs/*}/kmod/workloads.h")
[ -n "$wls" ] || exit 2
for wl in $wls; do
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
