#!/bin/bash
# Boot options of issue 15 at 2 vCPUs: with --boot-opt maxcpus=1 the guest's
# init onlines the other CPU and the cell passes with possible = present =
# online = 2; a guest that ends with fewer CPUs (nr_cpus=1) fails clearly.
# Both record the boot's phases on the host clock and the lpj= preset; the
# first in a boot of its own and in a shared one.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir boot_cpus)
job=$ROOT/tests/vm/jobs/read_detectors.sh

# Both ways of booting: a boot of its own ends with the cell (power-off is
# the cell's last mark); a shared boot goes on after it (no power-off mark).
for mode in own shared; do
	extra=()
	[ $mode = own ] && extra=(--boot-per-cell)
	"$HT" run --cpus 2 --accel tcg --restore off --bpftrace none --duration 1 --job-script "$job" "${extra[@]}" \
		--boot-opt maxcpus=1 --out "$d/maxcpus-$mode" > "$d/maxcpus.out" 2> "$d/maxcpus.err" ||
		{ cat "$d/maxcpus.err"; fail "harness exit $? with maxcpus=1 ($mode)"; }
	cell_dir c "$d/maxcpus-$mode" vcpus=2
	j=$c/cell.json
	expect_eq "maxcpus=1 ($mode): boot" "$(jq -r .boot.mode "$j")" $mode
	expect_eq "maxcpus=1: verdict" "$(jq -r .verdict "$j")" PASS
	expect_eq "maxcpus=1: guest_cpus" "$(jq -c .guest_cpus "$j")" \
		'{"expected":2,"possible":2,"present":2,"online":2}'
	expect_eq "maxcpus=1: boot_opts" "$(jq -c .boot_opts "$j")" '["maxcpus=1"]'
	grep -q ' maxcpus=1' "$c/qemu.argv" || fail "qemu.argv lacks maxcpus=1"
	grep -q 'htab-init: CPUs online 0-1 (1 onlined here)' "$c/console.log" ||
		fail "init did not online CPU 1: $(grep htab-init "$c/console.log")"
	echo "ok: init onlined CPU 1"
	# The phases are in order on the host clock.
	# (A --job-script job writes no T_STRESS_END: no module_done_s.)
	chain="first_console_s:init_s init_s:cpus_online_s cpus_online_s:modules_s modules_s:runner_s"
	if [ $mode = own ]; then
		chain="$chain runner_s:power_off_s power_off_s:wall_s"
	else
		chain="$chain runner_s:wall_s"
		expect_eq "shared: no power-off mark" "$(jq .boot_phases.power_off_s "$j")" null
	fi
	for pair in $chain; do
		expect_cmp "maxcpus=1: ${pair%:*} <= ${pair#*:}" "$(jq ".boot_phases.${pair%:*}" "$j")" '<=' \
			"$(jq ".boot_phases.${pair#*:}" "$j")"
	done
done
# Under TCG lpj= is preset, the value the image printed on this host.
expect_eq "lpj.preset" "$(jq .lpj.preset "$j")" true
grep -q " lpj=$(jq .lpj.value "$j") " "$c/qemu.argv" || fail "qemu.argv lacks lpj=$(jq .lpj.value "$j")"
echo "ok: lpj=$(jq .lpj.value "$j") ($(jq -r .lpj.source "$j"))"

"$HT" run --cpus 2 --accel tcg --restore off --bpftrace none --duration 1 --job-script "$job" \
	--boot-opt nr_cpus=1 --out "$d/nr_cpus" > "$d/nr_cpus.out" 2> "$d/nr_cpus.err"
expect_eq "nr_cpus=1: harness exit" "$?" 1
cell_dir c "$d/nr_cpus" vcpus=2
j=$c/cell.json
expect_eq "nr_cpus=1: verdict" "$(jq -r .verdict "$j")" FAIL
expect_eq "nr_cpus=1: signature" "$(jq -r .signature "$j")" \
	"setup error: guest CPUs possible 1, present 1, online 1: the cell has 2 vCPUs"
expect_eq "nr_cpus=1: guest_cpus.online" "$(jq .guest_cpus.online "$j")" 1
