#!/bin/bash
# What a seeded variant's build costs (a mutant, coverage, a bisect step:
# a tree copied from its built seed, patched, configured, made): builds
# VARIANT from scratch REPEATS times and prints each build's phases from its
# build.info (prepare: the tree's copy; config; make) with its wall and CPU
# seconds, then the medians. SEEDED_BUILD_OLD=REV interleaves the
# build-kernel.sh of git revision REV: REV's build, then this one's, each
# repeat, and prints the ratios of the medians (this / REV).
# The seed (fixed, or the variant's SEED_TREE) must be built; the variant's
# tree and outputs are removed before each build (a cached build measures
# nothing). Run it alone: a neighbour's load is measured too (printed).
# Usage: bench/seeded_build.sh [VARIANT [REPEATS]]   (mut-pop-no-recheck, 3)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
variant=${1:-mut-pop-no-recheck}
reps=${2:-3}
case $reps in '' | *[!0-9]* | 0) echo "seeded_build: REPEATS '$reps': a positive integer" >&2; exit 2 ;; esac
build=${HTAB_KBUILD:-$root/vm-images/build}
bk=$root/vm-images/build-kernel.sh
"$bk" --list | grep -qx "$variant" ||
	{ echo "seeded_build: no variant '$variant' (valid: $("$bk" --list | grep -v / | tr '\n' ' '))" >&2; exit 2; }
sides=(this)
if [ -n "${SEEDED_BUILD_OLD:-}" ]; then
	# In vm-images/, beside the variants and lines it reads.
	old=$root/vm-images/.build-kernel-${SEEDED_BUILD_OLD//[^A-Za-z0-9]/_}.sh
	git -C "$root" show "$SEEDED_BUILD_OLD:vm-images/build-kernel.sh" > "$old" 2>/dev/null ||
		{ rm -f "$old"; echo "seeded_build: no vm-images/build-kernel.sh at '$SEEDED_BUILD_OLD'" >&2; exit 2; }
	chmod +x "$old"
	sides=(old this)
fi
line=$("$root/vm-images/kernel-lines.sh" line distro)
rows=$(mktemp)
trap 'rm -f "$rows" "$rows".* ${old:+"$old"}' EXIT
val() { sed -n "s/^$1=//p" "$info"; }
TIMEFORMAT='%U %S'
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "variant $line/$variant, $reps repeats${SEEDED_BUILD_OLD:+, interleaved with build-kernel.sh at $SEEDED_BUILD_OLD}"
printf '%-6s %3s %9s %9s %9s %9s %9s %6s\n' side rep prepare_s config_s make_s total_s cpu_s load
for k in $(seq 1 "$reps"); do
	for side in "${sides[@]}"; do
		script=$bk
		[ "$side" = old ] && script=$old
		rm -rf "$build/tree-$line-$variant" "$build/$line-$variant"-*/
		{ time "$script" "$variant" > /dev/null 2> "$rows.err"; } 2> "$rows.time"
		for info in "$build/$line-$variant"-*/build.info; do [ -f "$info" ] && break; done
		if [ ! -f "$info" ] || ! grep -q "seeded from" "$info"; then
			echo "seeded_build: $side repeat $k: no seeded build ($(tail -n 3 "$rows.err"))" >&2
			exit 1
		fi
		cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$rows.time")
		printf '%-6s %3d %9s %9s %9s %9s %9s %6s\n' "$side" "$k" "$(val prepare_s)" "$(val config_s)" \
			"$(val make_s)" "$(val total_s)" "$cpu" "$(cut -d' ' -f1 /proc/loadavg)"
		echo "$side $(val prepare_s) $(val config_s) $(val make_s) $(val total_s) $cpu" >> "$rows"
	done
done
echo
python3 - "$rows" <<'PY'
import statistics, sys
cols = ["prepare_s", "config_s", "make_s", "total_s", "cpu_s"]
data = {}
for l in open(sys.argv[1]):
    w = l.split()
    data.setdefault(w[0], []).append([float(x) for x in w[1:]])
med = {s: [statistics.median(r[i] for r in rows) for i in range(len(cols))] for s, rows in data.items()}
print("median %s" % " ".join("%9s" % c for c in cols))
for s, m in med.items():
    print("%-6s %s" % (s, " ".join("%9.1f" % v for v in m)))
if "old" in med:
    print("%-6s %s" % ("ratio", " ".join("%9.2f" % (t / o if o else float("nan"))
                                         for t, o in zip(med["this"], med["old"]))))
PY
