#!/bin/bash
# A boot that stalls under TCG overcommit before the runner starts (seen:
# "soft lockup in alg_test" during the crypto self-tests, 8 vCPUs on 2 cores)
# is booted once more (verdict_boot_retry); the second attempt's verdict
# stands and cell.json says what it replaced. With a fake QEMU whose guest
# always stalls: two boots, CRASH, the first attempt kept beside the second;
# without overcommit (vCPUs <= host cores) one boot. A guest that goes
# silent before its runner (seen in CI: 2 vCPUs on 2 cores beside a kernel
# build, the console silent from 6.6 s) is booted again at any overcommit:
# two boots, TIMEOUT, both attempts said.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir boot_stall_retry)
fake=$d/fake-qemu
cat > "$fake" <<'EOS'
#!/bin/sh
con= prev=
for a; do
	[ "$prev" = -chardev ] && case $a in file,id=con,path=*) con=${a#file,id=con,path=} ;; esac
	prev=$a
done
echo boot >> "$FAKE_LOG"
if [ "${FAKE_SILENT:-}" ]; then
	echo "[    0.024000] tsc: Unable to calibrate against PIT" > "$con"
	exec sleep 60
fi
printf '%s\n' "[    0.741956] mtrr: your CPUs had inconsistent fixed MTRR settings" \
	"[  112.582659] watchdog: BUG: soft lockup - CPU#0 stuck for 104s! [cryptomgr_test:83]" \
	"[  112.582874] CPU: 0 PID: 83 Comm: cryptomgr_test Not tainted 6.1.0-57-amd64 #1" \
	"[  112.582874] RIP: 0010:alg_test+0x4f/0x540" \
	"[  112.582874] Call Trace:" "[  112.582874]  <TASK>" \
	"[  112.582874]  cryptomgr_test+0x27/0x50" "[  112.582874]  </TASK>" > "$con"
exit 0
EOS
chmod +x "$fake"
export HTAB_QEMU=$fake FAKE_LOG=$d/calls
over=$(( $(nproc) * 4 ))
"$HT" run --cpus "$over" --accel tcg --bpftrace none --duration 1 --lpj off --pvh off --lz4 off --restore off --crash-grace 0 \
	--out "$d/over" > "$d/over.out" 2> "$d/over.err"
expect_eq "exit (CRASH)" "$?" 1
expect_eq "boots" "$(paste -sd, "$d/calls")" boot,boot
cell_dir c "$d/over" vcpus="$over"
j=$c/cell.json
expect_eq "verdict" "$(jq -r .verdict "$j")" CRASH
expect_eq "signature" "$(jq -r .signature "$j")" "BUG: soft lockup in alg_test (TCG overcommit 4×)"
expect_eq "attempt" "$(jq .attempt "$j")" 2
expect_eq "boot_retried" "$(jq -c .boot_retried "$j")" \
	'{"verdict":"CRASH","signature":"BUG: soft lockup in alg_test (TCG overcommit 4×)","console":"console-boot-stall-1.log"}'
expect_eq "no retry asked of the last attempt" "$(jq .boot_retry "$j")" null
[ -s "$c/console-boot-stall-1.log" ] || fail "the first attempt's console is gone"
expect_eq "first attempt kept" "$(jq -r .boot_retry "$c/boot-stall-1.json")" true
grep -q "${c##*/}: CRASH: BUG: soft lockup in alg_test (TCG overcommit 4×) while booting under TCG (the kernel not exercised yet); booting it again" \
	"$d/over.out" "$d/over.err" || fail "the retry was not said"
expect_eq "summary holds the cell once" "$(jq '.cells | length' "$d/over/summary.json")" 1

: > "$d/calls"
n=$(nproc)
"$HT" run --cpus "$n" --accel tcg --bpftrace none --duration 1 --lpj off --pvh off --lz4 off --restore off --crash-grace 0 \
	--out "$d/fit" > "$d/fit.out" 2> "$d/fit.err"
expect_eq "no overcommit: exit" "$?" 1
expect_eq "no overcommit: boots" "$(paste -sd, "$d/calls")" boot
cell_dir c "$d/fit" vcpus="$n"
expect_eq "no overcommit: boot_retried" "$(jq .boot_retried "$c/cell.json")" null

: > "$d/calls"
FAKE_SILENT=1 "$HT" run --cpus "$n" --accel tcg --bpftrace none --duration 1 --lpj off --pvh off --lz4 off --restore off \
	--timeout 10 --out "$d/silent" > "$d/silent.out" 2> "$d/silent.err"
expect_eq "silent boot: exit (TIMEOUT)" "$?" 1
expect_eq "silent boot: boots" "$(paste -sd, "$d/calls")" boot,boot
cell_dir c "$d/silent" vcpus="$n"
j=$c/cell.json
expect_eq "silent boot: verdict" "$(jq -r .verdict "$j")" TIMEOUT
expect_eq "silent boot: attempt" "$(jq .attempt "$j")" 2
expect_eq "silent boot: boot_retried" "$(jq -r .boot_retried.verdict "$j")" TIMEOUT
expect_eq "silent boot: the boot's silence limit, capped by --timeout" "$(jq .timeouts.boot_quiet_s "$j")" 10
grep -q "TIMEOUT: .* while booting under TCG (the kernel not exercised yet); booting it again" \
	"$d/silent.out" "$d/silent.err" || fail "the silent boot's retry was not said"
