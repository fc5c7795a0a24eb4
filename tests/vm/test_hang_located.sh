#!/bin/bash
# Issue 25 item 2: a stuck guest says where it is stuck. Before the harness
# kills a guest that went silent, QEMU stops it over QMP and every vCPU's
# registers are read and symbolised (harness/run/guest/hang.h); the cell stays a
# TIMEOUT, its signature the hang report's title. (An idle guest's hang, on
# the distro kernel: test_hang_idle.sh.)
# 1. mut-pop-no-unlink (a CPU spins with interrupts off), when its tree is
#    built, as `make mutants` runs it (30 s host deadline): TIMEOUT "hang:
#    CPUs spinning in FUNC" (or the guest's own RCU stall report, CRASH,
#    when it comes first), every vCPU in the kernel symbolised, within 30 s of the
#    silence starting. Skipped (77) without that tree.
# 2. The same with the tree's debug-info flavour, when it is built: the
#    spinning vCPUs decoded to file:line in the allocator's files.
# run-tests: needs mut-pop-no-unlink
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir hang_located)

kb=${HTAB_KBUILD:-$ROOT/vm-images/build}
if [ ! -e "$kb/tree-6.1-mut-pop-no-unlink/System.map" ]; then
	echo "skip: no $kb/tree-6.1-mut-pop-no-unlink (vm-images/build-kernel.sh mut-pop-no-unlink builds it)"
	exit 77
fi
"$HT" run --kernel mut-pop-no-unlink --cpus 4 --workload full_update --duration 3 --bpftrace none \
	--timeout 30 --out "$d/mut" > "$d/mut.out" 2>&1
expect_eq "exit of the mutant run" $? 1
cell_dir c "$d/mut" vcpus=4
v=$(cj "$c" .verdict)
[ "$v" = TIMEOUT ] || [ "$v" = CRASH ] || fail "mutant verdict $v"
sig=$(cj "$c" .hang.signature)
[[ $sig =~ ^"hang: CPUs spinning in "[A-Za-z_][A-Za-z0-9_.]*$ ]] || fail "hang not located: $sig"
[ "$v" = CRASH ] || expect_eq "mutant signature" "$(cj "$c" .signature)" "$sig"
echo "ok: $v, $sig"
expect_eq "mutant symbols verified" "$(cj "$c" .hang.symbols.verified)" true
expect_eq "vCPUs located" "$(cj "$c" '.hang.cpus | length')" 4
# every vCPU in the kernel symbolised; one in user space (the runner's
# shell, once the other workers' window ended) has no kernel symbol
expect_eq "kernel vCPUs without a symbol" \
	"$(cj "$c" '[.hang.cpus[] | select(.mode == "kernel" and .symbol == null)] | length')" 0
expect_eq "vCPUs with a mode" "$(cj "$c" '[.hang.cpus[] | select(.mode == "kernel" or .mode == "user")] | length')" 4
expect_cmp "spinning vCPUs" "$(cj "$c" '[.hang.cpus[] | select(.state == "spinning")] | length')" ">=" 1
expect_cmp "silence to signature (s)" "$(cj "$c" .hang.latency_s)" "<=" 30
# Where they spin, to file:line (cell.json hang.decoded/where): this tree has
# no line tables, and the record says what to build.
expect_eq "no decoding without line tables" "$(cj "$c" .hang.decoded)" null
grep -qF -- "--debug-info" <<< "$(cj "$c" .hang.decode_why)" ||
	fail "decode_why does not say how: $(cj "$c" .hang.decode_why)"

# With the debug-info variant (built by `run --debug-info on`, about 15 min
# cold: not in CI's builds), the located vCPUs decoded and the first frame
# in the allocator's files named.
if [ ! -e "$kb/tree-6.1-mut-pop-no-unlink-debug/vmlinux" ]; then
	echo "ok: no $kb/tree-6.1-mut-pop-no-unlink-debug: the decoded case not run"
	exit 0
fi
"$HT" run --kernel mut-pop-no-unlink --debug-info on --cpus 4 --workload full_update \
	--duration 3 --bpftrace none --timeout 30 --out "$d/dbg" > "$d/dbg.out" 2>&1
expect_eq "exit of the debug-info run" $? 1
cell_dir c "$d/dbg" vcpus=4
[ "$(cj "$c" .verdict)" = TIMEOUT ] || { echo "ok: debug-info run ended $(cj "$c" .verdict): no hang to decode"; exit 0; }
grep -qE '^CPU [0-9]+: spinning RIP: 0010:[A-Za-z_].* \(.*:[0-9]+' <<< "$(cj "$c" .hang.decoded)" ||
	fail "spinning vCPU not decoded: $(cj "$c" .hang.decoded | head -3)"
w=$(cj "$c" '.hang.where | "\(.function) (\(.file):\(.line))"')
[[ $w =~ ^[A-Za-z_].*" (kernel/bpf/"(percpu_freelist|hashtab|bpf_lru_list|memalloc)\.[ch]:[1-9][0-9]*")"$ ]] ||
	fail "hang.where not in the allocator's files: $w"
echo "ok: located and decoded: $(cj "$c" .signature), where $w"
