"""tests/bench_check.py - make check's test of make bench's SMP table
(docs/benchmarks.md, "SMP"): /bin/bench_smp at -smp 2 under QEMU -icount,
booted twice. It must complete (every row run, no FAILED, init's status 0)
and print the same table both times, which is what makes the SMP figures
worth comparing. No figure is judged here: speed is make bench's business.
"""
import re

from machine import qemu_code, qemu_kernel_cmd, run_qemu

ICOUNT = ["-icount", "shift=0,align=off,sleep=off",
          "-rtc", "base=2024-01-01T00:00:00,clock=vm"]
TABLE_RE = re.compile(r"^==== bench_smp table ====\n(.*?)^==== end of bench_smp table ====$",
                      re.M | re.S)


def bench_smp_repeats(smp=2):
    name = "bench/smp%d_table_repeats" % smp
    tables = []
    for _ in range(2):
        b = run_qemu(qemu_kernel_cmd(smp, "init=/bin/bench_smp", mem=256) + ICOUNT,
                     timeout=240)
        bad = b.problem()
        m = TABLE_RE.search(b.out)
        if not bad and not m:
            bad = "no complete table"
        if not bad and b.code != qemu_code(0):
            bad = "QEMU exit %d: a row FAILED" % b.code
        if not bad and "not run" in m.group(1):
            bad = "a row was not run at -smp %d" % smp
        if bad:
            return [(name, bad, b.tail(20))]
        tables.append(m.group(1))
    if tables[0] != tables[1]:
        diff = [l for l in tables[1].splitlines() if l not in tables[0].splitlines()]
        return [(name, "the second run printed another table",
                 "\n".join("    | " + l for l in diff))]
    return [(name, None, None)]
