#!/bin/bash
# lpj= and the PVH boot under TCG (issue 15), end to end with a fake QEMU (no
# guest boots; --pvh off but in the last part): the
# first run calibrates (a -smp 1 boot whose console gives lpj=), caches it and
# puts it on every cell's command line; the next run reads the cache; --lpj N
# and off override; a calibration boot that prints no value is an error
# naming its console and --lpj off, before any cell runs.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir lpj_calibration)
fake=$d/fake-qemu
cat > "$fake" <<'EOS'
#!/bin/sh
# The console file of -chardev file,id=con,path=P; a -smp 1 boot is the calibration.
con= prev=
for a; do
	[ "$prev" = -chardev ] && case $a in file,id=con,path=*) con=${a#file,id=con,path=} ;; esac
	prev=$a
done
case " $* " in
*" -smp 1 "*)
	echo calibration >> "$FAKE_LOG"
	[ -z "$FAKE_LPJ" ] || printf '%s\n' "[    0.024000] tsc: Detected 2094.643 MHz processor" \
		"[    0.002604] Calibrating delay loop (skipped), value calculated using timer frequency.. 4189.28 BogoMIPS (lpj=$FAKE_LPJ)" > "$con" ;;
*) echo cell >> "$FAKE_LOG"; echo "fake guest" > "$con" ;;
esac
exit 0
EOS
chmod +x "$fake"
export HTAB_QEMU=$fake HTAB_LPJ_CACHE=$d/cache FAKE_LOG=$d/calls
run() {	# OUT ARGS...: the fake guests end without an exit status (CRASH): exit 1
	local out=$1; shift
	"$HT" run --cpus 2 --accel tcg --bpftrace none --duration 1 --restore off --pvh off --lz4 off --out "$d/$out" "$@" \
		> "$d/$out.out" 2> "$d/$out.err"
}

FAKE_LPJ=4242 run first; expect_eq "first run: exit" "$?" 1
cell_dir first "$d/first" vcpus=2
expect_eq "first run: QEMU calls" "$(paste -sd, "$d/calls")" calibration,cell
expect_eq "first run: cell.json lpj" "$(jq -c .lpj "$first/cell.json")" \
	'{"preset":true,"value":4242,"source":"calibrated"}'
grep -qx 'console=ttyS0 .* lpj=4242 htab\.runner=.*' "$first/qemu.argv" || fail "qemu.argv lacks lpj=4242"
expect_eq "cache entries" "$(ls "$d/cache" | grep -vc '\.')" 1
grep -qx 'LPJ=4242' "$d/cache"/* 2>/dev/null || fail "the cache does not hold LPJ=4242"
grep -q 'lpj: calibrating [^ ]*/boot/vmlinuz' "$d/first.err" || fail "the calibration was not said on stderr"

: > "$d/calls"
FAKE_LPJ=9999 run second; expect_eq "second run: exit" "$?" 1
cell_dir second "$d/second" vcpus=2
expect_eq "second run: QEMU calls (cache hit)" "$(paste -sd, "$d/calls")" cell
expect_eq "second run: cell.json lpj" "$(jq -c .lpj "$second/cell.json")" \
	'{"preset":true,"value":4242,"source":"cache"}'

FAKE_LPJ= run opt --lpj 777 --boot-opt nokaslr
cell_dir opt "$d/opt" vcpus=2
expect_eq "--lpj 777: cell.json lpj" "$(jq -c .lpj "$opt/cell.json")" \
	'{"preset":true,"value":777,"source":"option"}'
grep -qE ' lpj=777 htab\.runner=[^ ]*( htab\.group=[^ ]*)? nokaslr$' "$opt/qemu.argv" || fail "qemu.argv: $(grep console= "$opt/qemu.argv")"
FAKE_LPJ= run off --lpj off
cell_dir off "$d/off" vcpus=2
expect_eq "--lpj off: cell.json lpj" "$(jq -c .lpj "$off/cell.json")" \
	'{"preset":false,"value":null,"source":"off"}'
grep -q 'lpj=' "$off/qemu.argv" && fail "--lpj off: qemu.argv has lpj="
echo "ok: --lpj off boots without a preset"

# A calibration that finds no value: exit 2 before any cell, saying where to look.
: > "$d/calls"
HTAB_LPJ_CACHE=$d/cache2 FAKE_LPJ= run fails; expect_eq "failed calibration: exit" "$?" 2
expect_eq "failed calibration: QEMU calls" "$(paste -sd, "$d/calls")" calibration
grep -q "^error: lpj: the calibration boot of [^ ]*/boot/vmlinuz.* printed no .* see $d/cache2/.*\.console .*--lpj off" \
	"$d/fails.err" || fail "error message: $(cat "$d/fails.err")"
! compgen -G "$d/fails/*/cell.json" > /dev/null || fail "a cell ran after the calibration failed"
echo "ok: $(grep '^error' "$d/fails.err")"

# --pvh auto: the bzImage's vmlinux is extracted once, booted
# through PVH, and lpj= is calibrated on it.
export HTAB_PVH_CACHE=$d/pvh
: > "$d/calls"
FAKE_LPJ=5151 "$HT" run --cpus 2 --accel tcg --bpftrace none --duration 1 --restore off --pvh auto --out "$d/pvh1" \
	> "$d/pvh1.out" 2> "$d/pvh1.err"
expect_eq "pvh: exit" "$?" 1
cell_dir pvh1 "$d/pvh1" vcpus=2
vml=$(ls "$d/pvh/"*.vmlinux)
expect_eq "pvh: cell.json boot_path" "$(jq -r .boot_path "$pvh1/cell.json")" pvh
expect_eq "pvh: cell.json boot_image" "$(jq -r .boot_image "$pvh1/cell.json")" "$vml"
expect_eq "pvh: -kernel" "$(sed -n '/^-kernel$/{n;p;}' "$pvh1/qemu.argv")" "$vml"
expect_eq "pvh: lpj (calibrated on the vmlinux)" "$(jq -c .lpj "$pvh1/cell.json")" \
	'{"preset":true,"value":5151,"source":"calibrated"}'
FAKE_LPJ= "$HT" run --cpus 2 --accel tcg --bpftrace none --duration 1 --restore off --pvh auto --out "$d/pvh2" \
	> "$d/pvh2.out" 2> "$d/pvh2.err"
cell_dir pvh2 "$d/pvh2" vcpus=2
grep -q '^pvh: ' "$d/pvh2.err" && fail "the second run extracted the vmlinux again"
expect_eq "pvh: second run boot_image" "$(jq -r .boot_image "$pvh2/cell.json")" "$vml"
