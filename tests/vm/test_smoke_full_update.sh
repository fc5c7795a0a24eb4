#!/bin/bash
# Walking-skeleton VM test: one 2-vCPU guest, full_update for 3 s with the
# __pcpu_freelist_pop bpftrace script. On a full map every update must pop an
# empty freelist and fail with E2BIG. bpftrace counts the workers' pops only
# (the controller's fill and verdict pop 2 x capacity more): its count must
# equal the workers' updates, within 0.1 % (a kretprobe can in principle
# miss a return; fentry does not: exact in practice). The module's sampled
# timing (time_sample=16, random gaps) must spread its timed ops over the 64
# positions of a step (chi-square against uniform; a fixed countdown puts
# them all in one), and it publishes its clock-read floor.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir smoke_full_update)
"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 3 --out "$d" || fail "harness exit $?"
s="$d/summary.json"
expect_eq "cells" "$(jq '.cells | length' "$s")" 1
expect_eq "verdict" "$(jq -r '.cells[0].verdict' "$s")" PASS
ops=$(jq '.cells[0].ops' "$s")
expect_cmp "ops" "$ops" ">" 0
m=$(ls "$d"/*/module.json) || fail "no module.json"
expect_eq "E2BIG == ops" "$(jq '.totals.errors.E2BIG' "$m")" "$(jq '.totals.ops' "$m")"
expect_eq "only E2BIG" "$(jq '.totals.errors | keys | join(",")' -r "$m")" E2BIG
pops=$(jq '.cells[0].pop_ns.count' "$s")
expect_cmp "pops - worker updates" "$(jq -n "($pops - $ops) | fabs")" "<=" "$(jq -n "$ops / 1000")"
c=$(ls "$d"/*/cell.json)
expect_eq "pop script counted" "$(jq -r '.bpftrace.__pcpu_freelist_pop.callers' "$c")" workers
# sampled timing: every 16th op on average, spread over the step
expect_eq "sampling recorded" "$(jq -r '.timing.time_sample' "$c")" 16
timed=$(jq '.latency_ns.update.count' "$m")
expect_cmp "timed updates" "$timed" ">" "$(jq -n "$ops / 32")"
expect_cmp "timed updates" "$timed" "<" "$(jq -n "$ops / 8")"
expect_eq "slots hold every timed op" "$(jq '.timing.timed_step_slots | add' "$m")" "$timed"
chi2=$(jq '.timing.timed_step_slots | (add / length) as $e | map((. - $e) * (. - $e) / $e) | add' "$m")
# 63 degrees of freedom: P(chi2 > 150) < 1e-8 for a uniform spread
expect_cmp "chi-square of timed step slots (63 dof)" "$chi2" "<" 150
expect_cmp "clock reads calibrated" "$(jq '.latency_ns.clock_read.count' "$c")" "==" 20000
# one percentile method (FORMAT.md): the module's printed p50/p99 and the harness's agree
for p in p50 p99; do
	expect_cmp "module.json $p - cell.json $p" "$(jq -n "($(jq ".latency_ns.update.$p" "$m") - $(jq ".latency_ns.update.$p" "$c")) | fabs")" "<=" 0.0011
done
expect_eq "accel recorded" "$(jq -r '.cells[0].accel' "$s")" "$(grep -qwE 'vmx|svm' /proc/cpuinfo && echo kvm || echo tcg)"
expect_eq "host cpus recorded" "$(jq '.host.cpus' "$c")" "$(nproc)"
expect_eq "host kernel recorded" "$(jq -r '.host.kernel' "$c")" "$(uname -r)"
# Debian's kernel has BTF: the pop script runs in its fentry form (cheaper; bench/observer).
expect_eq "pop script form" "$(jq -r '.bpftrace.__pcpu_freelist_pop.form' "$c")" fentry
# Under TCG Debian's 6.1 image (XZ) boots as the same kernel with an LZ4
# decompressor (--lz4 auto, the default); the guest's banner is the
# shipped image's kernel_version (release, builder, version string).
if [ "$(jq -r '.cells[0].accel' "$s")" = tcg ]; then
	expect_eq "boot path" "$(jq -r .boot_path "$c")" lz4
	img=$(jq -r .kernel_image "$c")
	kv=$("$ROOT/vm-images/bzimage-version.sh" "$img") || fail "no kernel_version in $img"
	banner=$(grep -o -m 1 'Linux version .*' "$(dirname "$c")/dmesg.txt")
	[[ $banner == "Linux version ${kv%%) *}) ("*") ${kv#*) }" ]] ||
		fail "the guest's banner '$banner' is not $img's '$kv'"
	echo "ok: the guest runs $img's kernel ($kv)"
fi
