#!/bin/bash
# --target host, positive path: this machine's kernel cannot load modules, so
# the harness runs inside a 2-vCPU guest (Debian's kernel: modules, kprobes)
# with --target host, through --job-script. The inner run must pass both
# cells (1 and 2 CPUs: the 1-CPU cell binds the module to CPU 0), with the
# module's figures, the host target recorded, and the outer cell PASS.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir target_host)
"$HT" run "${RESTORE[@]}" --cpus 2 --bpftrace none --duration 1 --job-script "$ROOT/tests/vm/jobs/target_host.sh" \
	--out "$d" || fail "outer harness exit $?; inner stderr: $(cat "$d"/*/inner.err 2>/dev/null)"
cell_dir c "$d" vcpus=2
expect_eq "outer verdict" "$(jq -r '.cells[0].verdict' "$d/summary.json")" PASS
expect_eq "inner harness exit" "$(cat "$c/inner.rc")" 0
s=$c/inner_summary.json
[ -s "$s" ] || fail "no inner summary.json; inner stderr: $(cat "$c/inner.err")"
expect_eq "inner cells" "$(jq '.cells | length' "$s")" 2
for i in 0 1; do
	expect_eq "inner cell $i verdict" "$(jq -r ".cells[$i].verdict" "$s")" PASS
	expect_eq "inner cell $i target" "$(jq -r ".cells[$i].target" "$s")" host
	expect_eq "inner cell $i accel" "$(jq -r ".cells[$i].accel" "$s")" host
	expect_cmp "inner cell $i ops" "$(jq ".cells[$i].ops" "$s")" ">" 0
done
expect_eq "1-CPU cell: one thread" "$(jq '.cells[0].nr_threads' "$s")" 1
expect_eq "1-CPU cell: cpus=0-0" "$(jq -r '.cells[0].modparams | map(select(startswith("cpus="))) | .[0]' "$s")" cpus=0-0
expect_eq "2-CPU cell: two threads" "$(jq '.cells[1].nr_threads' "$s")" 2
expect_eq "inner kernel" "$(jq -r '.cells[0].kernel' "$s")" host
grep -q 'runner: kernel' "$c"/inner/v1-*/console.log || fail "inner runner log not in its console.log"
