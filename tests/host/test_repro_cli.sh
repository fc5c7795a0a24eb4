#!/bin/bash
# `htab-torture repro CELL_DIR`: usage errors (exit 2, one line naming the
# value and what is valid); the script's header and variables for a
# fixture cell (tests/fixtures/report) alone and with what a run leaves
# beside it (qemu.argv, job.env, manifest.json, a shared boot's
# OUT/boots/NAME/); the script's own argument errors and a missing file
# (exit 2, nothing booted). No guest: tests/vm/test_repro.sh boots.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir repro_cli)
cp -r "$ROOT/tests/fixtures/report/problems_run" "$d/run"
cell=v2-full_update-distro-none-r0
c=$d/run/$cell
# The image the cell ran with: here, not wherever this machine keeps kernels.
img=$d/vmlinuz-6.1.0-57-amd64
jq --arg i "$img" '.kernel_image = $i' "$c/cell.json" > "$d/cell.json" && mv "$d/cell.json" "$c/cell.json"

usage_error "error: '$d/none' is not a cell directory: No such file or directory" repro "$d/none"
touch "$d/file"
usage_error "error: '$d/file' is not a cell directory: not a directory" repro "$d/file"
usage_error "error: '$d/run' is not a cell directory: no cell.json" repro "$d/run"
usage_error "error: unknown option '--bogus': repro takes --output, --runs, --help" repro "$c" --bogus
for n in 0 -1 x 1.5 ''; do
	usage_error "error: --runs '$n': must be a positive integer 1..10000" repro "$c" --runs "$n"
done
usage_error "error: no cell directory" repro
usage_error "error: '$d/x': repro takes one cell directory" repro "$c" "$d/x"
mkdir -p "$d/bad"; echo '[1' > "$d/bad/cell.json"
usage_error "error: $d/bad/cell.json: not a cell.json" repro "$d/bad"
[ ! -e "$c/repro.sh" ] || fail "a refused repro wrote $c/repro.sh"

# The fixture as it is: no argv, job.env or manifest were kept.
expect_eq "repro's stdout" "$("$HT" repro "$c")" "$c/repro.sh"
s=$c/repro.sh
[ -x "$s" ] || fail "$s is not executable"
bash -n "$s" || fail "$s: not bash"
head -n 1 "$s" | grep -qx '#!/bin/bash' || fail "$s: no #!/bin/bash"
# hdr LABEL SCRIPT: the header's line of LABEL (its first 12 columns) and its continuations
hdr() { awk -v l="$1" 'NR == 1 { next } !/^#/ { exit } { k = substr($0, 3, 12); sub(/ +$/, "", k) }
	k == l { on = 1; print substr($0, 16); next } on && /^#   / { next } { on = 0 }' "$2"; }
expect_eq "expect" "$(hdr expect "$s")" \
	"CRASH: BUG: kernel NULL pointer dereference in __pcpu_freelist_pop"
expect_eq "kernel" "$(hdr kernel "$s")" \
	"label distro, name -, line -, release 6.1.0-57-amd64, build hash - (none: a distro kernel)"
expect_eq "image" "$(hdr image "$s")" "$img"
expect_eq "argv" "$(hdr argv "$s")" "(not recorded)"
expect_eq "boot" "$(hdr boot "$s")" own
# var NAME SCRIPT: the variable as the script sets it
var() { bash -c ". <(sed '/^# The part of every repro script/q' \"\$2\") && printf '%s\n' \"\${$1[@]}\"" _ "$1" "$2"; }
expect_eq "EXPECT_VERDICT" "$(var EXPECT_VERDICT "$s")" CRASH
expect_eq "RUNS" "$(var RUNS "$s")" 5
expect_eq "RUN_ARGS" "$(var RUN_ARGS "$s" | tr '\n' ' ')" \
	"--cpus=2 --workload=full_update --kernel=distro --kernel-image=$img --kernel-release=6.1.0-57-amd64 --noise=none --accel=tcg --pvh=off --lz4=off --restore=off --boot-per-cell "

# As a run leaves a cell of a shared boot: the boot's argv, the job, the manifest.
boot=v2-full_update-distro-none-r0.1
mkdir -p "$d/run/boots/$boot"
printf '%s\n' qemu-system-x86_64 -smp 2 -initrd "$d/initramfs.cpio.gz" -append \
	"console=ttyS0 htab.group=$boot" -fsdev "local,id=cell,path=$d/run" > "$d/run/boots/$boot/qemu.argv"
echo "$cell" > "$d/run/boots/$boot/cmd.1"
printf '%s\n' KERNEL_RELEASE=6.1.0-57-amd64 VCPUS=2 "MODULE=$d/htab_torture.ko" \
	"MODPARAMS='workload=full_update duration_ms=2000 selftest=oops'" > "$c/job.env"
echo '{"version": 1, "params": {"modparams": ["selftest=oops"], "timeout_s": 0}, "cells": [{"index": 0, "id": "'"$cell"'"}]}' \
	> "$d/run/manifest.json"
jq --arg m "$d/htab_torture.ko" '. + {cell: .id, kernel_name: "distro-6.1", kernel_line: "6.1",
	kernel_hash: "", module: $m, duration_s: 2, memory_mb: 577, crash_grace_s: 10,
	modparams: ["workload=full_update", "duration_ms=2000", "selftest=oops"], bpftrace_scripts: [],
	lpj: {preset: false, value: null, source: "off"}, boot_path: "bzimage", restore: null, boot_opts: [],
	boot: {mode: "shared", name: "v2-full_update-distro-none-r0.1", cell_in_boot: 1}}' \
	"$d/run/$cell/cell.json" > "$d/cell.json" && mv "$d/cell.json" "$c/cell.json"
