#!/bin/bash
# Walking-skeleton VM test: one 2-vCPU guest, full_update for 3 s with the
# __pcpu_freelist_pop bpftrace script. On a full map every update must pop an
# empty freelist and fail with E2BIG, and bpftrace must have seen at least
# one pop per update (the fill phase adds more).
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir smoke_full_update)
"$HT" run --cpus 2 --workload full_update --duration 3 --out "$d" || fail "harness exit $?"
s="$d/summary.json"
expect_eq "cells" "$(jq '.cells | length' "$s")" 1
expect_eq "verdict" "$(jq -r '.cells[0].verdict' "$s")" PASS
ops=$(jq '.cells[0].ops' "$s")
expect_cmp "ops" "$ops" ">" 0
m=$(ls "$d"/*/module.json) || fail "no module.json"
expect_eq "E2BIG == ops" "$(jq '.totals.errors.E2BIG' "$m")" "$(jq '.totals.ops' "$m")"
expect_eq "only E2BIG" "$(jq '.totals.errors | keys | join(",")' -r "$m")" E2BIG
expect_cmp "pop count >= ops" "$(jq '.cells[0].pop_ns.count' "$s")" ">=" "$ops"
expect_eq "accel recorded" "$(jq -r '.cells[0].accel' "$s")" "$(grep -qwE 'vmx|svm' /proc/cpuinfo && echo kvm || echo tcg)"
c=$(ls "$d"/*/cell.json)
expect_eq "host cpus recorded" "$(jq '.host.cpus' "$c")" "$(nproc)"
expect_eq "host kernel recorded" "$(jq -r '.host.kernel' "$c")" "$(uname -r)"
# Debian's kernel has BTF: the pop script runs in its fentry form (cheaper; bench/observer).
expect_eq "pop script form" "$(jq -r '.bpftrace.__pcpu_freelist_pop.form' "$c")" fentry
