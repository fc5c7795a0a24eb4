#!/bin/bash
# --test-action lkdtm:NAME and kmodule:NAME (issue 25 item 5): the guest
# writes NAME to LKDTM's provoke-crash/DIRECT, or inserts NAME.ko of the
# kernel's own build, so the classifier is proven on the kernel's own
# KASAN, KFENCE, UBSAN and list-corruption reports.
# 1. A kernel without LKDTM (the distro kernel's initramfs has no lkdtm.ko),
#    and a module its build does not have: the runner says so and what to
#    run instead: a setup error (FAIL), not a PASS and not a CRASH.
# 2. When the sanitizers flavour of `fixed` is built (`run --sanitizers on`,
#    about 15 min cold: not in CI's builds), a use-after-free is titled by
#    KASAN and decoded to lkdtm's file:line, an array index past its end by
#    UBSAN, KFENCE's KUnit suite by KFENCE, and an unknown crash type is
#    refused with the valid ones.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir lkdtm_action)

"$HT" run --cpus 2 --test-action lkdtm:READ_AFTER_FREE,kmodule:kfence_test --bpftrace none \
	--duration 1 "${RESTORE[@]}" --out "$d/distro" > "$d/distro.out" 2>&1
expect_eq "exit without LKDTM" $? 1
cell_dir c "$d/distro" test_action=lkdtm:READ_AFTER_FREE
expect_eq "verdict without LKDTM" "$(cj "$c" .verdict)" FAIL
grep -qF "setup error: " <<< "$(cj "$c" .signature)" || fail "signature: $(cj "$c" .signature)"
grep -qF "no /sys/kernel/debug/provoke-crash/DIRECT in this kernel (CONFIG_LKDTM: run --sanitizers on)" \
	<<< "$(cj "$c" .signature)" || fail "signature: $(cj "$c" .signature)"
cell_dir c "$d/distro" test_action=kmodule:kfence_test
expect_eq "verdict without the module" "$(cj "$c" .verdict)" FAIL
kdir=$("$ROOT/vm-images/kernel-lines.sh" resolve distro | sed 's/.* KDIR=//')
grep -qF "setup error: kmodule:kfence_test: no kfence_test.ko in $kdir (modules there: none;" \
	<<< "$(cj "$c" .signature)" || fail "signature: $(cj "$c" .signature)"
"$HT" run --cpus 2 --test-action kmodule:Kfence --out "$d/bad" > "$d/bad.out" 2>&1
expect_eq "exit on a bad module name" $? 2
grep -qF "kmodule:NAME" "$d/bad.out" || fail "bad name: valid forms not named: $(cat "$d/bad.out")"

kb=${HTAB_KBUILD:-$ROOT/vm-images/build}
if [ ! -e "$kb/tree-6.1-fixed-san/vmlinux" ]; then
	echo "ok: no $kb/tree-6.1-fixed-san: the sanitizers case not run"
	exit 0
fi
"$HT" run --kernel fixed --sanitizers on --cpus 2 --bpftrace none --duration 1 \
	--test-action lkdtm:READ_AFTER_FREE,lkdtm:ARRAY_BOUNDS,kmodule:kfence_test,lkdtm:NO_SUCH_TYPE \
	--out "$d/san" > "$d/san.out" 2>&1
cell_dir c "$d/san" test_action=lkdtm:READ_AFTER_FREE
expect_eq "use-after-free verdict" "$(cj "$c" .verdict)" CRASH
expect_eq "use-after-free signature" "$(cj "$c" .signature)" "KASAN: use-after-free in lkdtm_READ_AFTER_FREE"
expect_eq "crash kind" "$(cj "$c" .crash.kind)" kasan
grep -qE 'lkdtm_READ_AFTER_FREE(\.cold)? \(drivers/misc/lkdtm/heap\.c:[0-9]+' <<< "$(cj "$c" .crash.decoded)" ||
	fail "KASAN report not decoded to lkdtm's file:line"
cell_dir c "$d/san" test_action=lkdtm:ARRAY_BOUNDS
expect_eq "array bounds verdict" "$(cj "$c" .verdict)" CRASH
expect_eq "array bounds kind" "$(cj "$c" .crash.kind)" ubsan
expect_eq "array bounds signature" "$(cj "$c" .signature)" "UBSAN: array-index-out-of-bounds in lkdtm_ARRAY_BOUNDS"
cell_dir c "$d/san" test_action=kmodule:kfence_test
expect_eq "KFENCE suite verdict" "$(cj "$c" .verdict)" CRASH
expect_eq "KFENCE suite kind" "$(cj "$c" .crash.kind)" kfence
expect_eq "KFENCE suite signature" "$(cj "$c" .signature)" "KFENCE: out-of-bounds read in test_out_of_bounds_read"
cell_dir c "$d/san" test_action=lkdtm:NO_SUCH_TYPE
expect_eq "unknown type verdict" "$(cj "$c" .verdict)" FAIL
grep -qF "lkdtm:NO_SUCH_TYPE: not an LKDTM crash type of this kernel (valid: " <<< "$(cj "$c" .signature)" ||
	fail "signature: $(cj "$c" .signature)"
# the signature is one bounded line; the runner's log has the whole list
grep -qw READ_AFTER_FREE "$c/guest.log" || fail "valid types not listed: $(cat "$c/guest.log")"
