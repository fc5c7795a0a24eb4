#!/bin/bash
# The shared-boot protocol between the harness and a guest, with a fake QEMU
# that plays vm-images/guest/run-group.sh (no VM, seconds): it takes
# cmd.1, cmd.2, ... from OUT/boots/NAME/, leaves each cell a module.json
# (a real SUCCESS from the fixtures), prints the done line and answers on
# the port. Checked: one boot for a group of PASS cells, each cell's
# console.log its own part; a guest that says taint-512 ends its boot and
# the group's next cell boots a fresh one; a guest that dies mid-cell
# (QEMU exits) is that cell's CRASH and the rest go on; --cells-per-boot 2
# ends healthy boots after two cells and the next boot takes the plan's
# next cell (kernels interleave); --dry-run prints the same boots;
# --boot-per-cell boots every cell with no htab.group=.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir shared_boot_protocol)
fake=$d/fake-qemu
cat > "$fake" <<'EOS'
#!/bin/bash
con= ret= out= g=
for a; do
	case $a in
	file,id=con,path=*) con=${a#file,id=con,path=} ;;
	file,id=ret,path=*) ret=${a#file,id=ret,path=} ;;
	local,id=cell,path=*) out=${a#local,id=cell,path=}; out=${out%%,*} ;;
	*htab.group=*) g=${a##*htab.group=}; g=${g%% *} ;;
	esac
done
echo "boot ${g:-own}" >> "$FAKE_LOG"
echo "[    0.100000] fake kernel booting" >> "$con"
if [ -z "$g" ]; then	# a boot of its own: one cell, the share is the cell
	echo "T_BOOT_DONE=1" >> "$out/phases.env"
	cp "$FAKE_MODULE" "$out/module.json"
	echo "[1.0] runner: job /run/cell/$(basename "$out")" >> "$con"
	echo 0 > "$ret"
	exit 0
fi
B=$out/boots/$g
i=1
while :; do
	until [ -s "$B/cmd.$i" ]; do sleep 0.05; done
	id=$(cat "$B/cmd.$i")
	c=$out/$id
	echo "cell $id in $g" >> "$FAKE_LOG"
	echo "T_BOOT_DONE=1" >> "$c/phases.env"
	echo "[1.0] runner: job /run/cell/$id" >> "$con"
	. "$c/job.env"
	case ${TEST_ACTION:-} in
	panic)	printf '%s\n' "[2.0] Kernel panic - not syncing: sysrq triggered crash" \
			"[2.0] ---[ end Kernel panic - not syncing: sysrq triggered crash ]---" >> "$con"
		exit 0 ;;
	esac
	cp "$FAKE_MODULE" "$c/module.json"
	state=ok
	[ "${TEST_ACTION:-}" = hang ] && state=taint-512	# (the fake's stand-in for a taint)
	echo "htab-group: cell $i done: $id exit 0, $state" >> "$con"
	echo "cell $i 0 $state" >> "$ret"
	[ $state = ok ] || { echo "end 0" >> "$ret"; exit 0; }
	i=$((i + 1))
done
EOS
chmod +x "$fake"
export HTAB_QEMU=$fake FAKE_LOG=$d/calls FAKE_MODULE=$ROOT/tests/fixtures/module/full_update_v2_tcg.json
common=(--accel tcg --bpftrace none --duration 1 --lpj off --pvh off --lz4 off --restore off --crash-grace 0 --jobs 1)
base=v2-full_update-distro-none

# 1. Three PASS cells, one boot; each console part holds its own job only.
"$HT" run --cpus 2 --workload full_update,overwrite,churn "${common[@]}" --out "$d/one" \
	> "$d/one.out" 2> "$d/one.err" || fail "one boot: exit $?: $(cat "$d/one.err")"
expect_eq "one boot: QEMU calls" "$(grep -c '^boot' "$d/calls")" 1
expect_eq "one boot: cells in it" "$(grep -c '^cell .* in v2-full_update-distro-none-r0.1$' "$d/calls")" 3
for w in full_update overwrite churn; do
	c=$d/one/v2-$w-distro-none-r0
	expect_eq "$w verdict" "$(jq -r .verdict "$c/cell.json")" PASS
	expect_eq "$w: its console part" "$(grep -o 'job /run/cell/[^ ]*' "$c/console.log" | paste -sd' ')" \
		"job /run/cell/v2-$w-distro-none-r0"
done
expect_eq "the first part starts with the boot" \
	"$(head -n 1 "$d/one/$base-r0/console.log")" "[    0.100000] fake kernel booting"
expect_eq "boot record" "$(jq -c .boot "$d/one/v2-churn-distro-none-r0/cell.json")" \
	'{"mode":"shared","name":"v2-full_update-distro-none-r0.1","cell_in_boot":3,"state_after":"ok","went_on":true}'
