#!/bin/bash
# TCG's translation cache in restored cells (issue 27): at 16 vCPUs the
# cells that start bpftrace themselves (--bpftrace-preattach off) timed
# pops 15-22 % slower than preattached ones (bench/RESULTS.md), and LLVM's
# code translated seconds before the window was the candidate: does the
# cache fill and flush during the window, and how much more does it hold?
# Runs restored cells, a boot per cell, launched and preattached
# interleaved (bench/lib/ab.sh), with QEMU wrapped by bench/lib/qemu_jit.py
# (`info jit` every 0.5 s), then prints per cell, at the start and the end
# of its measurement window (host clock, cell.json host_timings): TBs,
# TB flushes, generated code (MB), and the module's ops/s.
# Usage: bench/tcg_jit.sh [run options...]
#   TCG_JIT_CPUS (16), TCG_JIT_REPEAT (3), TCG_JIT_OUT=DIR (bench/out/tcg-jit-DATE)
# Run it alone: a neighbour's load is measured too (the load is printed).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib/relpath.sh"
. "$root/bench/lib/ab.sh"
ht=$root/harness/htab-torture
out=${TCG_JIT_OUT:-$root/bench/out/tcg-jit-$(date +%Y%m%d-%H%M%S)}
reps=${TCG_JIT_REPEAT:-3}
cpus=${TCG_JIT_CPUS:-16}
mkdir -p "$out" || exit 2
export HTAB_QEMU=$root/bench/lib/qemu_jit.py QEMU_JIT_DIR=$out/jit
echo "host: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cells: $* --accel tcg --restore on --boot-per-cell --repeat $reps, interleaved launched/preattached, vCPUs $cpus"
ab_interleave "$out" "$reps" "$cpus" launched "--bpftrace-preattach off" \
	preattached "--bpftrace-preattach on" --accel tcg --restore on "$@" || exit 2
echo
python3 - "$out" <<'PY'
import glob, json, os, re, sys
out = sys.argv[1]
print("%-12s %-5s %-34s %9s %9s %7s %7s %8s %15s %9s" % ("side", "shard", "cell", "TBs@start", "TBs@end",
      "flush@s", "flush@e", "code MB", "hash buckets", "ops/s"))
rows = []
for log in sorted(glob.glob(os.path.join(out, "jit", "*.jsonl"))):
    lines = [json.loads(l) for l in open(log) if l.strip()]
    con = lines[0].get("console") or ""
    m = re.search(r"/(launched|preattached)-v(\d+)-s(\d+)/", con)
    if not m or len(lines) < 2:
        continue            # a snapshot's saving boot, or no sample
    shard = os.path.join(out, "%s-v%s-s%s" % m.groups())
    for cj in glob.glob(os.path.join(shard, "*", "cell.json")):
        c = json.load(open(cj))
        h = c.get("host_timings") or {}
        if h.get("boot_s") is None or h.get("stress_s") is None:
            continue
        w0 = h["boot_s"] + (h.get("attach_s") or 0)
        w1 = w0 + h["stress_s"]
        at = lambda t: min(lines[1:], key=lambda r: abs(r["t"] - t))
        a, b = at(w0), at(w1)
        try:
            ops = json.load(open(os.path.join(os.path.dirname(cj), "module.json")))["totals"]["ops_per_sec"]
        except (OSError, ValueError, KeyError, TypeError):
            ops = None
        rows.append((m.group(1), "s" + m.group(3), c.get("cell", "?"), a["tb"], b["tb"], a["flush"], b["flush"],
                     (b["code"] or 0) / 1e6, "%s/%s" % (b["buckets"], b["buckets_all"]), ops))
for r in sorted(rows):
    print("%-12s %-5s %-34s %9s %9s %7s %7s %8.1f %15s %9s" % (r[0], r[1], r[2][:34], r[3], r[4], r[5], r[6], r[7],
          r[8], "%.0f" % r[9] if r[9] else "-"))
for side in ("launched", "preattached"):
    s = [r for r in rows if r[0] == side]
    if s:
        print("%s: %d cells, TBs at the window's end %d-%d, flushes in the window %d, code %.0f-%.0f MB" % (
            side, len(s), min(r[4] for r in s), max(r[4] for r in s), sum(r[6] - r[5] for r in s),
            min(r[7] for r in s), max(r[7] for r in s)))
PY
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); runs in $(root_rel "$out") (TCG results are emulated)"
