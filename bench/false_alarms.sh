#!/bin/bash
# Zero false alarms on Debian's kernels of every line (`make false-alarms`):
# every workload x map type x prealloc x caller mix at 4 vCPUs on distro-6.1,
# distro-6.12 and distro-6.12-rt (PREEMPT_RT) in one run, then one table:
# a row per workload/map/prealloc, a column per kernel, the verdict per
# repeat. These kernels carry no planted bug, so every cell must PASS; a
# cell that does not is a false alarm (or a real kernel bug: its signature
# is printed), unless a known kernel bug explains it (cell.json
# "known_bug", harness/known_bugs.json): those are counted apart. Exit: 0
# every cell PASS or known, 1 not, 2 the run could not be made.
#
# Environment: FA_KERNELS (default every distro label of
# vm-images/kernel-lines.sh), FA_CPUS (4), FA_REPEAT (1), FA_DURATION (3 s),
# FA_WORKLOADS (default every workload), FA_CALLERS (`run --callers`,
# default kthread; e.g. kthread,kthread+nmi,kthread+irq,kthread+task: the
# plan leaves out the maps a mix cannot run on), FA_OUT (run directory),
# FA_ARGS (more `run` options, word-split).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. bench/lib/relpath.sh

out=${FA_OUT:-results/false-alarms-$(date +%Y%m%d-%H%M%S)}
kernels=${FA_KERNELS:-$(vm-images/kernel-lines.sh labels | paste -sd, -)}
workloads=${FA_WORKLOADS:-$(./harness/htab-torture run --help 2>&1 |
	sed -n 's/^workloads: //p' | tr ' ' ',')}
callers=${FA_CALLERS:-kthread}
[ -n "$kernels" ] && [ -n "$workloads" ] || { echo "false-alarms: no kernels or no workloads" >&2; exit 2; }
t0=$(date +%s)
./harness/htab-torture run --cpus "${FA_CPUS:-4}" --workload "$workloads" --kernel "$kernels" \
	--map-type hash,percpu_hash,lru_hash,lru_percpu_hash --prealloc 1,0 --callers "$callers" \
	--repeat "${FA_REPEAT:-1}" --duration "${FA_DURATION:-3}" --bpftrace none \
	--out "$out" ${FA_ARGS:-}
[ $? -eq 2 ] && exit 2
wall=$(( $(date +%s) - t0 ))
planned=$(./harness/htab-torture run --cpus "${FA_CPUS:-4}" --workload "$workloads" --kernel "$kernels" \
	--map-type hash,percpu_hash,lru_hash,lru_percpu_hash --prealloc 1,0 --callers "$callers" \
	--repeat "${FA_REPEAT:-1}" --plan-only --json 2> /dev/null | jq length)

# kernel, workload/map/prealloc[/callers], repeat, verdict, signature, accel, release, known_bug
cells=$(jq -r '[.kernel, .workload + "/" + .map_type + "/p" + (.prealloc|tostring) +
	(if (.callers // "kthread") == "kthread" then "" else "/" + .callers end),
	(.repeat|tostring), .verdict, (.signature // "" | gsub("[\t\n]"; " ") | .[0:90]),
	.accel, .kernel_release, (.known_bug.id // "")] | @tsv' "$out"/*/cell.json)
echo
echo "# False alarms: every workload x map x prealloc x callers $callers, ${FA_CPUS:-4} vCPUs, ${FA_REPEAT:-1} repeat(s), ${FA_DURATION:-3} s a cell, accel $(cut -f6 <<<"$cells" | sort -u | paste -sd/ -)"
echo "# (tcg: emulated)"
awk -F'\t' -v km="$kernels" '
	{ v[$1 SUBSEP $2] = v[$1 SUBSEP $2] (v[$1 SUBSEP $2] == "" ? "" : "/") $4
	  if (!($2 in seen)) { seen[$2] = 1; rows[++nr] = $2 }
	  rel[$1] = $7
	  if ($4 != "PASS") bad[++nb] = $1 "  " $2 "  r" $3 "  " $4 "  " $5 ($8 == "" ? "" : "  [known: " $8 "]") }
	END {
		nk = split(km, K, ",")
		printf "%-48s", "workload/map/prealloc[/callers]"
		for (k = 1; k <= nk; k++) printf " %-24s", K[k]
		printf "\n%-48s", ""
		for (k = 1; k <= nk; k++) printf " %-24s", rel[K[k]]
		printf "\n"
		for (i = 1; i <= nr; i++) {
			printf "%-48s", rows[i]
			for (k = 1; k <= nk; k++) printf " %-24s", v[K[k] SUBSEP rows[i]] == "" ? "-" : v[K[k] SUBSEP rows[i]]
			printf "\n"
		}
		if (nb) { print ""; print "# Cells that did not PASS"; for (i = 1; i <= nb; i++) print bad[i] }
	}' <<<"$cells"
n=$(grep -c . <<<"$cells")
# every planned cell must have ended: a missing one is no evidence of a PASS
[ "$n" -eq "${planned:-0}" ] || { echo "false-alarms: $n of ${planned:-?} planned cells ended" >&2; exit 1; }
fa=$(awk -F'\t' '$4 != "PASS" && $8 == ""' <<<"$cells" | wc -l)
known=$(awk -F'\t' '$4 != "PASS" && $8 != ""' <<<"$cells" | wc -l)
echo
for k in ${kernels//,/ }; do
	echo "$k: $(awk -F'\t' -v k="$k" '$1 == k && $4 != "PASS" && $8 == ""' <<<"$cells" | wc -l) false alarm(s) of $(awk -F'\t' -v k="$k" '$1 == k' <<<"$cells" | wc -l) cells"
done
echo "false alarms: $fa of $n cells"
[ "$known" -eq 0 ] || echo "known kernel bugs: $known of $n cells (marked [known: ...] above)"
echo "wall: ${wall} s; host load at the end: $(cut -d' ' -f1-3 /proc/loadavg); run: $(root_rel "$out")"
[ "$fa" -eq 0 ]
