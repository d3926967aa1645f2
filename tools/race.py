#!/usr/bin/env python3
"""tools/race.py - hunt a race with schedule seeds (docs/races.md).

    race.py race   --kernel K --initrd I --cpus N --init WORDS [--runs R] [--seed S]
    race.py replay --kernel K --initrd I --cpus N --init WORDS --seed S

Every run boots the kernel under QEMU's instruction counting (the flags
below: virtual CPUs in turns on one host thread, the clock counted in
instructions, the real-time clock pinned) with `chaos=SEED` on its
command line (kernel/chaos.h) and WORDS after it (init=/bin/NAME -- ARGS);
seed 0 is the default schedule, without the chaos= word.
A run is then a function of the kernel, the initrd, the command line and
the CPU count: its console log is the same, byte for byte, every time.

race: seeds S, S+1, ... S+R-1, as many at once as the host has cores;
one line for each seed whose run failed (init's exit status or signal, a
panic, a reboot, a timeout) with its log under build/race/, then the
count. Exit status 1 if any seed failed. --first stops at the first
failing seed (a grader's question is whether one fails, and a run that
hangs costs its whole --timeout): the seeds after it are not run.

replay: seed S once more: its console log, then the same verdict line.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

# Deterministic QEMU, the flags of tools/icount.flags (make bench, make
# trace and make profile use them too): shift=0 counts one instruction as
# one nanosecond; sleep=off and align=off never wait for the host; the RTC
# starts at a fixed date and follows the virtual clock.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "icount.flags")) as _f:
    ICOUNT = _f.read().split()
EXIT_RE = re.compile(r"^init exited with status (\d+)(?: \(killed by signal (\d+)\))?", re.M)


def qemu_cmd(args, seed):
    # Seed 0 is the default schedule: no chaos= word at all.
    append = ("chaos=%d %s" % (seed, args.init) if seed else args.init).strip()
    return ["qemu-system-i386", "-m", str(args.mem), "-smp", str(args.cpus),
            "-display", "none", "-no-reboot",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-kernel", args.kernel, "-initrd", args.initrd, "-append", append,
            "-serial", "stdio", "-monitor", "none"] + ICOUNT


def verdict(log, timed_out):
    """None for a run that passed (init exited with status 0), else why
    it failed, in a few words."""
    panic = next((l.strip() for l in log.splitlines() if "PANIC" in l), None)
    if panic:
        return "kernel panic: " + panic
    if timed_out:
        return "timeout (no power-off)"
    m = EXIT_RE.search(log)
    if not m:
        return "no 'init exited' line (QEMU stopped without it)"
    if m.group(2):
        return "init killed by signal %s" % m.group(2)
    if m.group(1) != "0":
        return "init exited with status %s" % m.group(1)
    return None


def run(args, seed):
    """(seed, console log, verdict) of one run."""
    try:
        p = subprocess.run(qemu_cmd(args, seed), stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=args.timeout)
        log, timed_out = p.stdout.decode(errors="replace"), False
    except subprocess.TimeoutExpired as e:
        log, timed_out = (e.stdout or b"").decode(errors="replace"), True
    return seed, log, verdict(log, timed_out)


def log_path(args, seed):
    return os.path.join(args.out, "seed-%d.log" % seed)


def race(args):
    os.makedirs(args.out, exist_ok=True)
    seeds = range(args.seed, args.seed + args.runs)
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for seed, log, why in pool.map(lambda s: run(args, s), seeds):
            with open(log_path(args, seed), "w") as f:
                f.write(log)
            if why:
                failed.append(seed)
                print("seed %d: %s  (%s)" % (seed, why, log_path(args, seed)), flush=True)
                if args.first:
                    pool.shutdown(wait=True, cancel_futures=True)
                    print("race: stopped at seed %d, the first to fail (%s at -smp %d)"
                          % (seed, args.init, args.cpus))
                    return 1
    print("race: %d of %d seeds failed (%s at -smp %d, seeds %d..%d)" % (
        len(failed), args.runs, args.init, args.cpus, seeds[0], seeds[-1]))
    return 1 if failed else 0


def replay(args):
    seed, log, why = run(args, args.seed)
    sys.stdout.write(log)
    print("replay: seed %d: %s" % (seed, why or "passed (init exited with status 0)"))
    return 1 if why else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["race", "replay"])
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd", required=True, help="QEMU's -initrd: the cpio, then modules")
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--init", required=True, help="the command-line words after chaos=SEED")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=120, help="seconds a run may take")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--mem", type=int, default=128)
    ap.add_argument("--out", default="build/race", help="where race keeps the logs")
    ap.add_argument("--first", action="store_true", help="stop at the first failing seed")
    args = ap.parse_args()
    if args.seed < 0 or args.runs < 1 or not 1 <= args.cpus <= 8:
        ap.error("SEED starts at 0 (the default schedule), RUNS at 1; CPUS is 1 to 8")
    return race(args) if args.mode == "race" else replay(args)


if __name__ == "__main__":
    sys.exit(main())
