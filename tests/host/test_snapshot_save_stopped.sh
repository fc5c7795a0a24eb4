#!/bin/bash
# --restore on saves the guest stopped (run/guest/snapshot.c): the save asks
# QMP "stop" before "migrate", and the save boot runs with
# migration.store-global-state=off so a restore starts the guest without a
# "cont"; the restores do not carry that option. A live-saved 96-vCPU TCG
# guest was torn: every restore of it oopsed (bench/RESULTS.md, 2026-12-08).
# A fake QEMU plays the save boot (says "ready" on htab.ret, answers the
# monitor, runs the migration's exec: URI) and ends every restore at once.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir snapshot_save_stopped)
fake=$d/fake-qemu
cat > "$fake" <<'EOS'
#!/usr/bin/env python3
import json, os, subprocess, sys
from fake_qemu import chardev, serve_monitor
restore = "-incoming" in sys.argv
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(("restore" if restore else "save") + " " + json.dumps(sys.argv[1:]) + "\n")
if restore:
    sys.exit(0)
with open(chardev(sys.argv, "file", "ret"), "w") as f:
    f.write("ready\n")
def answer(req):
    if req["execute"] == "migrate":
        uri = req["arguments"]["uri"]
        subprocess.run(["sh", "-c", uri[len("exec:"):]], input=b"a saved guest\n", check=True)
    if req["execute"] == "query-migrate":
        return {"status": "completed"}
    return None
serve_monitor(chardev(sys.argv, "pipe", "qmp"), os.environ["FAKE_QMP"], answer)
EOS
chmod +x "$fake"
export HTAB_QEMU=$fake FAKE_LOG=$d/calls FAKE_QMP=$d/qmp HTAB_SNAPSHOT_CACHE=$d/snapshots
export PYTHONPATH=$ROOT/tests/fixtures/qemu
"$HT" run --cpus 2 --accel tcg --bpftrace none --duration 1 --lpj off --pvh off --lz4 off \
	--restore on --crash-grace 0 --out "$d/run" > "$d/run.out" 2>&1
grep -q "snapshot .*: saved" "$d/run.out" || fail "no guest saved: $(cat "$d/run.out")"
expect_eq "the save's monitor commands" "$(grep -v '^qmp_capabilities$' "$d/qmp" | paste -sd, | sed 's/\(,query-migrate\)*,quit$/,...,quit/')" \
	"stop,migrate,...,quit"
expect_eq "the save boot's store-global-state" \
	"$(grep '^save ' "$d/calls" | grep -c '"-global", "migration.store-global-state=off"')" 1
expect_eq "restores with it" "$(grep '^restore ' "$d/calls" | grep -c 'store-global-state')" 0
expect_cmp "restores" "$(grep -c '^restore ' "$d/calls")" ">" 0
expect_eq "the saved state" "$(cat "$d"/snapshots/*/state)" "a saved guest"