"$HT" repro "$c" -o "$d/r.sh" --runs 3 > /dev/null || fail "repro of the shared cell: exit $?"
s=$d/r.sh
bash -n "$s" || fail "$s: not bash"
expect_eq "kernel" "$(hdr kernel "$s")" \
	"label distro, name distro-6.1, line 6.1, release 6.1.0-57-amd64, build hash - (none: a distro kernel)"
expect_eq "initramfs" "$(hdr initramfs "$s")" "$d/initramfs.cpio.gz"
expect_eq "module" "$(hdr module "$s")" "$d/htab_torture.ko"
expect_eq "modparams" "$(hdr modparams "$s")" '["workload=full_update","duration_ms=2000","selftest=oops"]'
expect_eq "accel" "$(hdr accel "$s")" "tcg, 2 vCPUs, 577 MB, 2 s, target vm"
expect_eq "boot" "$(hdr boot "$s")" \
	"shared: boot $boot, cell 1 of it (cmd.1: $cell); each attempt boots it alone, first"
expect_eq "argv from" "$(hdr 'argv from' "$s")" "$d/run/boots/$boot/qemu.argv"
grep -qx "#   MODPARAMS='workload=full_update duration_ms=2000 selftest=oops'" "$s" || fail "no job.env in $s"
expect_eq "RUNS" "$(var RUNS "$s")" 3
expect_eq "ARGV" "$(var ARGV "$s")" "$(cat "$d/run/boots/$boot/qemu.argv")"
expect_eq "INITRAMFS" "$(var INITRAMFS "$s")" "$d/initramfs.cpio.gz"
expect_eq "RUN_ARGS" "$(var RUN_ARGS "$s" | tr '\n' ' ')" \
	"--cpus=2 --workload=full_update --kernel=distro --kernel-image=$img --kernel-release=6.1.0-57-amd64 --module=$d/htab_torture.ko --noise=none --duration=2 --modparam=selftest=oops --bpftrace=none --accel=tcg --crash-grace=10 --lpj=off --pvh=off --lz4=off --restore=off "
# A cell whose guest RAM --guest-mem gave: its repro gives it too.
jq '.guest_mem = 1536' "$c/cell.json" > "$d/gm.json" && cp "$c/cell.json" "$d/cell.auto.json" && mv "$d/gm.json" "$c/cell.json"
"$HT" repro "$c" -o "$d/gm.sh" > /dev/null || fail "repro of the --guest-mem cell: exit $?"
[[ $(var RUN_ARGS "$d/gm.sh" | tr '\n' ' ') == *"--lpj=off --guest-mem=1536 --pvh=off --lz4=off"* ]] ||
	fail "repro of a --guest-mem 1536 cell: $(var RUN_ARGS "$d/gm.sh" | tr '\n' ' ')"
mv "$d/cell.auto.json" "$c/cell.json"
# A restored cell of a run with --restore-boots 3: its repro spreads its runs over 3 boots too.
jq '.restore = {snapshot: "0123456789abcdef", boot: 1, boots: 3}' "$c/cell.json" > "$d/rb.json" &&
	cp "$c/cell.json" "$d/cell.own.json" && mv "$d/rb.json" "$c/cell.json"
