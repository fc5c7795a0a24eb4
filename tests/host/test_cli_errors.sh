#!/bin/bash
# Bad input to the harness gets a one-line error naming the value and what
# is valid, and exit status 2 — before any VM is booted.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir cli_errors)
check() {	# expected-substring, args...
	local want=$1; shift
	local err rc
	err=$("$HT" "$@" 2>&1 >/dev/null); rc=$?
	expect_eq "exit status of '$*'" "$rc" 2
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "'$*': error is not one line: $err"
	[[ $err == *"$want"* ]] || fail "'$*': error '$err' lacks '$want'"
	echo "ok: '$*' -> $err"
}
check "0" run --cpus 0 --workload full_update --duration 3 --out "$d"
check "abc" run --cpus abc --workload full_update --duration 3 --out "$d"
check "nosuch" run --cpus 2 --workload nosuch --duration 3 --out "$d"
check "full_update" run --cpus 2 --workload nosuch --duration 3 --out "$d"
check "-5" run --cpus 2 --workload full_update --duration -5 --out "$d"
check "/nonexistent/vmlinuz" run --cpus 2 --workload full_update --duration 3 \
	--kernel-image /nonexistent/vmlinuz --out "$d"
check "--bogus" run --bogus
check "'601': must be an integer 0..600" run --cpus 2 --crash-grace 601 --out "$d"
check "--crash-grace 'soon'" run --cpus 2 --crash-grace soon --out "$d"
check "--restore 'maybe': must be on or off" run --cpus 2 --restore maybe --out "$d"
check "--bpftrace-aot 'yes': must be on or off" run --cpus 2 --bpftrace-aot yes --out "$d"
check "--bpftrace-preattach 'yes': must be on or off" run --cpus 2 --bpftrace-preattach yes --out "$d"
check "--bpftrace-preattach on: observers go live in a guest before it is saved (valid: with --restore on" \
	run --cpus 2 --bpftrace-preattach on --restore off --out "$d"
check "--restore on: there is no guest to save with --target host" run --cpus 2 --restore on \
	--target host --out "$d"
check "--sanitizers 'yes': must be on or off" run --cpus 2 --sanitizers yes --out "$d"
check "--guest-mem '128': must be auto or MB, an integer 256..1048576" run --cpus 2 --guest-mem 128 --out "$d"
check "--restore-boots '0': must be an integer 1..64" run --cpus 2 --restore-boots 0 --out "$d"
check "--restore-boots '65': must be an integer 1..64" run --cpus 2 --restore-boots 65 --out "$d"
check "--restore-boots 2: only restored guests share boots" run --cpus 2 --restore-boots 2 --restore off \
	--out "$d"
check "--guest-mem '2G': must be auto or MB" run --cpus 2 --guest-mem 2G --out "$d"
check "--guest-mem 1024: there is no guest with --target host" run --cpus 2 --guest-mem 1024 \
	--target host --out "$d"
check "one build flavour at a time" run --cpus 2 --debug-info on --sanitizers on --out "$d"
check "lkdtm:NAME" run --cpus 2 --test-action lkdtm:read_after_free --out "$d"
check "'lkdtm:'" run --cpus 2 --test-action lkdtm: --out "$d"
# build-kernel.sh: an unknown option names the build flavours; one at a time
err=$("$ROOT/vm-images/build-kernel.sh" --kasan fixed 2>&1); rc=$?
expect_eq "build-kernel.sh --kasan: exit" "$rc" 2
[[ $err == *"unknown option --kasan (build flavours: --btf --debug-info --sanitizers)"* ]] ||
	fail "build-kernel.sh --kasan: $err"
err=$("$ROOT/vm-images/build-kernel.sh" --sanitizers --btf fixed 2>&1); rc=$?
expect_eq "build-kernel.sh two flavours: exit" "$rc" 2
[[ $err == *"one build flavour at a time: --sanitizers and --btf"* ]] ||
	fail "build-kernel.sh two flavours: $err"
# A map no guest on this host can hold: refused up front, naming footprint, map and limit.
check "max_entries=2097152 value_size=4096 at 64 vCPUs" run --cpus 64 --map-type percpu_hash \
	--modparam max_entries=2097152 --modparam value_size=4096 --out "$d"
check "half of this host's MemTotal" run --cpus 64 --map-type percpu_hash \
	--modparam max_entries=2097152 --modparam value_size=4096 --out "$d"
# An --out longer than a path may be: refused with the limit, not cut to another directory.
check "path too long (over 4095 bytes): /" run --cpus 2 --workload full_update --duration 3 \
	--out "$d/$(printf 'x%.0s' $(seq 4100))"
[ -z "$(ls "$d")" ] || fail "a rejected run wrote into its --out"
