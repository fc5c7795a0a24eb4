#!/usr/bin/env python3
"""A QEMU wrapper (HTAB_QEMU=bench/lib/qemu_jit.py) that samples TCG's
translation cache while the guest runs: it starts qemu-system-x86_64 with
the harness's arguments plus a QMP socket of its own, and every 0.5 s
writes one line of `info jit` (HMP) to $QEMU_JIT_DIR/PID.jsonl:
{"t": seconds since QEMU started, "tb": TB count, "flush": TB flush count,
"code": generated code bytes, "buckets": TB hash buckets used, "buckets_all":
of how many, "rss_kb": QEMU's resident memory}. The first line
names the guest: {"console": the -chardev id=con path}. QEMU dies with the
wrapper (the harness kills its child), and the wrapper exits with QEMU's
status. Used by bench/tcg_jit.sh."""
import ctypes
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
SIGKILL = 9
FIELDS = {"tb": r"TB count\s+(\d+)", "flush": r"TB flush count\s+(\d+)",
          "code": r"gen code size\s+(\d+)", "buckets": r"TB hash buckets\s+(\d+)/",
          "buckets_all": r"TB hash buckets\s+\d+/(\d+)"}


def main():
    out = os.environ.get("QEMU_JIT_DIR") or sys.exit("qemu_jit.py: QEMU_JIT_DIR is not set")
    os.makedirs(out, exist_ok=True)
    sock = os.path.join(out, "qmp-%d.sock" % os.getpid())
    con = next((a for a in sys.argv[1:] if "id=con" in a), "")
    m = re.search(r"path=([^,]+)", con)
    libc = ctypes.CDLL(None)
    qemu = subprocess.Popen(["qemu-system-x86_64"] + sys.argv[1:] +
                            ["-qmp", "unix:%s,server=on,wait=off" % sock],
                            close_fds=False,
                            preexec_fn=lambda: libc.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0))
    t0 = time.monotonic()
    log = open(os.path.join(out, "%d.jsonl" % os.getpid()), "w")
    log.write(json.dumps({"console": m.group(1) if m else None}) + "\n")
    log.flush()
    threading.Thread(target=sample, args=(qemu, sock, t0, log), daemon=True).start()
    rc = qemu.wait()
    try:
        os.unlink(sock)
    except OSError:
        pass
    sys.exit(rc if rc >= 0 else 128 - rc)


def sample(qemu, sock, t0, log):
    s = socket.socket(socket.AF_UNIX)
    while qemu.poll() is None:
        try:
            s.connect(sock)
            break
        except OSError:
            time.sleep(0.05)
    f = s.makefile("rw")
    f.readline()
    call(f, {"execute": "qmp_capabilities"})
    while qemu.poll() is None:
        r = call(f, {"execute": "human-monitor-command",
                     "arguments": {"command-line": "info jit"}})
        if r is None:
            return
        rec = {"t": round(time.monotonic() - t0, 2)}
        for k, rx in FIELDS.items():
            m = re.search(rx, r.get("return", ""))
            rec[k] = int(m.group(1)) if m else None
        rec["rss_kb"] = rss_kb(qemu.pid)
        log.write(json.dumps(rec) + "\n")
        log.flush()
        time.sleep(0.5)


def rss_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def call(f, cmd):
    try:
        f.write(json.dumps(cmd) + "\n")
        f.flush()
        while True:
            line = f.readline()
            if not line:
                return None
            r = json.loads(line)
            if "return" in r or "error" in r:
                return r
    except (OSError, ValueError):
        return None


if __name__ == "__main__":
    main()
