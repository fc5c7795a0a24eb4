#!/bin/bash
# The matrix runner's refusals, without a VM: --target host on this machine
# (no module loading here) says exactly why; an unknown kernel variant and a
# bad noise profile list the valid names; exit 2 and nothing written. Also
# the default matrix (no --cpus) and a resumed --out with other parameters.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir matrix_cli)
one() {	# expected rc, expected substring, args...
	local want_rc=$1 want=$2 err rc; shift 2
	err=$("$HT" "$@" 2>&1 >/dev/null); rc=$?
	expect_eq "exit of '$*'" "$rc" "$want_rc"
	[[ $err == *"$want"* ]] || fail "'$*': '$err' lacks '$want'"
	echo "ok: $err"
}
if [ ! -e /proc/modules ]; then
	one 2 "--target host: this kernel cannot load modules (no /proc/modules" \
		run --target host --cpus 1 --out "$d/h"
elif [ ! -e /sys/kernel/debug/kprobes ] && [ ! -e /sys/bus/event_source/devices/kprobe ]; then
	one 2 "no kprobes" run --target host --cpus 1 --out "$d/h"
fi
one 2 "valid: distro, " run --kernel nosuchvariant --cpus 2 --out "$d/k"
one 2 "must be one of none, cpu, vm, sched, irq" run --noise loud --cpus 2 --out "$d/n"
one 2 "--shard '3/2'" run --shard 3/2 --out "$d/s"
one 2 "merge needs OUT" merge "$d/m"
one 2 "no manifest.json" merge "$d/m" "$d"
[ -z "$(ls "$d")" ] || fail "a refused command wrote into $d: $(ls "$d")"
expect_eq "default matrix" "$("$HT" run --plan-only | tr '\n' ' ')" \
	"v16-full_update-distro-none-r0 v32-full_update-distro-none-r0 v48-full_update-distro-none-r0 v64-full_update-distro-none-r0 v96-full_update-distro-none-r0 "
"$HT" run --help | grep -q 'irq' || fail "--help lacks the noise table"
# A run directory remembers its parameters: other ones are refused.
mkdir -p "$d/r"
"$HT" run --cpus 2 --duration 3 --bpftrace none --out "$d/r" --dry-run > /dev/null || fail "dry run"
[ ! -e "$d/r/manifest.json" ] || fail "--dry-run wrote a manifest"
# --restore on: every boot starts from a snapshot (-incoming), with the ctl
# port and vmgenid; its command line names no group (a restore learns it on
# htab.ctl), so a boot of its own and a shared boot restore the same guest.
own=$("$HT" run --cpus 2 --bpftrace none --restore on --boot-per-cell --out "$d/rr" --dry-run) || fail "restore dry run"
shared=$("$HT" run --cpus 2 --bpftrace none --restore on --out "$d/rr" --dry-run | grep -v '^#') || fail "restore dry run (shared)"
for want in "htab.restore=1" "-incoming fd:3 " "name=htab.ctl" "vmgenid,guid=auto" " 3< "; do
	[[ $own == *"$want"* ]] || fail "restore dry run lacks '$want': $own"
done
[[ $shared == *"htab.group="* ]] && fail "a restored shared boot has htab.group= on its command line"
state() { grep -o " 3< [^ ]*" <<< "$1"; }
[ -n "$(state "$own")" ] || fail "restore dry run opens no state: $own"
expect_eq "one snapshot for both modes" "$(state "$own")" "$(state "$shared")"
[ ! -e "$d/rr" ] || fail "--dry-run --restore on wrote $d/rr"
# --bpftrace-preattach on, the default when restored: the scripts on the
# saved guest's command line, 384 MB more RAM, and a snapshot of its own
# (its key names the observers); off, or --restore off, none of that.
pre=$("$HT" run --cpus 2 --restore on --boot-per-cell --bpftrace-preattach on --out "$d/rr" --dry-run) ||
	fail "preattach dry run"
dflt=$("$HT" run --cpus 2 --boot-per-cell --out "$d/rr" --dry-run) || fail "default dry run"
plain=$("$HT" run --cpus 2 --restore on --boot-per-cell --bpftrace-preattach off --out "$d/rr" --dry-run) ||
	fail "plain dry run"
cold=$("$HT" run --cpus 2 --restore off --out "$d/rr" --dry-run) || fail "cold dry run"
[[ $pre == *"htab.observe=$ROOT/bpftrace/__pcpu_freelist_pop.bt"* ]] || fail "preattach: no htab.observe=: $pre"
expect_eq "preattached by default when restored" "$dflt" "$pre"
[[ $plain == *"htab.observe="* ]] && fail "htab.observe= with --bpftrace-preattach off: $plain"
[[ $cold == *"htab.observe="* ]] && fail "htab.observe= with --restore off: $cold"
mem() { grep -o -- "-m [0-9]*" <<< "$1" | cut -d' ' -f2; }
expect_eq "preattach RAM" "$(mem "$pre")" $(( $(mem "$plain") + 384 ))
[ "$(state "$pre")" != "$(state "$plain")" ] ||
	fail "a guest with observers restores the snapshot of one without"
