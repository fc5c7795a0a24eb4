#!/bin/bash
# The kit's self-test against planted allocator bugs (`make mutants`): every
# workload at 4 vCPUs x 2 repeats on `fixed` and on each mutant kernel of
# vm-images/kernels/mutants/ (built incrementally from fixed's tree), on the
# default 4096-entry map and, with MUTANTS_SMALL=N, a second pass on an
# N-entry map whose per-CPU freelists sit near empty (pops then race for a
# list's last element; it adds kills by more workloads, none the default
# pass misses, and doubles the wall time). Then the kill table (mutant x workload@size -> verdict
# per repeat, with the signature), the mutation score, the false alarms on
# `fixed` and the crash-to-verdict latency. A cell that wedges the guest
# ends as TIMEOUT after MUTANTS_TIMEOUT (30 s; a healthy cell takes ~7 s).
# Each pass runs every caller mix of MUTANTS_CALLERS (default
# "kthread,kthread+nmi": the mutants of the NMI half, mut-*-nmi-*, are
# reached only by map ops from NMI); the table has one block a size and
# caller mix, so it stays one column a workload.
#
# A mutant is killed when, in every repeat, at least one workload's cell is
# not PASS. `fixed` must PASS every cell but those a known kernel bug
# explains (cell.json "known_bug", harness/known_bugs.json: the 6.1 NMI
# deadlock), which are counted apart and marked `*` in the table. Exit: 0
# when both hold, 1 when not, 2 when the run could not be made.
#
# Environment: MUTANTS_LINE (a kernel line of vm-images/lines/, e.g. 6.12:
# the kernels are LINE/fixed and LINE/mut-*; default the default line),
# MUTANTS_OUT (run directory), MUTANTS_CPUS (4), MUTANTS_SMALL,
# MUTANTS_CALLERS (`run --callers`, default kthread,kthread+nmi),
# MUTANTS_TIMEOUT (30 s),
# MUTANTS_REPEAT (2), MUTANTS_DURATION (3 s), MUTANTS (comma list, default
# every mutant), MUTANTS_WORKLOADS (default every workload), MUTANTS_ARGS
# (more `run` options, word-split: e.g. "--restore off" kills the mutants in
# cold-booted guests; restored ones are the default), MUTANTS_FROM (a
# finished run directory: print its table and figures, run nothing; give
# the MUTANTS_* it ran with).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. bench/lib/relpath.sh

out=${MUTANTS_OUT:-results/mutants-$(date +%Y%m%d-%H%M%S)}
cpus=${MUTANTS_CPUS:-4}
repeat=${MUTANTS_REPEAT:-2}
duration=${MUTANTS_DURATION:-3}
small=${MUTANTS_SMALL:-}
timeout=${MUTANTS_TIMEOUT:-30}
callers=${MUTANTS_CALLERS:-kthread,kthread+nmi}
pfx=${MUTANTS_LINE:+$MUTANTS_LINE/}
# the line's own list (LINE/mut-*): a mutant supports the lines its LINES names
mutants=${MUTANTS:+$(echo "$MUTANTS" | tr ',' '\n' | sed "s|^|$pfx|" | paste -sd, -)}
mutants=${mutants:-$(vm-images/build-kernel.sh --list | grep "^${pfx}mut-" | paste -sd, -)}
fixed=${pfx}fixed
workloads=${MUTANTS_WORKLOADS:-$(./harness/htab-torture run --help 2>&1 |
	sed -n 's/^workloads: //p' | tr ' ' ',')}
[ -n "$mutants" ] && [ -n "$workloads" ] || { echo "mutants: no mutants or no workloads" >&2; exit 2; }

[ -z "${MUTANTS_FROM:-}" ] || { [ -d "$MUTANTS_FROM/map-default" ] ||
	{ echo "mutants: MUTANTS_FROM=$MUTANTS_FROM: no map-default/ run in it" >&2; exit 2; }; }
out=${MUTANTS_FROM:-$out}
t0=$(date +%s)
for size in default $small; do
	[ -n "${MUTANTS_FROM:-}" ] && break
	./harness/htab-torture run --cpus "$cpus" --workload "$workloads" \
		--kernel "$fixed,$mutants" --callers "$callers" --repeat "$repeat" --duration "$duration" \
		--bpftrace none --timeout "$timeout" --out "$out/map-$size" ${MUTANTS_ARGS:-} \
		$([ "$size" = default ] || echo "--modparam max_entries=$size")
	[ $? -eq 2 ] && exit 2
done
wall=$(( $(date +%s) - t0 ))
# kept beside the run, so MUTANTS_FROM prints the same figures later
if [ -n "${MUTANTS_FROM:-}" ]; then
	wall=$(cat "$out/mutants_wall_s" 2> /dev/null || echo "?")
else
	echo "$wall" > "$out/mutants_wall_s"
fi

