#!/usr/bin/env python3
"""tools/profile.py - where a path's instructions go, by function.

    tools/profile.py KERNEL INITRD SYMBOL [--skip N] [--cycles M]
                     [--append "init=/bin/bench yield"]

Boots KERNEL under QEMU's instruction counting (as make bench does) with
its GDB stub, lets SYMBOL (a kernel function on the path, e.g.
sys_sched_yield) be reached N times to warm up, then single-steps every
instruction until SYMBOL has been entered M more times, and prints how
many instructions each function executed per cycle (user-space
instructions are counted as "(user)", or by function of the program's
ELF with --user, which make profile passes). Single-stepping executes the
same instructions as a free run (QEMU masks interrupts while stepping,
so no timer tick lands in the window): the total is the path's cost,
comparable with make bench's rows. `make profile` runs it
(docs/benchmarks.md).
"""
import argparse
import bisect
import collections
import os
import socket
import subprocess
import sys
import tempfile
import time

# make bench's deterministic QEMU (tools/icount.flags), so the profile
# counts the instructions make bench counts.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "icount.flags")) as _f:
    ICOUNT = _f.read().split()

GDB_SCRIPT = r'''
import gdb, collections
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote 127.0.0.1:%(port)d")
bp = gdb.Breakpoint("*%(addr)#x", internal=True)
for i in range(%(skip)d):
    gdb.execute("continue", to_string=True)
bp.delete()
counts = collections.Counter()
entries = 0
steps = 0
frame_pc = lambda: int(gdb.parse_and_eval("$pc")) & 0xffffffff
while entries < %(cycles)d and steps < %(limit)d:
    gdb.execute("stepi", to_string=True)
    pc = frame_pc()
    steps += 1
    if pc == %(addr)#x:
        entries += 1
    counts[pc] += 1
with open("%(out)s", "w") as f:
    f.write("%%d %%d\n" %% (entries, steps))
    for pc, n in counts.items():
        f.write("%%x %%d\n" %% (pc, n))
gdb.execute("kill")
'''


def symbols(kernel):
    out = subprocess.run(["nm", "-n", kernel], capture_output=True, text=True,
                         check=True).stdout
    addrs, names = [], []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            addrs.append(int(parts[0], 16))
            names.append(parts[2])
    return addrs, names


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kernel")
    ap.add_argument("initrd")
    ap.add_argument("symbol")
    ap.add_argument("--skip", type=int, default=200)
    ap.add_argument("--cycles", type=int, default=20)
    ap.add_argument("--append", default="init=/bin/bench")
    ap.add_argument("--limit", type=int, default=2000000)
    ap.add_argument("--detail", action="append", default=[],
                    help="also show FUNCTION's instructions by source line")
    ap.add_argument("--user", help="the program's ELF: name its functions too")
    args = ap.parse_args()

    addrs, names = symbols(args.kernel)
    uaddrs, unames = symbols(args.user) if args.user else ([], [])
    if args.symbol not in names:
        sys.exit("profile: no function %s in %s" % (args.symbol, args.kernel))
    addr = addrs[names.index(args.symbol)]
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="spindle-profile.")
    out = os.path.join(tmp, "counts.txt")
    script = os.path.join(tmp, "prof.py")
    with open(script, "w") as f:
        f.write(GDB_SCRIPT % dict(port=port, addr=addr, skip=args.skip,
                                  cycles=args.cycles, limit=args.limit, out=out))
    qemu = subprocess.Popen(
        ["qemu-system-i386", "-m", "256", "-smp", "1", "-display", "none",
         "-no-reboot"] + ICOUNT + [
         "-kernel", args.kernel, "-initrd", args.initrd, "-append", args.append,
         "-serial", "file:" + os.path.join(tmp, "console.txt"),
         "-S", "-gdb", "tcp:127.0.0.1:%d" % port],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    try:
        subprocess.run(["gdb", "-batch", "-nx", args.kernel, "-x", script],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=1800)
    finally:
        qemu.kill()
        qemu.wait()
    if not os.path.exists(out):
        sys.exit("profile: GDB did not finish (see %s)" % tmp)
    with open(out) as f:
        entries, steps = map(int, f.readline().split())
        per = collections.Counter()
        by_pc = {}
        for line in f:
            pc, n = line.split()
            pc, n = int(pc, 16), int(n)
            by_pc[pc] = n
            if pc < 0xC0000000:
                i = bisect.bisect_right(uaddrs, pc) - 1
                per["(user) " + unames[i] if i >= 0 else "(user)"] += n
            else:
                i = bisect.bisect_right(addrs, pc) - 1
                per[names[i] if i >= 0 else "?"] += n
    if entries == 0:
        sys.exit("profile: %s was not entered again within %d steps" % (args.symbol, steps))
    print("profile: %d instructions over %d entries of %s: %.1f per entry"
          % (steps, entries, args.symbol, steps / entries))
    for name, n in per.most_common():
        print("%8.1f  %s" % (n / entries, name))
    for func in args.detail:
        if func not in names:
            continue
        i = names.index(func)
        pcs = sorted(pc for pc in by_pc if addrs[i] <= pc < (addrs[i + 1] if i + 1 < len(addrs) else pc + 1))
        if not pcs:
            continue
        lines = subprocess.run(["addr2line", "-e", args.kernel] + ["%x" % pc for pc in pcs],
                               capture_output=True, text=True).stdout.split("\n")
        by_line = collections.Counter()
        for pc, where in zip(pcs, lines):
            by_line[os.path.relpath(where.split(" ")[0], os.getcwd()) if where.startswith("/") else where] += by_pc[pc]
        print("\n%s by source line:" % func)
        for where, n in sorted(by_line.items(), key=lambda kv: kv[0]):
            print("%8.1f  %s" % (n / entries, where))


if __name__ == "__main__":
    main()
