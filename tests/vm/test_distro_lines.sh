#!/bin/bash
# Issue 23: the Debian kernels of the 6.12 line boot with the kit's
# initramfs and the one module source, built for each on demand:
# distro-6.12 (IBT) and distro-6.12-rt (PREEMPT_RT, IBT). One 2-vCPU cell
# each, churn on a half-full map with both injectors armed at once: the
# delay must sit one instruction past the fentry site that follows the
# ENDBR64 (offset 9 = 4 + 5 on IBT, 5 without) and inject, exhaust must
# inject and lose nothing (E2BIG only, == its injections). Every cell
# records its line and what its label resolved to.
. "$(dirname "$0")/../lib.sh"
kl=$ROOT/vm-images/kernel-lines.sh
for k in distro-6.12 distro-6.12-rt; do
	"$kl" resolve "$k" > /dev/null || fail "$k is not installed (make deps installs it)"
done
d=$(fresh_dir distro_lines)
"$HT" run --cpus 2 --workload churn --kernel distro-6.12,distro-6.12-rt --duration 3 \
	--bpftrace none --modparam fill_pct=50 \
	--fault 'delay:__pcpu_freelist_pop:1us:p=0.01+exhaust:p=0.05' --out "$d" ||
	fail "harness exit $?"
for k in distro-6.12 distro-6.12-rt; do
	cell_dir c "$d" kernel=$k
	j=$c/cell.json m=$c/module.json
	expect_eq "$k verdict" "$(jq -r .verdict "$j")" PASS
	expect_eq "$k kernel_name" "$(jq -r .kernel_name "$j")" "$k"
	expect_eq "$k kernel_line" "$(jq -r .kernel_line "$j")" "${k#distro-}"	# 6.12, 6.12-rt
	expect_eq "$k release" "$(jq -r .kernel_release "$j")" "$("$kl" release "$k")"
	grep -q "^CONFIG_X86_KERNEL_IBT=y" "$(dirname "$(jq -r .kernel_image "$j")")/config-$(jq -r .kernel_release "$j")" &&
		want=9 || want=5
	expect_eq "$k delay offset (past ENDBR64 and fentry)" \
		"$(jq '.faults[] | select(.type == "delay") | .offset' "$m")" "$want"
	expect_cmp "$k delays injected" "$(jq '.faults[] | select(.type == "delay") | .injected' "$m")" ">" 0
	inj=$(jq '.faults[] | select(.type == "exhaust") | .injected' "$m")
	expect_cmp "$k exhaust injected" "$inj" ">" 0
	expect_eq "$k only E2BIG" "$(jq -r '.totals.errors | keys | join(",")' "$m")" E2BIG
	expect_eq "$k E2BIG == exhaust injections" "$(jq '.totals.errors.E2BIG' "$m")" "$inj"
	expect_eq "$k reinserted == capacity" "$(jq '.verdict.reinserted' "$m")" "$(jq '.verdict.capacity' "$m")"
	expect_no_kernel_report "$c/console.log"
done
cell_dir c "$d" kernel=distro-6.12-rt
grep -q "PREEMPT_RT" "$c/console.log" ||
	grep -q "^CONFIG_PREEMPT_RT=y" "$(dirname "$(jq -r .kernel_image "$c/cell.json")")/config-$("$kl" release distro-6.12-rt)" ||
	fail "distro-6.12-rt is not PREEMPT_RT"
