"""tests/bench_check.py - make check's tests of make bench's figures
(docs/benchmarks.md).

bench/smp2_table_repeats: /bin/bench_smp at -smp 2 under QEMU -icount,
booted twice. It must complete (every row run, no FAILED, init's status 0)
and print the same table both times, which is what makes the SMP figures
worth comparing.

replay/identical_logs_smp4: tls-demo, mutex-demo, t_smp_futex and t_futex
at -smp 4 under the same flags, each booted twice: each must succeed and
the two consoles must be identical.

bench/budgets: the hot paths of /bin/bench, /bin/bench_lx (glibc) and
/bin/bench_pt (the libc's pthreads) at -smp 1 under -icount, and
/bin/bench's again on the seed kernel (its rows named "seed kernel: ..."),
against tests/budgets.txt: a row more than BUDGET_SLACK over its budget
fails. Under instruction counting a path's cost is a count, not a
timing, so this holds on any host, loaded or not.
"""
import os
import re

from machine import ICOUNT, SEED_KERNEL, qemu_code, qemu_kernel_cmd, run_qemu
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


# Programs whose output depends on how their threads interleave on four
# CPUs (the order tls-demo's threads print in, mutex-demo's, t_smp_futex's
# cross-CPU wakes), for replay/identical_logs_smp4; and t_futex, whose
# main thread polls with sched_yield while its waiters run elsewhere (it
# stalled under icount until schedule() paused when alone: kernel/sched.c).
REPLAY_PROGRAMS = ["init=/bin/tls-demo", "init=/bin/mutex-demo", "init=/tests/t_smp_futex",
                   "init=/tests/t_futex", "chaos=7 init=/tests/t_smp_futex"]


def identical_logs(smp=4):
    """Under the -icount flags above, a run at -smp 4 repeats exactly:
    each program booted twice must print the same console, byte for
    byte, from the first boot message to the power-off (issue 25's
    ground: a schedule that can be replayed)."""
    name = "replay/identical_logs_smp%d" % smp
    for append in REPLAY_PROGRAMS:
        outs = []
        for _ in range(2):
            b = run_qemu(qemu_kernel_cmd(smp, append, mem=128) + ICOUNT, timeout=240)
            bad = b.problem()
            if not bad and "init exited with status 0" not in b.out:
                bad = "init did not exit with status 0"
            if bad:
                return [(name, "%s: %s" % (append, bad), b.tail(20))]
            outs.append(b.out)
        if outs[0] != outs[1]:
            a, b2 = outs[0].splitlines(), outs[1].splitlines()
            n = next((i for i, (x, y) in enumerate(zip(a, b2)) if x != y), min(len(a), len(b2)))
            return [(name, "%s: the second run's console differs at line %d" % (append, n + 1),
                     "    | first:  %s\n    | second: %s" % (a[n] if n < len(a) else "(end)",
                                                          b2[n] if n < len(b2) else "(end)"))]
    return [(name, None, None)]


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUDGETS = os.path.join(ROOT, "tests", "budgets.txt")
BUDGET_SLACK = 0.03
BUDGET_APPEND = "init=/bin/bench -- null yield yieldp futex create fork fault signal"
BENCH_TABLE_RE = re.compile(r"^==== bench table ====\n(.*?)^==== end of bench table ====$",
                            re.M | re.S)
# The same paths as a static glibc program pays them (user/linux/bench_lx.c).
BUDGET_LX_APPEND = "init=/bin/bench_lx"
BENCH_LX_TABLE_RE = re.compile(r"^==== bench_lx table ====\n(.*?)^==== end of bench_lx table ====$",
                               re.M | re.S)
# And as a program of Spindle's libc pays them through its pthreads
# (user/bin/bench_pt.c).
BUDGET_PT_APPEND = "init=/bin/bench_pt"
BENCH_PT_TABLE_RE = re.compile(r"^==== bench_pt table ====\n(.*?)^==== end of bench_pt table ====$",
                               re.M | re.S)


def read_budgets(path=BUDGETS):
    """[(budget, row name)] from tests/budgets.txt."""
    out = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                budget, name = line.split(None, 1)
                out.append((int(budget), name.strip()))
    return out


def row_figures(table):
    """{row name: median} of /bin/bench's table."""
    rows = {}
    for line in table.splitlines():
        m = re.match(r"^(\S.*?)\s{2,}(\d+)\s{2,}", line)
        if m:
            rows[m.group(1).strip()] = int(m.group(2))
    return rows


# The seed kernel's rows (make seed: the core alone) are /bin/bench's,
# named with this in front.
SEED_PREFIX = "seed kernel: "


def bench_budgets():
    name = "bench/budgets"
    got, tables = {}, ""
    for append, table_re, mem, kernel in ((BUDGET_APPEND, BENCH_TABLE_RE, 256, None),
                                          (BUDGET_LX_APPEND, BENCH_LX_TABLE_RE, 512, None),
                                          (BUDGET_PT_APPEND, BENCH_PT_TABLE_RE, 512, None),
                                          (BUDGET_APPEND, BENCH_TABLE_RE, 256, SEED_KERNEL)):
        b = run_qemu(qemu_kernel_cmd(1, append, mem=mem, kernel=kernel) + ICOUNT, timeout=240)
        bad = b.problem()
        m = table_re.search(b.out)
        if not bad and not m:
            bad = "no complete table"
        if bad:
            return [(name, "%s%s: %s" % (SEED_PREFIX if kernel else "", append, bad), b.tail(20))]
        # A row name two programs print (set_thread_area's) is the
        # first one's: /bin/bench's.
        for row, figure in row_figures(m.group(1)).items():
            got.setdefault((SEED_PREFIX if kernel else "") + row, figure)
        tables += m.group(1)
    over = []
    for budget, row in read_budgets():
        if row not in got:
            return [(name, "no figure for '%s' (tests/budgets.txt)" % row, tables)]
        if got[row] > budget * (1 + BUDGET_SLACK):
            over.append("'%s': %d, budget %d (+%.1f%%)" % (row, got[row], budget,
                                                          100.0 * (got[row] - budget) / budget))
    if over:
        return [(name, "over budget by more than %d%%: %s" % (BUDGET_SLACK * 100, "; ".join(over)),
                 tables)]
    return [(name, None, None)]
