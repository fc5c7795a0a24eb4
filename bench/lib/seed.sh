# Sourced by bench/seed-00N.sh. seed_mark ID RUN...: the runs were made by a
# seed target: each RUN/manifest.json gets "seed": ID (kept by later runs on
# the same --out: the harness merges into the old manifest) and everything
# the script prints from here on is also written to each RUN/seed.txt, the
# table `report` shows.
seed_mark() {
	local id=$1 r m files=()
	shift
	for r in "$@"; do
		m=$r/manifest.json
		if [ -s "$m" ] && [ "$(jq -r '.seed // empty' "$m")" != "$id" ]; then
			jq --arg s "$id" '.seed = $s' "$m" > "$m.tmp" && mv "$m.tmp" "$m"
		fi
		files+=("$r/seed.txt")
	done
	exec > >(tee "${files[@]}")
}

. "$(dirname "${BASH_SOURCE[0]}")/relpath.sh"	# root_rel

# seed_open ID SUMMARY_REL ARGS...: the checks every seed script starts with:
# one argument RUN_DIR (else usage, exit 2), a directory holding SUMMARY_REL
# (summary.json, or bpf/summary.json ...); sets run (absolute), shown (run
# relative to the checkout's root, for printing: root_rel), sum, seeds
# (the data file), src (the seed's patch, list, date, where quoted) and
# machine; the caller is left in the repository's root. Exit 2 on each.
seed_open() {
	local id=$1 rel=$2
	shift 2
	[ $# -eq 1 ] || { echo "usage: bench/seed-$id.sh RUN_DIR" >&2; exit 2; }
	run=$(cd "$1" 2>/dev/null && pwd) || { echo "seed-$id: RUN_DIR '$1': not a directory" >&2; exit 2; }
	shown=$(root_rel "$run")
	cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
	seeds=bench/seed-tables.tsv
	sum=$run/$rel
	[ -s "$sum" ] || { echo "seed-$id: $sum: missing (not a run directory?)" >&2; exit 2; }
	src=$(awk -F '\t' -v s="$id" '$1 == s { print $2 " (" $3 ", " $4 "; " $5 ")"; exit }' "$seeds")
	[ -n "$src" ] || { echo "seed-$id: no seed $id rows in $seeds" >&2; exit 2; }
	machine=$(awk -F '\t' -v s="$id" '$1 == s { print $6; exit }' "$seeds")
}
