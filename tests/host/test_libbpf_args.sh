#!/bin/bash
# Argument handling of the libbpf tools (bench/libbpf), on the host, no BPF
# needed: every bad value exits 2 before touching BPF, with a message on
# stderr naming the option, and nothing on stdout. -h exits 0.
. "$(dirname "$0")/../lib.sh"
make -s -C "$ROOT/bench/libbpf" > /dev/null || fail "bench/libbpf does not build"
B=$ROOT/bench/libbpf
d=$(fresh_dir libbpf_args)
bad() {	# substring-of-stderr, tool, args...
	local want=$1 tool=$2 rc; shift 2
	"$B/$tool" "$@" > "$d/out" 2> "$d/err"; rc=$?
	expect_eq "exit of $tool $*" "$rc" 2
	[ ! -s "$d/out" ] || fail "$tool $*: wrote to stdout: $(cat "$d/out")"
	grep -qF -- "$want" "$d/err" || fail "$tool $*: stderr '$(cat "$d/err")' lacks '$want'"
}
ncpu=$(nproc)
bad "invalid -n (NR_CPUS) 0" full_update_driver -n 0
bad "invalid -n (NR_CPUS) -2" full_update_driver -n -2
bad "invalid -n (NR_CPUS) $((ncpu + 1))" full_update_driver -n $((ncpu + 1))
bad "invalid -n (NR_CPUS) '1.5': not a number" full_update_driver -n 1.5
bad "invalid -d (SECONDS) 'abc': not a number" full_update_driver -d abc
bad "invalid -d (SECONDS) 0: must be in [1, 3600]" full_update_driver -d 0
bad "invalid -d (SECONDS) 3601" full_update_driver -d 3601
bad "invalid -e (MAX_ENTRIES) 0" full_update_driver -e 0
bad "invalid -e (MAX_ENTRIES) 16777217" full_update_driver -e 16777217
bad "invalid -e (MAX_ENTRIES) '99999999999999999999': out of range" full_update_driver -e 99999999999999999999
bad "invalid -l (LOOPS) 0" full_update_driver -l 0
bad "invalid -l (LOOPS) 8388609" full_update_driver -l 8388609
bad "invalid -l (LOOPS) '': not a number" full_update_driver -l ''
bad "invalid option" full_update_driver -x
bad "invalid -m x: must be update or lookup" full_update_driver -m x
bad "invalid -t array: must be hash or lru_hash" full_update_driver -m lookup -t array
bad "-t lru_hash needs -m lookup" full_update_driver -t lru_hash
bad "unexpected argument 'extra'" full_update_driver extra
bad "invalid -m (MAX_ENTRIES) 0" batch_dump -m 0
bad "invalid -m (MAX_ENTRIES) '1x': not a number" batch_dump -m 1x
bad "invalid -p (N,N,...) 60000" batch_dump -p 60000
bad "invalid -p (N,N,...) 100: must be in [0, 50]" batch_dump -p 100 -m 50
bad "invalid -p (N,N,...) 100: must be in [0, 50]" batch_dump -m 50 -p 100
for p in 1,,2 , 5, ''; do bad "invalid -p (N,N,...) '': not a number" batch_dump -p "$p"; done
bad "invalid -p (N,N,...): more than 64 counts" batch_dump -p "$(seq -s, 1 65)"
bad "invalid -r (REPEATS) 0" batch_dump -r 0
bad "invalid -b (BATCH) 60000" batch_dump -b 60000
bad "invalid -b (BATCH) -1" batch_dump -b -1
bad "invalid option" batch_dump -q
bad "unexpected argument 'foo'" batch_dump foo
for t in full_update_driver batch_dump; do
	"$B/$t" -h > "$d/out" 2>&1
	expect_eq "exit of $t -h" "$?" 0
	grep -q "^usage:\|Usage:\|usage" "$d/out" || fail "$t -h printed no usage"
done
