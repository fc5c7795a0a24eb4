#!/bin/bash
# vm-images/build-progress.sh (build-kernel.sh on a terminal): make's output
# reaches the log unchanged; the status line counts kbuild's object lines
# against the last build's count, with an ETA once time has passed.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir build_progress)
# shellcheck source=../../vm-images/build-progress.sh
. "$ROOT/vm-images/build-progress.sh"
make_out() {
	printf '%s\n' "make: Entering directory '/x/tree'" "  CC      kernel/bpf/hashtab.o" \
		"  GEN     include/generated/bounds.h" "  CC [M]  fs/9p/vfs_file.o" \
		"  AS      arch/x86/entry/entry_64.o" "  LD [M]  fs/9p/9p.ko" \
		"  HOSTCC  scripts/kallsyms" "  AR      kernel/built-in.a" \
		"  CC      init/main.o" "Kernel: arch/x86/boot/bzImage is ready  (#2)"
}
# last SEGMENT of the status (after the last \r), without the erase-to-end code
last_status() { tr '\r' '\n' < "$1" | sed 's/\x1b\[K//' | grep . | tail -n 1; }

make_out | build_progress 8 "$d/log" 2> "$d/err"
cmp <(make_out) "$d/log" || fail "the log is not make's output"
echo "ok: the log is make's output, unchanged"
expect_eq "status of 4 objects of 8" "$(last_status "$d/err")" \
	"build-kernel: make: 4/8 (50%) objects, 0m00s elapsed"

make_out | build_progress 0 "$d/log" 2> "$d/err"
expect_eq "status without a last build" "$(last_status "$d/err")" \
	"build-kernel: make: 4 objects, 0m00s elapsed"

make_out | build_progress 3 "$d/log" 2> "$d/err"
expect_eq "status past the last build" "$(last_status "$d/err")" \
	"build-kernel: make: 4 (last build: 3) objects, 0m00s elapsed"

# ETA from the rate so far: 2 of 10 in 60 s leaves 8 at 30 s each.
expect_eq "ETA" "$(build_progress_show 2 10 60 2>&1 | sed 's/\r//; s/\x1b\[K//')" \
	"build-kernel: make: 2/10 (20%) objects, 1m00s elapsed, ETA 4m00s"
# build-kernel.sh draws it only on a terminal; elsewhere make writes the log itself.
grep -q 'if \[ -t 2 \]; then' "$ROOT/vm-images/build-kernel.sh" || fail "build-kernel.sh: no TTY check"
echo "ok: build-kernel.sh checks for a terminal"
