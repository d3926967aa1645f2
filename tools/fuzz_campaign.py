#!/usr/bin/env python3
"""tools/fuzz_campaign.py - make fuzz-campaign: many fuzz sessions, one
line each, and the totals (docs/fuzzing.md, "A campaign").

    fuzz_campaign.py KERNEL INITRD --first SEED --seeds N --calls C
                     --cpus "1 4" --jobs J --workers W OUTDIR

Boots /bin/fuzz -s SEED -n C -w W as init, as `make fuzz` does
(tools/fuzz.sh), for N seeds from SEED at each CPU count of --cpus, J
QEMUs at a time: a fuzz session spends most of its time in the guest's
own waits (a stalled worker is killed after 3 s), so several share a
host core. Each log is OUTDIR/fuzz-SEED-smpN.log. A session passes when
the fuzzer says "seed ... passed" and init exits with status 0; it
fails on a panic, on any other ending, and on a hang: no ending within
the time limit (60 s plus 10 ms a call, several times what a session
takes on a busy host). The closing lines give the calls made (as each
session's own count says), the failures by kind and the sessions; exit
status 1 if any failed. Every failing line says how to run it again
alone with make fuzz. The last line, "K of N sessions clean", is the
verdict.
"""
import argparse
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

STOPPED_RE = re.compile(r"^fuzz: seed 0x[0-9a-f]+ stopped after (\d+) calls", re.M)
PASSED_RE = re.compile(r"^fuzz: seed 0x[0-9a-f]+ passed$", re.M)
INIT_RE = re.compile(r"^init exited with status (\d+)$", re.M)


def session(kernel, initrd, seed, cpus, calls, workers, outdir):
    """One fuzz session: (seed, cpus, verdict or None, calls, seconds)."""
    log = os.path.join(outdir, "fuzz-%d-smp%d.log" % (seed, cpus))
    cmd = ["qemu-system-i386", "-m", "128", "-smp", str(cpus), "-display", "none",
           "-no-reboot", "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
           "-kernel", kernel, "-initrd", initrd,
           "-append", "init=/bin/fuzz -- -s %d -n %d -w %d" % (seed, calls, workers),
           "-serial", "stdio"]
    limit = 60 + calls / 100
    start = time.time()
    with open(log, "wb") as f:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=f,
                             stderr=subprocess.STDOUT)
        try:
            p.wait(timeout=limit)
            hung = False
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            hung = True
    secs = time.time() - start
    with open(log, "rb") as f:
        out = f.read().decode("latin-1").replace("\r", "")
    m = STOPPED_RE.search(out)
    made = int(m.group(1)) if m else 0
    init = INIT_RE.search(out)
    if re.search(r"^PANIC", out, re.M):
        verdict = "panic"
    elif hung:
        verdict = "hang (no ending in %d s)" % limit
    elif PASSED_RE.search(out) and init and init.group(1) == "0":
        verdict = None
    else:
        verdict = "failed: init status %s" % (init.group(1) if init else "none")
    return seed, cpus, verdict, made, secs, log


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kernel")
    ap.add_argument("initrd")
    ap.add_argument("outdir")
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--calls", type=int, default=100000)
    ap.add_argument("--cpus", default="1 4")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--workers", type=int, default=6)
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    runs = [(seed, int(c)) for seed in range(a.first, a.first + a.seeds)
            for c in a.cpus.split()]
    print("fuzz-campaign: %d sessions of %d calls (seeds %d..%d at -smp %s), %d at a time; "
          "logs in %s" % (len(runs), a.calls, a.first, a.first + a.seeds - 1,
                          ", ".join(a.cpus.split()), a.jobs, a.outdir), flush=True)
    totals = {"calls": 0, "passed": 0, "panic": 0, "hang": 0, "failed": 0}
    start = time.time()
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = [pool.submit(session, a.kernel, a.initrd, seed, c, a.calls, a.workers,
                               a.outdir) for seed, c in runs]
        for fut in futures:
            seed, cpus, verdict, made, secs, log = fut.result()
            totals["calls"] += made
            if verdict is None:
                totals["passed"] += 1
                print("fuzz-campaign: seed %d -smp %d: %d calls, clean (%.0f s)"
                      % (seed, cpus, made, secs), flush=True)
            else:
                totals[verdict.split()[0].rstrip(":")] += 1
                print("fuzz-campaign: seed %d -smp %d: %s after %d calls (%s); again: "
                      "make fuzz SEED=%d CALLS=%d CPUS=%d WORKERS=%d"
                      % (seed, cpus, verdict, made, log, seed, a.calls, cpus, a.workers),
                      flush=True)
    print("fuzz-campaign: %d calls in %.0f s: %d panics, %d hangs, %d other failures"
          % (totals["calls"], time.time() - start, totals["panic"], totals["hang"],
             totals["failed"]))
    print("fuzz-campaign: %d of %d sessions clean" % (totals["passed"], len(runs)))
    return 0 if totals["passed"] == len(runs) else 1


if __name__ == "__main__":
    sys.exit(main())