"$HT" repro "$c" -o "$d/rb.sh" > /dev/null || fail "repro of a --restore-boots cell: exit $?"
[[ $(var RUN_ARGS "$d/rb.sh" | tr '\n' ' ') == *"--restore=on --restore-boots=3 "* ]] ||
	fail "repro of a --restore-boots 3 cell: $(var RUN_ARGS "$d/rb.sh" | tr '\n' ' ')"
mv "$d/cell.own.json" "$c/cell.json"

# The script: its own usage errors, then a file it names that is gone. Exit 2, nothing run.
script_error() {	# WANT ARGS...: the script exits 2 saying WANT
	local want=$1 err rc; shift
	err=$(REPRO_SCRATCH=$d/scratch "$s" "$@" 2>&1 > /dev/null); rc=$?
	expect_eq "exit of the script $*" "$rc" 2
	[[ $err == *"$want"* ]] || fail "script $*: '$err' lacks '$want'"
	echo "ok: $err"
}
script_error "repro: runs 'x': must be a positive integer" --runs x
script_error "repro: runs '0': must be a positive integer" --runs 0
script_error "repro: unknown argument '--bogus'" --bogus
REPRO_RUNS=-2 script_error "repro: runs '-2': must be a positive integer"
script_error "repro: missing kernel image: $img (cell $cell ran with it)"
touch "$img"
script_error "repro: missing initramfs: $d/initramfs.cpio.gz (cell $cell ran with it)"
touch "$d/initramfs.cpio.gz"
script_error "repro: missing module: $d/htab_torture.ko (cell $cell ran with it)"
touch "$d/htab_torture.ko"
err=$(REPRO_KIT=$d/nokit "$s" 2>&1); rc=$?
expect_eq "exit without htab-torture" "$rc" 2
[[ $err == "repro: missing htab-torture: $d/nokit/harness/htab-torture"* ]] || fail "no kit: '$err'"
script_error "repro: scratch '$c/s' is inside the cell's directory $c" --scratch "$c/s"
[ ! -e "$c/s" ] || fail "the script made $c/s"
[ ! -e "$d/scratch" ] || fail "a refused script made $d/scratch"
"$s" --help | grep -q "^usage: r.sh \[--runs N\]" || fail "script --help"

# An attempt that boots as the cell did is not "differs", even where the
# scratch directory's name holds the boot's name (repro-CELL.XXXXXX
# around CELL.1). A stand-in htab-torture: its run writes the recorded
# argv and job.env with the new --out (its last argument), its scan
# calls every console clean.
k=$d/kit/harness
mkdir -p "$k"
cat > "$k/htab-torture" << EOF
#!/bin/bash
case \$1 in
scan) echo "\$2: clean" ;;
run) out=\${@: -1}
	mkdir -p "\$out/$cell"
	sed "s|$d/run|\$out|g" "$d/run/boots/$boot/qemu.argv" > "\$out/$cell/qemu.argv"
	sed "s|$d/run|\$out|g" "$c/job.env" > "\$out/$cell/job.env"
	jq -n --arg b "$boot" '{verdict: "CRASH", boot: {name: \$b},
		signature: "BUG: kernel NULL pointer dereference in __pcpu_freelist_pop"}' > "\$out/$cell/cell.json" ;;
esac
EOF
chmod +x "$k/htab-torture"
out=$(REPRO_KIT=$d/kit "$s" --runs 1 --scratch "$d/$boot-scratch" 2> "$d/same.err"); rc=$?
expect_eq "exit of an attempt as recorded" "$rc" 0
want="attempt 1/1: CRASH: BUG: kernel NULL pointer dereference in __pcpu_freelist_pop (console: clean): same"
grep -qxF "$want" <<< "$out" || fail "attempt as recorded: '$out' (stderr: $(cat "$d/same.err"))"
echo "ok: an attempt under $boot-scratch boots as the cell did"

"$HT" repro --help | grep -q '^usage: htab-torture repro CELL_DIR \[-o SCRIPT\] \[--runs N\]$' ||
	fail "repro --help: no usage line"
"$HT" --help | grep -q '^  repro ' || fail "htab-torture --help does not list repro"
echo "ok: repro --help, htab-torture --help"
