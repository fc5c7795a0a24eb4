# Interleaved A/B runs of `htab-torture run`, sourced by bench/*_ab.sh.
# ab_interleave OUT REPS "CPUS" NAME_A "OPTS_A" NAME_B "OPTS_B" [RUN_ARGS...]:
# per vCPU count N of CPUS, repeat k with OPTS_A, then repeat k with OPTS_B,
# for k = 1..REPS (`run --boot-per-cell --repeat REPS --shard k/REPS` picks
# repeat k), so a drift of the host's speed falls on both sides alike; then
# each side's shards are joined into OUT/NAME-vN (`htab-torture merge`).
# Lines of a shard's stderr matching $AB_NOTE (an ERE) are echoed.
# AB_BOOT_PER_REPEAT=1: `--restore-boots REPS` (restored sides only: run
# refuses it with --restore off), so each repeat of a restored
# side restores a boot of its own. Without it every repeat of a side restores
# one snapshot: one boot's layout (KASLR, per-CPU areas), which a comparison
# of two sides then takes for the sides' difference (2026-12-07's A/B used
# `--boot-opt htab_ab.boot=k`, the same thing before the option existed).
# Needs $ht (the htab-torture binary). Exit status 2 on a usage or setup error.
ab_interleave() {
	ab_interleave_sides "$1" "$2" "$3" 2 "${@:4}"
}

# ab_interleave_sides OUT REPS "CPUS" SIDES NAME_1 "OPTS_1" ... NAME_SIDES
# "OPTS_SIDES" [RUN_ARGS...]: ab_interleave with SIDES sides, each repeat k
# run on every side in turn.
ab_interleave_sides() {
	local out=$1 reps=$2 cpus=$3 nsides=$4
	shift 4
	local names=() optv=() n k i r t0 rc shards per=()
	[ -z "${AB_BOOT_PER_REPEAT:-}" ] || per=(--restore-boots "$reps")
	case $reps in '' | *[!0-9]* | 0 | 1) echo "ab: $reps repeats: an integer >= 2" >&2; return 2 ;; esac
	for i in $(seq 1 "$nsides"); do
		names+=("$1")
		optv+=("$2")
		shift 2
	done
	for n in $cpus; do
		for k in $(seq 1 "$reps"); do
			for i in "${!names[@]}"; do
				r=$out/${names[i]}-v$n-s$k
				echo "=== ${names[i]}, $n vCPUs, repeat $k of $reps ($(date -u +%T) UTC, load $(cut -d' ' -f1 /proc/loadavg))"
				t0=$(date +%s.%N)
				# shellcheck disable=SC2086 # OPTS_*: words of options
				"$ht" run --cpus "$n" --boot-per-cell --repeat "$reps" --shard "$k/$reps" \
					--out "$r" "$@" ${optv[i]} "${per[@]}" > "$r.out" 2> "$r.err"
				rc=$?
				[ $rc -eq 2 ] && { tail -n 5 "$r.err" >&2; return 2; }
				awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "wall %.1f s\n", b - a }'
				[ -z "${AB_NOTE:-}" ] || grep -E "$AB_NOTE" "$r.err" || true
			done
		done
		for i in "${!names[@]}"; do
			shards=()
			for k in $(seq 1 "$reps"); do shards+=("$out/${names[i]}-v$n-s$k"); done
			rm -rf "${out:?}/${names[i]}-v$n"
			"$ht" merge "$out/${names[i]}-v$n" "${shards[@]}" > /dev/null || return 2
		done
	done
}

# ab_engines OUT "CPUS" NAME_A NAME_B "WHAT A, B": after ab_interleave of
# bpftrace set-ups, the per-phase split of both sides (bench/boot_split.sh:
# runner -> bpftrace attached is the start-up), which engine ran each
# script in how many cells, and `compare` A against B at each size.
# Needs $ht and $root.
ab_engines() {
	local out=$1 cpus=$2 a=$3 b=$4 what=$5 n r runs=()
	for n in $cpus; do runs+=("$out/$a-v$n" "$out/$b-v$n"); done
	"$root/bench/boot_split.sh" "${runs[@]}"
	echo
	echo "engines (script: engine x cells):"
	for r in "${runs[@]}"; do
		echo "  $(basename "$r"): $(jq -r '.bpftrace // {} | to_entries[] | "\(.key): \(.value.engine)"' \
			"$r"/*/cell.json | sort | uniq -c | awk '{ printf "%s %s x%s; ", $2, $3, $1 }')"
	done
	for n in $cpus; do
		echo
		echo "compare at $n vCPUs ($what; repeats interleaved):"
		"$ht" compare "$out/$a-v$n" "$out/$b-v$n"
	done
}

# ab_boot_paths RUN...: how each run's cells booted (cell.json boot_path:
# bzimage, lz4, pvh) and how many, one line a run.
ab_boot_paths() {
	local r
	echo "boot paths (cell.json boot_path x cells):"
	for r in "$@"; do
		echo "  $(basename "$r"): $(jq -r '.boot_path' "$r"/*/cell.json | sort | uniq -c | awk '{ printf "%s x%s; ", $2, $1 }')"
	done
}
