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
c=v2-full_update-distro-none-r0
run() {	# OUT ARGS...: the fake guests end without an exit status (CRASH): exit 1
	local out=$1; shift
	"$HT" run --cpus 2 --accel tcg --bpftrace none --duration 1 --pvh off --out "$d/$out" "$@" \
		> "$d/$out.out" 2> "$d/$out.err"
}

FAKE_LPJ=4242 run first; expect_eq "first run: exit" "$?" 1
expect_eq "first run: QEMU calls" "$(paste -sd, "$d/calls")" calibration,cell
expect_eq "first run: cell.json lpj" "$(jq -c .lpj "$d/first/$c/cell.json")" \
	'{"preset":true,"value":4242,"source":"calibrated"}'
grep -qx 'console=ttyS0 .* lpj=4242 htab\.runner=.*' "$d/first/$c/qemu.argv" || fail "qemu.argv lacks lpj=4242"
expect_eq "cache entries" "$(ls "$d/cache" | grep -vc '\.')" 1
grep -qx 'LPJ=4242' "$d/cache"/* 2>/dev/null || fail "the cache does not hold LPJ=4242"
grep -q 'lpj: calibrating /boot/vmlinuz' "$d/first.err" || fail "the calibration was not said on stderr"

: > "$d/calls"
FAKE_LPJ=9999 run second; expect_eq "second run: exit" "$?" 1
expect_eq "second run: QEMU calls (cache hit)" "$(paste -sd, "$d/calls")" cell
expect_eq "second run: cell.json lpj" "$(jq -c .lpj "$d/second/$c/cell.json")" \
	'{"preset":true,"value":4242,"source":"cache"}'

FAKE_LPJ= run opt --lpj 777 --boot-opt nokaslr
expect_eq "--lpj 777: cell.json lpj" "$(jq -c .lpj "$d/opt/$c/cell.json")" \
	'{"preset":true,"value":777,"source":"option"}'
grep -qE ' lpj=777 htab\.runner=[^ ]*( htab\.group=[^ ]*)? nokaslr$' "$d/opt/$c/qemu.argv" || fail "qemu.argv: $(grep console= "$d/opt/$c/qemu.argv")"
FAKE_LPJ= run off --lpj off
expect_eq "--lpj off: cell.json lpj" "$(jq -c .lpj "$d/off/$c/cell.json")" \
	'{"preset":false,"value":null,"source":"off"}'
grep -q 'lpj=' "$d/off/$c/qemu.argv" && fail "--lpj off: qemu.argv has lpj="
echo "ok: --lpj off boots without a preset"

# A calibration that finds no value: exit 2 before any cell, saying where to look.
: > "$d/calls"
HTAB_LPJ_CACHE=$d/cache2 FAKE_LPJ= run fails; expect_eq "failed calibration: exit" "$?" 2
expect_eq "failed calibration: QEMU calls" "$(paste -sd, "$d/calls")" calibration
grep -q "^error: lpj: the calibration boot of /boot/vmlinuz.* printed no .* see $d/cache2/.*\.console .*--lpj off" \
	"$d/fails.err" || fail "error message: $(cat "$d/fails.err")"
[ ! -e "$d/fails/$c/cell.json" ] || fail "a cell ran after the calibration failed"
echo "ok: $(grep '^error' "$d/fails.err")"

# --pvh auto: the bzImage's vmlinux is extracted once, booted
# through PVH, and lpj= is calibrated on it.
export HTAB_PVH_CACHE=$d/pvh
: > "$d/calls"
FAKE_LPJ=5151 "$HT" run --cpus 2 --accel tcg --bpftrace none --duration 1 --pvh auto --out "$d/pvh1" \
	> "$d/pvh1.out" 2> "$d/pvh1.err"
expect_eq "pvh: exit" "$?" 1
vml=$(ls "$d/pvh/"*.vmlinux)
expect_eq "pvh: cell.json boot_path" "$(jq -r .boot_path "$d/pvh1/$c/cell.json")" pvh
expect_eq "pvh: cell.json boot_image" "$(jq -r .boot_image "$d/pvh1/$c/cell.json")" "$vml"
expect_eq "pvh: -kernel" "$(sed -n '/^-kernel$/{n;p;}' "$d/pvh1/$c/qemu.argv")" "$vml"
expect_eq "pvh: lpj (calibrated on the vmlinux)" "$(jq -c .lpj "$d/pvh1/$c/cell.json")" \
	'{"preset":true,"value":5151,"source":"calibrated"}'
FAKE_LPJ= "$HT" run --cpus 2 --accel tcg --bpftrace none --duration 1 --pvh auto --out "$d/pvh2" \
	> "$d/pvh2.out" 2> "$d/pvh2.err"
grep -q '^pvh: ' "$d/pvh2.err" && fail "the second run extracted the vmlinux again"
expect_eq "pvh: second run boot_image" "$(jq -r .boot_image "$d/pvh2/$c/cell.json")" "$vml"
