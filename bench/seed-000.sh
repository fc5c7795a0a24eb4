#!/bin/bash
# Seed 000 beside our measurement. Runs `htab-torture compare RUN --base before-000`
# (table + RUN/compare.json), then prints the seed's own worst-case lines (a
# 16-CPU machine, full map: its figures, quoted, never ours) and our ratio of
# ops/s per CPU fixed / before-000 with its bootstrap CI, Welch p and the accelerator.
# Usage: bench/seed-000.sh RUN_DIR   (make seed-000 runs the matrix first)
# Exit: 0 printed; 1 compare found nothing to compare; 2 usage / bad RUN_DIR.
set -u
[ $# -eq 1 ] || { echo "usage: bench/seed-000.sh RUN_DIR" >&2; exit 2; }
run=$(cd "$1" 2>/dev/null && pwd) || { echo "seed-000: RUN_DIR '$1': not a directory" >&2; exit 2; }
cd "$(dirname "$0")/.." || exit 2
seed=${SEED_FILE:-$(ls seeds/000-*.txt /work/shared/seeds/000-*.txt 2>/dev/null | head -n 1)}

./harness/htab-torture compare "$run" --base before-000 || exit $?

echo
echo "== seed 000 as its author reports it (real 16-CPU machine, map_perf_test 2048, full map):"
if [ -r "$seed" ]; then
	# The two "worst: no free" blocks: before the patch, then after. Per block: the
	# first line verbatim and the range over its CPUs.
	awk '/worst: no free/ { blk++; first[blk] = ""; next }
	     blk && /worse hash_map_perf/ {
		v = $(NF - 3)
		if (first[blk] == "") { first[blk] = $0; top[blk] = v; lo[blk] = v; hi[blk] = v }
		if (v < lo[blk]) lo[blk] = v; if (v > hi[blk]) hi[blk] = v; next }
	     END { if (blk < 2) exit 1
		printf "  before: %s   (all CPUs %d..%d)\n", first[1], lo[1], hi[1]
		printf "  after:  %s  (all CPUs %d..%d)\n", first[2], lo[2], hi[2]
		printf "  seed ratio after/before: %.1fx (first lines)\n", top[2] / top[1] }' "$seed" ||
		echo "  (no 'worst: no free' blocks in $seed)"
	echo "  source: $seed"
else
	echo "  (seed file not found; set SEED_FILE)"
fi

echo
echo "== ours ($run):"
jq -r '
  (.groups[] | select(.vcpus == 16 and .workload == "full_update" and
                      .kernel_a == "before-000" and .kernel_b == "fixed")) as $g
  | ($g.metrics[] | select(.name == "module.ops_per_sec_per_cpu")) as $m
  | def f: if . == null then "-" else (. * 10 | round / 10 | tostring) end;
    def ex: .excluded | to_entries | map("\(.value) \(.key)") | join(", ") | if . == "" then "none" else . end;
    def p: if . < 0.001 then "< 0.001" else "= \(. * 1000 | round / 1000)" end;
    "  accel: \(.a.accel)\(if .tcg then "  (tcg: emulated: vCPUs share this host'"'"'s cores)" else "" end)",
    "  16 vCPUs, full_update, ops/s per CPU, mean ± stddev over PASS repeats:",
    "    before-000: \($m.a.mean | f) ± \($m.a.stddev | f)  (n=\($m.a.n); excluded: \($g.a | ex))",
    "    fixed:      \($m.b.mean | f) ± \($m.b.stddev | f)  (n=\($m.b.n); excluded: \($g.b | ex))",
    if $m.test == null then "  ratio fixed/before-000: \($m.ratio * 100 | round / 100)x — \($m.note), no interval"
    else "  ratio fixed/before-000: \($m.ratio * 100 | round / 100)x, \(.ci_level * 100 | round)% bootstrap CI [\($m.test.ratio_ci[0] * 100 | round / 100), \($m.test.ratio_ci[1] * 100 | round / 100)], Welch p \($m.test.welch.p | p)"
    end' "$run/compare.json" | grep . ||
	{ echo "  no 16-vCPU full_update cells of both before-000 and fixed in $run" >&2; exit 1; }