none=$("$HT" run --cpus 2 --restore on --bpftrace none --bpftrace-preattach on --out "$d/rr" --dry-run) ||
	fail "preattach dry run without scripts"
[[ $none == *"htab.observe="* ]] && fail "htab.observe= with --bpftrace none: $none"
# --guest-mem MB: the base instead of 512 + 32 MB a vCPU up to 32 vCPUs (the
# map's and the noise's share on top) and a snapshot of its own; auto is the
# formula.
gm=$("$HT" run --cpus 2 --restore on --boot-per-cell --bpftrace-preattach off --guest-mem 1000 \
	--out "$d/rr" --dry-run) || fail "--guest-mem dry run"
expect_eq "--guest-mem 1000 RAM" "$(mem "$gm")" $(( $(mem "$plain") - 576 + 1000 ))
[ "$(state "$gm")" != "$(state "$plain")" ] || fail "--guest-mem 1000 restores the snapshot of the formula's RAM"
auto=$("$HT" run --cpus 2 --restore on --boot-per-cell --bpftrace-preattach off --guest-mem auto \
	--out "$d/rr" --dry-run) || fail "--guest-mem auto dry run"
expect_eq "--guest-mem auto is the default" "$auto" "$plain"
# --restore-boots N: repeat r restores saved boot r mod N (htab.boot=K, K > 0,
# a snapshot of its own); 1 is the default.
rb=$("$HT" run --cpus 2 --repeat 3 --restore-boots 2 --boot-per-cell --out "$d/rr" --dry-run) ||
	fail "--restore-boots dry run"
expect_eq "--restore-boots 2: htab.boot= per repeat" "$(grep -o 'htab.boot=[0-9]*' <<< "$rb" | paste -sd, -)" \
	htab.boot=1
mapfile -t st < <(grep -o " 3< [^ ]*" <<< "$rb")
expect_eq "--restore-boots 2: three restores" "${#st[@]}" 3
[ "${st[0]}" = "${st[2]}" ] && [ "${st[0]}" != "${st[1]}" ] ||
	fail "--restore-boots 2: repeats 0 and 2 restore one boot, 1 another: ${st[*]}"
expect_eq "--restore-boots 1 is the default" \
	"$("$HT" run --cpus 2 --repeat 3 --restore-boots 1 --boot-per-cell --out "$d/rr" --dry-run)" \
	"$("$HT" run --cpus 2 --repeat 3 --boot-per-cell --out "$d/rr" --dry-run)"
ram() { mem "$("$HT" run --restore on --boot-per-cell --bpftrace-preattach off --out "$d/rr" --dry-run "$@")"; }
expect_eq "the formula stops growing at 32 vCPUs" "$(ram --cpus 96)" "$(ram --cpus 32)"
expect_eq "the vm noise's workers on top (24 x 64 MB at 96 vCPUs)" "$(ram --cpus 96 --noise vm)" \
	$(( $(ram --cpus 96) + 1536 ))
expect_eq "... on --guest-mem too" "$(ram --cpus 96 --noise mixed --guest-mem 1000)" \
	$(( $(ram --cpus 96 --guest-mem 1000) + 768 ))
jq -n '{version: 1, params: {duration_s: 5}, shard: null, cells: [], runs: []}' > "$d/r/manifest.json"
one 2 "duration_s 5" run --cpus 2 --duration 3 --bpftrace none --out "$d/r"

# --plan-only --json: what scripts read instead of building ids by hand.
j=$("$HT" run --cpus 2,4 --kernel distro,6.12/fixed --fault none --fault exhaust --plan-only --json --out OUTDIR)
expect_eq "plan json cells" "$(jq length <<< "$j")" 8
expect_eq "plan json first id" "$(jq -r '.[0].id' <<< "$j")" v2-full_update-distro-none-r0
expect_eq "plan json dir" "$(jq -r '.[0].dir' <<< "$j")" OUTDIR/v2-full_update-distro-none-r0
expect_eq "plan json ids = --plan-only" "$(jq -r '.[].id' <<< "$j")" \
	"$("$HT" run --cpus 2,4 --kernel distro,6.12/fixed --fault none --fault exhaust --plan-only)"
expect_eq "plan json kernel of a line variant" \
	"$(jq -r '[.[] | select(.id | contains("6.12-fixed"))][0].kernel' <<< "$j")" 6.12/fixed
expect_eq "plan json fault" "$(jq -r '[.[].fault] | unique | join(",")' <<< "$j")" exhaust,none
usage_error "--json goes with --plan-only" run --cpus 2 --json --out "$OUT/x"