# One TSV row per cell: kernel workload[@size] repeat verdict signature latency accel callers known_bug
cells=$(for f in "$out"/map-*/*/cell.json; do
	size=$(basename "$(dirname "$(dirname "$f")")"); size=${size#map-}
	jq -r --arg s "$([ "$size" = default ] || echo "@$size")" \
		'[.kernel, .workload + $s, (.repeat|tostring), .verdict,
		(.signature | gsub("[\t\n]"; " ") | .[0:70]),
		((.crash.latency_s // "") | tostring), .accel, (.callers // "kthread"),
		(.known_bug.id // "")] | @tsv' "$f"
done)

# the variants' build flavour (run --sanitizers on, --debug-info on), if any
flavour=$(cat "$out"/map-*/*/cell.json 2> /dev/null | jq -rs 'map(.build_flavour // empty) | unique | join("/")')
echo
echo "# Kill table: $cpus vCPUs, $repeat repeats, ${duration} s per cell, map 4096${small:+ and @$small entries}, callers ${callers//,/ and }, accel $(cut -f7 <<<"$cells" | sort -u | paste -sd/ -)${flavour:+, kernels built --$flavour}"
echo "# (tcg: emulated; a mutant's race may need real parallelism to show)"
awk -F'\t' -v wl="$workloads" -v km="$fixed,$mutants" -v small="$small" -v cl="$callers" '
	{ v[$1 SUBSEP $2 SUBSEP $8 SUBSEP $3] = $4 ($9 == "" ? "" : "*"); reps[$3] = 1
	  if ($4 != "PASS" && !sig[$1 SUBSEP $2 SUBSEP $8])
		sig[$1 SUBSEP $2 SUBSEP $8] = $5 ($9 == "" ? "" : " [known: " $9 "]")
	  if ($9 != "") known = 1 }
	END {
		nw = split(wl, W, ","); nk = split(km, K, ","); nc = split(cl, C, ",")
		S[1] = ""; S[2] = "@" small; label[1] = "map 4096"; label[2] = "map " small
		nz = small == "" ? 1 : 2
		for (z = 1; z <= nz; z++) for (c = 1; c <= nc; c++) {
			printf "%-24s", label[z] ", " C[c]
			for (i = 1; i <= nw; i++) printf " %-20s", W[i]
			printf "\n"
			for (k = 1; k <= nk; k++) {
				printf "%-24s", K[k]
				for (i = 1; i <= nw; i++) {
					s = ""
					for (r = 0; (r "") in reps; r++) {
						x = v[K[k] SUBSEP W[i] S[z] SUBSEP C[c] SUBSEP r]
						s = s (s == "" ? "" : "/") (x == "" ? "-" : x)
					}
					printf " %-20s", s
				}
				printf "\n"
			}
			print ""
		}
		if (known) { print "# *: a known kernel bug (cell.json known_bug, harness/known_bugs.json)"; print "" }
		print "# First signature per kernel x workload[@size] x callers that was not PASS"
		for (k = 1; k <= nk; k++) for (i = 1; i <= nw; i++) for (z = 1; z <= nz; z++) for (c = 1; c <= nc; c++)
			if (sig[K[k] SUBSEP W[i] S[z] SUBSEP C[c]] != "")
				printf "%-24s %-24s %-14s %s\n", K[k], W[i] S[z], C[c], sig[K[k] SUBSEP W[i] S[z] SUBSEP C[c]]
	}' <<<"$cells"

killed=0 total=0
for m in ${mutants//,/ }; do
	total=$((total + 1))
	ok=1
	for r in $(seq 0 $((repeat - 1))); do
		awk -F'\t' -v m="$m" -v r="$r" '$1 == m && $3 == r && $4 != "PASS" { f = 1 } END { exit !f }' \
			<<<"$cells" || ok=0
	done
	killed=$((killed + ok))
done
false_alarms=$(awk -F'\t' -v f="$fixed" '$1 == f && $4 != "PASS" && $9 == ""' <<<"$cells" | wc -l)
known=$(awk -F'\t' -v f="$fixed" '$1 == f && $4 != "PASS" && $9 != ""' <<<"$cells" | wc -l)
known_ids=$(awk -F'\t' -v f="$fixed" '$1 == f && $4 != "PASS" && $9 != "" { print $9 }' <<<"$cells" |
	sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')
fixed_cells=$(awk -F'\t' -v f="$fixed" '$1 == f' <<<"$cells" | wc -l)
lat=$(awk -F'\t' '$4 == "CRASH" && $6 != "" { print $6 }' <<<"$cells" | sort -g |
	awk '{ a[NR] = $1 } END { if (NR) printf "%.1f s (median of %d crash cells, min %.1f, max %.1f)",
		(NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2), NR, a[1], a[NR]; else print "no live crash cells" }')
echo
echo "mutation score: $killed/$total mutants killed in every repeat"
echo "false alarms on $fixed: $false_alarms of $fixed_cells cells"
echo "known kernel bugs on $fixed: $known of $fixed_cells cells${known_ids:+ ($known_ids)}"
echo "crash-to-verdict latency: $lat"
echo "wall: ${wall} s; host load at the end: $(cut -d' ' -f1-3 /proc/loadavg); run: $(root_rel "$out")"
[ "$killed" -eq "$total" ] && [ "$false_alarms" -eq 0 ]
