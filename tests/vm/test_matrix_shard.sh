#!/bin/bash
# Beyond one machine: shards 1/2 and 2/2 of a plan are disjoint and together
# the whole plan (--plan-only, a 60-cell plan); two real 2-cell shard runs
# merge into one run dir equal to the plan, which `report` accepts. merge
# refuses a duplicate cell and a different plan; the shards' shared boots
# (OUT/boots/) come along. One shard runs with
# --noise cpu: stress-ng's metrics reach cell.json.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir matrix_shard)
plan=(run --cpus 16-96:16 --workload full_update,churn --noise none,cpu --repeat 5 --plan-only)
"$HT" "${plan[@]}" > "$d/all" || fail "plan-only exit $?"
"$HT" "${plan[@]}" --shard 1/2 > "$d/s1"
"$HT" "${plan[@]}" --shard 2/2 > "$d/s2"
expect_eq "plan size" "$(wc -l < "$d/all")" 120
expect_eq "shard sizes" "$(wc -l < "$d/s1") $(wc -l < "$d/s2")" "60 60"
expect_eq "shards disjoint" "$(sort "$d/s1" "$d/s2" | uniq -d | wc -l)" 0
expect_eq "shards = plan" "$(sort "$d/s1" "$d/s2" | sha256sum)" "$(sort "$d/all" | sha256sum)"

run=(run "${RESTORE[@]}" --cpus 1,2 --noise cpu --bpftrace none --duration 2)
"$HT" "${run[@]}" --shard 1/2 --out "$d/shard1" 2> "$d/shard1.err" || fail "shard 1 exit $?"
"$HT" "${run[@]}" --shard 2/2 --out "$d/shard2" 2> "$d/shard2.err" || fail "shard 2 exit $?"
for i in 1 2; do
	"$HT" "${run[@]}" --shard $i/2 --plan-only > "$d/shard$i.plan" || fail "shard $i plan-only exit $?"
	expect_eq "shard $i: one cell" "$(wc -l < "$d/shard$i.plan")" 1
	expect_eq "shard $i ran its plan" "$(ls -d "$d"/shard$i/v*/ | xargs -n1 basename)" "$(cat "$d/shard$i.plan")"
done
"$HT" merge "$d/merged" "$d/shard1" "$d/shard2" || fail "merge exit $?"
m=$d/merged
expect_eq "merged cells = plan" "$(jq -r '.cells[].cell' "$m/summary.json" | tr '\n' ' ')" \
	"$("$HT" "${run[@]}" --plan-only | tr '\n' ' ')"
expect_eq "merged manifest: no shard" "$(jq .shard "$m/manifest.json")" null
expect_eq "merged manifest: nothing missing" "$(jq '.missing_cells | length' "$m/manifest.json")" 0
for c in "$m"/v*/cell.json; do
	expect_eq "$(basename "$(dirname "$c")") verdict" "$(jq -r .verdict "$c")" PASS
	expect_cmp "stress-ng cpu bogo ops" "$(jq '.noise_metrics.stressors.cpu.bogo_ops // 0' "$c")" ">" 0
done
cell_dir c "$m" vcpus=1
grep -q 'stress-ng --cpu 1 ' "$c/job.env" || fail "noise scaled to 1 vCPU: $(grep NOISE "$c/job.env")"
expect_eq "merged boots: each shard's" "$(ls "$m/boots" | paste -sd' ')" \
	"$(sed 's/$/.1/' "$d/shard1.plan" "$d/shard2.plan" | sort | paste -sd' ')"
"$HT" report "$m" > /dev/null || fail "report of the merged run exit $?"
[ -s "$m/report.txt" ] || fail "no report.txt"
echo "ok: report accepts the merged run"

err=$("$HT" merge "$d/dup" "$d/shard1" "$d/merged" 2>&1); rc=$?
expect_eq "merge with a duplicate cell" "$rc" 2
[[ $err == *"finished in both"* ]] || fail "duplicate message: $err"
[ -e "$d/dup" ] && fail "a refused merge wrote its OUT"
cp -r "$d/shard2" "$d/other"
jq '.params.duration_s = 9' "$d/shard2/manifest.json" > "$d/other/manifest.json"
err=$("$HT" merge "$d/mix" "$d/shard1" "$d/other" 2>&1); rc=$?
expect_eq "merge of different plans" "$rc" 2
[[ $err == *"different parameters"* ]] || fail "plan mismatch message: $err"
err=$("$HT" merge "$d/merged" "$d/shard1" 2>&1); rc=$?
expect_eq "merge into a non-empty OUT" "$rc" 2
echo "ok: merge refusals: $err"
