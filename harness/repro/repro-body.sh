# The part of every repro script after its variables: `htab-torture
# repro` (harness/repro/repro.c) writes the variables, then this text
# as it is. Not run on its own.
set -u
unset HTAB_KERNEL_IMAGE HTAB_KERNEL_RELEASE

usage() {
	echo "usage: ${0##*/} [--runs N] [--scratch DIR]   (or REPRO_RUNS=N, REPRO_SCRATCH=DIR)"
	echo "  boots cell $CELL again, N times (default $RUNS), each in a fresh directory"
	echo "  under DIR (default \${TMPDIR:-/tmp}); exit 0 reproduced, 1 not, 2 setup error"
}

runs=${REPRO_RUNS:-$RUNS}
scratch=${REPRO_SCRATCH:-${TMPDIR:-/tmp}}
while [ $# -gt 0 ]; do
	case $1 in
	--runs | -n | --scratch)
		[ $# -ge 2 ] || { echo "repro: $1 needs a value" >&2; exit 2; }
		if [ "$1" = --scratch ]; then scratch=$2; else runs=$2; fi
		shift 2 ;;
	--runs=*) runs=${1#*=}; shift ;;
	--scratch=*) scratch=${1#*=}; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "repro: unknown argument '$1': takes --runs N, --scratch DIR, --help" >&2; exit 2 ;;
	esac
done
case $runs in
'' | *[!0-9]* | 0*) echo "repro: runs '$runs': must be a positive integer (1, 2, ...)" >&2; exit 2 ;;
esac

# The files the cell was run with (NEEDS: what, path, ...): all still there.
command -v jq > /dev/null || { echo "repro: missing jq (make deps installs it)" >&2; exit 2; }
[ -x "$HT" ] || {
	echo "repro: missing htab-torture: $HT (make harness; REPRO_KIT=DIR names another checkout)" >&2
	exit 2
}
set -- "${NEEDS[@]}"
while [ $# -ge 2 ]; do
	if [ -n "$2" ] && [ ! -e "$2" ]; then
		echo "repro: missing $1: $2 (cell $CELL ran with it)" >&2
		exit 2
	fi
	shift 2
done

# Nothing is written into the cell's directory, the scratch directory included.
case $(realpath -m -- "$scratch")/ in
"$(realpath -m -- "$CELL_DIR")"/*)
	echo "repro: scratch '$scratch' is inside the cell's directory $CELL_DIR: give another" >&2
	exit 2 ;;
esac
mkdir -p -- "$scratch" && base=$(mktemp -d "$scratch/repro-$CELL.XXXXXX") ||
	{ echo "repro: cannot make a directory under '$scratch'" >&2; exit 2; }
echo "repro: cell $CELL ($EXPECT_VERDICT${EXPECT_SIGNATURE:+: $EXPECT_SIGNATURE}), $runs run(s) in $base"

# norm FILE OUT CELL_DIR BOOT: FILE's lines with the run's own paths and
# boot name as @OUT, @CELL_DIR, @BOOT_DIR, @BOOT, so two runs compare.
norm() {
	local l
	# Longest first, and the bare boot name last: the scratch directory
	# (repro-CELL.XXXXXX) can hold the boot name (CELL.1) in its own name.
	while IFS= read -r l; do
		[ -n "$4" ] && l=${l//"$2/boots/$4"/@BOOT_DIR}
		l=${l//"$3"/@CELL_DIR}
		l=${l//"$2"/@OUT}
		[ -n "$4" ] && l=${l//"$4"/@BOOT}
		printf '%s\n' "$l"
	done < "$1"
}

# same_as_recorded WHAT RECORDED NEW NEW_OUT NEW_CELL_DIR NEW_BOOT: 0 equal
# (after norm), else the difference on stderr.
same_as_recorded() {
	local d
	[ -f "$3" ] || { echo "repro: attempt $i: no $1 in $5" >&2; return 1; }
	d=$(diff <(norm "$2" "$OUT_DIR" "$CELL_DIR" "$BOOT_NAME") <(norm "$3" "$4" "$5" "$6")) && return 0
	echo "repro: attempt $i: $1 differs from the cell's (< recorded, > this run):" >&2
	sed 's/^/  /' <<< "$d" >&2
	return 1
}

[ ${#ARGV[@]} -gt 0 ] && printf '%s\n' "${ARGV[@]}" > "$base/recorded.argv"
[ ${#JOB_ENV[@]} -gt 0 ] && printf '%s\n' "${JOB_ENV[@]}" > "$base/recorded.job.env"
want_title=${EXPECT_SIGNATURE% (TCG overcommit *}
hits=0 differed=0
for ((i = 1; i <= runs; i++)); do
	out=$base/attempt-$i
	"$HT" run "${RUN_ARGS[@]}" --out "$out" > "$out.log" 2>&1
	rc=$?
	cj=$(ls "$out"/*/cell.json 2> /dev/null | head -n 1)
	if [ -z "$cj" ]; then
		echo "repro: attempt $i: htab-torture run exit $rc, no cell.json (log $out.log):" >&2
		tail -n 3 "$out.log" | sed 's/^/  /' >&2
		exit 2
	fi
	c=${cj%/cell.json}
	verdict=$(jq -r '.verdict // ""' "$cj")
	sig=$(jq -r '.signature // ""' "$cj")
	# The console through the classifier that titles CRASH cells.
	console=$("$HT" scan "$c/console.log" 2>&1)
	console=${console#"$c/console.log: "}
	# A FAIL is the module's verdict (module.json), as the harness read it.
	module=
	[ "$verdict" = FAIL ] && [ -f "$c/module.json" ] &&
		module=", module.json $(jq -r '.result // "no result"' "$c/module.json")"
	if [ "$verdict" = "$EXPECT_VERDICT" ] && [ "${sig% (TCG overcommit *}" = "$want_title" ]; then
		hits=$((hits + 1)) same=same
	else
		same=different
	fi
	new_boot=$(jq -r '.boot.name // ""' "$cj")
	exact=
	if [ -f "$base/recorded.argv" ]; then
		same_as_recorded "$ARGV_NAME" "$base/recorded.argv" "$c/$ARGV_NAME" "$out" "$c" "$new_boot" ||
			exact=", $ARGV_NAME differs"
	fi
	if [ -f "$base/recorded.job.env" ]; then
		same_as_recorded job.env "$base/recorded.job.env" "$c/job.env" "$out" "$c" "$new_boot" ||
			exact+=", job.env differs"
	fi
	[ -n "$exact" ] && differed=$((differed + 1))
	echo "attempt $i/$runs: $verdict${sig:+: $sig} (console: $console$module$exact): $same"
done

[ $differed -eq 0 ] ||
	echo "repro: note: $differed of $runs run(s) did not boot as the cell did (above)"
if [ -n "$want_title" ]; then
	what="the same signature ($EXPECT_VERDICT: $want_title)"
else
	what="the same verdict ($EXPECT_VERDICT)"
fi
if [ $hits -gt 0 ]; then
	echo "repro: $what came back in $hits of $runs run(s): reproduced"
	exit 0
fi
echo "repro: $what came back in 0 of $runs run(s): not reproduced"
exit 1