expect_eq "boot end" "$(cat "$d/one/boots/$base-r0.1/end")" \
	"after cell 3 (v2-churn-distro-none-r0): its group is done (the guest said ok)"
expect_eq "exit status copied per cell" "$(cat "$d/one/v2-overwrite-distro-none-r0/exit_status")" 0

# 2. A guest that says it is not as the cell found it ends the boot (the
#    cell's own verdict stands); one that dies mid-cell is that cell's CRASH.
: > "$d/calls"
"$HT" run --cpus 2 --workload full_update --test-action none,hang,panic --repeat 2 "${common[@]}" \
	--out "$d/broken" > "$d/broken.out" 2> "$d/broken.err"
expect_eq "broken: exit" "$?" 1
expect_eq "broken: boots" "$(grep '^boot' "$d/calls" | paste -sd' ')" \
	"boot $base-r0.1 boot $base-r0-xpanic.1 boot $base-r1.1 boot $base-r1-xpanic.1"
expect_eq "r0 none, hang in one boot" "$(jq -r .boot.name "$d/broken/$base-r0-xhang/cell.json")" "$base-r0.1"
expect_eq "the taint's cell: PASS" "$(jq -r .verdict "$d/broken/$base-r0-xhang/cell.json")" PASS
expect_eq "the taint's cell: state" "$(jq -r .boot.state_after "$d/broken/$base-r0-xhang/cell.json")" taint-512
grep -q "boot $base-r0.1 ends after cell 2 ($base-r0-xhang): the guest is not as the cell found it (the guest said taint-512)" \
	"$d/broken.err" || fail "the boot's end was not said: $(grep 'ends' "$d/broken.err")"
for k in 0 1; do
	c=$d/broken/$base-r$k-xpanic
	expect_eq "r$k panic" "$(jq -r '.verdict + " " + .signature' "$c/cell.json")" \
		"CRASH kernel panic: sysrq triggered crash"
	expect_eq "r$k panic: no status, the boot ended" "$(jq -c '[.exit_status, .boot.went_on]' "$c/cell.json")" '[null,false]'
done
expect_eq "broken: the last cell PASSes on a fresh boot" "$(jq -r .verdict "$d/broken/$base-r1/cell.json")" PASS

# 3. --cells-per-boot 2 over two kernels' worth of cells: two cells a boot,
#    then the plan's next cell; --dry-run plans the same boots.
: > "$d/calls"
cap=(run --cpus 2,3 --workload full_update,overwrite,churn "${common[@]}" --cells-per-boot 2)
"$HT" "${cap[@]}" --out "$d/cap" > "$d/cap.out" 2> "$d/cap.err" || fail "cap: exit $?: $(cat "$d/cap.err")"
boots=$(grep '^boot' "$d/calls" | cut -d' ' -f2 | paste -sd' ')
expect_eq "cap: boots" "$boots" \
	"$base-r0.1 v3-full_update-distro-none-r0.1 v2-churn-distro-none-r0.1 v3-churn-distro-none-r0.1"
expect_eq "cap: dry run" "$("$HT" "${cap[@]}" --out "$d/cap-dry" --dry-run | sed -n 's/^# boot \([^:]*\):.*/\1/p' | paste -sd' ')" "$boots"
expect_eq "cap: first boot's cells" "$(grep -c " in $base-r0.1\$" "$d/calls")" 2
expect_eq "cap: boots planned" "$(grep -c '^6 cell(s) to run in 4 boot(s) if every cell PASSes (shared boots)$' "$d/cap.err")" 1

# 4. --boot-per-cell: every cell its own boot, no htab.group=.
: > "$d/calls"
"$HT" run --cpus 2 --workload full_update,overwrite "${common[@]}" --boot-per-cell --out "$d/own" \
	> "$d/own.out" 2> "$d/own.err" || fail "own: exit $?: $(cat "$d/own.err")"
expect_eq "own: boots" "$(paste -sd' ' "$d/calls")" "boot own boot own"
expect_eq "own: boots planned" "$(grep -c '^2 cell(s) to run in 2 boot(s) if every cell PASSes (a boot per cell)$' "$d/own.err")" 1
expect_eq "own: boot record" "$(jq -c .boot "$d/own/$base-r0/cell.json")" '{"mode":"own"}'
grep -q 'htab.group=' "$d/own/$base-r0/qemu.argv" && fail "--boot-per-cell: htab.group= on the command line"
[ -e "$d/own/boots" ] && fail "--boot-per-cell made OUT/boots"
usage_error "--cells-per-boot 2: cells share boots only" run --cpus 2 --out "$d/x" --boot-per-cell --cells-per-boot 2
usage_error "--cells-per-boot 'x'" run --cpus 2 --out "$d/x" --cells-per-boot x
echo "ok: shared-boot protocol"
