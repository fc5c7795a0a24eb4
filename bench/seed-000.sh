#!/bin/bash
# Seed 000 beside our measurement. Runs `htab-torture compare RUN --base before-000`
# (table + RUN/compare.json), then prints the seed's own worst-case lines (a
# 16-CPU machine, full map: its figures, quoted, never ours; and its 48-CPU
# benchmark per CPU) and our ratio of ops/s per CPU fixed / before-000 with its
# bootstrap CI, Welch p and the accelerator.
# The seed's figures are data in bench/seeds.tsv, one row per published per-CPU
# line in the order printed, with the patch, list, date and the message quoted:
#   seed patch list date quoted_from scenario machine_cpus phase cpu value unit
# Usage: bench/seed-000.sh RUN_DIR   (make seed-000 runs the matrix first)
# SEED000_LINE=6.12: the kernels are 6.12/fixed and 6.12/before-000.
# Exit: 0 printed; 1 compare found nothing to compare; 2 usage / bad RUN_DIR.
set -u
[ $# -eq 1 ] || { echo "usage: bench/seed-000.sh RUN_DIR" >&2; exit 2; }
run=$(cd "$1" 2>/dev/null && pwd) || { echo "seed-000: RUN_DIR '$1': not a directory" >&2; exit 2; }
. "$(dirname "$0")/lib/relpath.sh"
shown=$(root_rel "$run")	# printed: relative to the checkout's root
cd "$(dirname "$0")/.." || exit 2
seeds=bench/seeds.tsv
pfx=${SEED000_LINE:+$SEED000_LINE/}

./harness/htab-torture compare "$run" --base "${pfx}before-000" || exit $?

echo
echo "== seed 000 as its author reports it (real 16-CPU machine, map_perf_test 2048, full map):"
# The 16-CPU map_perf_test 2048 lines, before the patch then after: per phase
# its first line as the seed prints it and the range over its CPUs.
awk -F '\t' '$1 == "000" && $6 == "map_perf_test 2048 (full map)" && $7 == 16 {
	p = $8; v = $10 + 0
	if (!(p in top)) { top[p] = v; lo[p] = v; hi[p] = v; cpu[p] = $9
		src = $2 " (" $3 ", " $4 ", " $5 ")" }
	if (v < lo[p]) lo[p] = v; if (v > hi[p]) hi[p] = v }
     END { if (!("before" in top) || !("after" in top)) exit 1
	printf "  before: %d:worse hash_map_perf pre-alloc %d events per sec   (all CPUs %d..%d)\n", cpu["before"], top["before"], lo["before"], hi["before"]
	printf "  after:  %d:worse hash_map_perf pre-alloc %d events per sec  (all CPUs %d..%d)\n", cpu["after"], top["after"], lo["after"], hi["after"]
	printf "  seed ratio after/before: %.1fx (first lines)\n", top["after"] / top["before"]
	printf "  source: %s\n", src }' "$seeds" ||
	{ echo "seed-000: no seed 000 map_perf_test lines in $seeds" >&2; exit 2; }
echo
echo "== seed 000, 48-CPU machine, bench bpf-hashmap-full-update, events/s per CPU:"
sort -t "$(printf '\t')" -k8,8 -k10,10n "$seeds" |
awk -F '\t' '$1 == "000" && $6 == "bench bpf-hashmap-full-update" && $7 == 48 {
	p = $8; v[p, ++n[p]] = $10; src = $2 " (" $3 ", " $4 ", " $5 ")" }
     END { if (!("before" in n)) exit 1
	for (p in n) { med[p] = n[p] % 2 ? v[p, (n[p] + 1) / 2] : (v[p, n[p] / 2] + v[p, n[p] / 2 + 1]) / 2
		lo[p] = v[p, 1]; hi[p] = v[p, n[p]] }
	split("before after after_head_first", order, " ")
	for (k = 1; k <= 3; k++) if ((p = order[k]) in n)
		printf "  %-16s median %.0f  (%d CPUs: %d..%d)\n", p, med[p], n[p], lo[p], hi[p]
	printf "  seed ratio after/before: %.1fx (medians)\n", med["after"] / med["before"]
	printf "  source: %s\n", src }' ||
	{ echo "seed-000: no seed 000 48-CPU lines in $seeds" >&2; exit 2; }

echo
echo "== ours ($shown):"
jq -r '
  (.groups[] | select(.vcpus == 16 and .workload == "full_update" and
                      .kernel_a == ($p + "before-000") and .kernel_b == ($p + "fixed"))) as $g
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
    end' --arg p "$pfx" "$run/compare.json" | grep . ||
	{ echo "  no 16-vCPU full_update cells of both before-000 and fixed in $run" >&2; exit 1; }
