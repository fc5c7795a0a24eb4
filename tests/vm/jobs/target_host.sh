# Guest job (sourced by run-job.sh via JOB_SCRIPT) for tests/vm/test_target_host.sh:
# inside the guest, whose kernel can load modules and has kprobes, run the
# harness itself with --target host (no QEMU: the runner runs right here).
# The guest's / is the host root read-only, $TMPDIR a tmpfs: the inner run
# writes to $TMPDIR and its results are copied into the cell directory.
# Returns the inner harness's exit status.
root=$(cd "$(dirname "$JOB_SCRIPT")/../../.." && pwd)
log "target_host: $root/harness/htab-torture run --target host --cpus 1,2"
"$root/harness/htab-torture" run --target host --cpus 1,2 --workload full_update \
	--duration 2 --bpftrace none --out "$TMPDIR/inner" > "$cell/inner.out" 2> "$cell/inner.err"
rc=$?
echo "$rc" > "$cell/inner.rc"
cp "$TMPDIR/inner"/summary.json "$cell/inner_summary.json" 2>/dev/null
cp "$TMPDIR/inner"/manifest.json "$cell/inner_manifest.json" 2>/dev/null
mkdir -p "$cell/inner"
cp -r "$TMPDIR/inner"/v* "$cell/inner/" 2>/dev/null
sync
log "target_host: inner harness exit $rc"
return $rc
