#!/usr/bin/env python3
"""tests/run.py - Spindle's test harness (`make check` runs it).

Runs, in order, and prints one line per test, `PASS name` or
`FAIL name: reason`, then the exact last line `N passed, N failed`:

  unit/...     the host unit tests (build/unit/test_*, tests/unit/)
  smpN/...     the in-kernel test groups (tests/guest/), one QEMU boot per
               group, at every CPU count in SMP_COUNTS; groups are found by
               booting with ktest=list. crash_* groups must end in a PANIC
               with a symbolised backtrace that names the test.
  smpN/console.monitor_session
               the kernel monitor driven through the serial console
  smpN/console.tty_typeahead, smpN/console.tty_typeahead_at_boot
               6 KB typed ahead of the shell in one write: none of it lost
  smpN/shell.session, smpN/shell.eof, smpN/shell.files
               /bin/sh (run by /bin/init) driven through the console: a
               script of commands and their output; Ctrl-D ends it
  smpN/shell.intr
               Ctrl-C and Ctrl-\ typed while `sleep 100` runs: the command
               dies, the shell lives (job control, docs/terminal.md)
  smpN/console.tty_raw, smpN/t_tty.typed_*
               /bin/t_tty -- raw reading typed bytes in raw mode (VMIN,
               VTIME, no ISIG) and canonical mode without echo
  smpN/t_*     the user test programs (user/tests/t_*.c, not the *_child.c
               helpers), each booted as init (init=/bin/t_NAME): its own
               PASS/FAIL lines, then `init exited with status 0`
  grub/...     the GRUB ISO booted in QEMU
  bochs/...    the same ISO under Bochs
  gdb/...      GDB attached to QEMU's stub: kmain breakpoint, the GDT

A boot fails, with its reason and its last lines of output, on a PANIC
where none was expected, a triple fault (QEMU exits 0 under -no-reboot, or
the banner shows twice), a timeout, or a missing end-of-run line.
Exit status 1 if anything failed. Options: -k PATTERN runs only the tests
whose name contains PATTERN; -j N boots N machines at once.

The pieces: tests/machine.py (a QEMU boot and its results),
tests/console.py (the monitor, typeahead and shell sessions),
tests/console_tty.py (Ctrl-C at the shell, raw-mode reads),
tests/loaders.py (GRUB, Bochs, GDB); this file, the unit tests, the
in-kernel groups, the user test programs and main.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

from machine import (BUILD, INITRD, QEMU_TIMEOUT, ROOT, SMP_COUNTS, STATUS_FAIL,
                     STATUS_PANIC, STATUS_PASS, TEST_ISO_SMP, LINE_RE, Results,
                     collect_lines, qemu_code, qemu_kernel_cmd, run_qemu)
from console import monitor_session, shell_eof, shell_files, shell_session, tty_typeahead
from console_tty import shell_intr, tty_raw
from loaders import bochs, gdb_session, grub_qemu

# ---------------------------------------------------------------- unit
def run_unit(res, want):
    bins = sorted(f for f in os.listdir(os.path.join(BUILD, "unit"))
                  if f.startswith("test_")) if os.path.isdir(
        os.path.join(BUILD, "unit")) else []
    if not bins:
        res.report("unit", "no unit test binaries in build/unit (make unit-tests)")
    for b in bins:
        if want and not any(w in "unit/" + b for w in want):
            continue
        p = subprocess.run([os.path.join(BUILD, "unit", b)], capture_output=True,
                           text=True, timeout=300)
        n = collect_lines(res, "", p.stdout)
        if n == 0 or (p.returncode != 0 and "FAIL" not in p.stdout):
            res.report("unit/" + b, "exit status %d, %d results" % (p.returncode, n),
                       p.stderr[-2000:])


# ---------------------------------------------------------------- guest
def discover_groups():
    b = run_qemu(qemu_kernel_cmd(1, "ktest=list"))
    bad = b.problem()
    if bad or b.code != qemu_code(STATUS_PASS):
        raise SystemExit("cannot list the test groups (%s):\n%s"
                         % (bad or "exit %d" % b.code, b.tail()))
    return re.findall(r"^ktest-group (\S+)$", b.out, re.M)


BACKTRACE_RE = re.compile(r"^  #(\d+) 0x[0-9a-f]{8} ([A-Za-z_][\w.]*)\+0x[0-9a-f]+$", re.M)

# What each deliberate crash must print, beyond the common shape.
CRASH_EXPECT = {
    "crash_pf": r"^PANIC: page fault at eip=0x[0-9a-f]{8} cr2=0xf8000000 err=0x2$",
    "crash_null": r"^PANIC: page fault at eip=0x[0-9a-f]{8} cr2=0x00000000 err=0$",
    "crash_ud": r"^PANIC: invalid opcode \(trap 6\) at eip=0x[0-9a-f]{8}",
    "crash_panic": r"^PANIC: deliberate panic 42 from the crash_panic test$",
}


def check_crash(group, b):
    """The shape of a deliberate kernel fault: the reason line, a
    backtrace of symbolised frames numbered from 0 that names the test
    function and kmain, and power-off status 0x7f."""
    if b.timed_out:
        return "timeout (no power-off)"
    pat = CRASH_EXPECT.get(group, r"^PANIC: ")
    if not re.search(pat, b.out, re.M):
        return "no line matching /%s/" % pat
    if "backtrace:" not in b.out:
        return "no backtrace"
    frames = BACKTRACE_RE.findall(b.out.split("backtrace:", 1)[1])
    if len(frames) < 3 or [int(n) for n, _ in frames] != list(range(len(frames))):
        return "backtrace is not numbered symbolised frames #0.."
    names = [f for _, f in frames]
    if not any(f.startswith("ktest_%s_" % group) for f in names):
        return "backtrace does not name the test function ktest_%s_*" % group
    if "kmain" not in names:
        return "backtrace does not reach kmain"
    if b.code != qemu_code(STATUS_PANIC):
        return "QEMU exit %d, want %d (status 0x7f)" % (b.code, qemu_code(STATUS_PANIC))
    return None


STOPPED_RE = re.compile(r"^cpu(\d+) stopped: eip=0x[0-9a-f]{8} \S+ task=\S+ tid=-?\d+$", re.M)


def check_stopped_cpus(b, smp):
    """A panic on one CPU stops the others, and each says so once."""
    cpus = sorted(int(c) for c in STOPPED_RE.findall(b.out))
    if len(cpus) != smp - 1 or len(set(cpus)) != smp - 1:
        return "%d 'cpuN stopped' lines for %d other CPUs: %s" % (len(cpus), smp - 1, cpus)
    return None


def guest_group(smp, group):
    """Boots one group; returns (lines to report) as (name, reason, detail)."""
    prefix = "smp%d/" % smp
    append = "ktest=%s expect_cpus=%d" % (group, smp)
    initrd = INITRD
    if group == "initrd":
        # A second, plain module: abi.md's "any other file" rule.
        extra = os.path.join(ROOT, "user", "root", "etc", "motd")
        append += " extra_size=%d" % os.path.getsize(extra)
        initrd = "%s,%s /bin/extra" % (INITRD, extra.replace(",", ",,"))
    b = run_qemu(qemu_kernel_cmd(smp, append, initrd))
    out = []
    if group.startswith("crash_"):
        bad = check_crash(group, b)
        if not bad and group.startswith("crash_smp"):
            bad = check_stopped_cpus(b, smp)
        out.append((prefix + group, bad, b.tail(20)))
        return out
    for line in b.out.splitlines():
        m = LINE_RE.match(line.strip())
        if m:
            out.append((prefix + m.group(2),
                        None if m.group(1) == "PASS" else (m.group(3) or "failed"), None))
    bad = b.problem()
    done = re.search(r"^ktest: done, (\d+) passed, (\d+) failed$", b.out, re.M)
    if bad:
        out.append((prefix + group, bad, b.tail()))
    elif not done:
        out.append((prefix + group, "no 'ktest: done' line", b.tail()))
    elif b.code != qemu_code(STATUS_FAIL if int(done.group(2)) else STATUS_PASS):
        out.append((prefix + group, "QEMU exit %d disagrees with the results" % b.code,
                    b.tail()))
    return out


# ---------------------------------------------------------------- user tests
def discover_user_tests():
    """The test programs: user/tests/t_NAME.c, less the helpers that other
    programs execute (t_NAME_child.c)."""
    d = os.path.join(ROOT, "user", "tests")
    names = os.listdir(d) if os.path.isdir(d) else []
    return sorted(f[:-2] for f in names if f.startswith("t_") and f.endswith(".c")
                  and not f.endswith("_child.c"))


INIT_EXIT_RE = re.compile(r"^init exited with status (\d+)$", re.M)

# Programs that need more than QEMU_TIMEOUT on a loaded host: t_smp_futex's
# 100,000-round ping-pong is up to 200,000 wake-ups of a halted vCPU,
# each a host thread waking (docs/smp.md); still bounded, never a hang.
USER_TEST_TIMEOUT = {"t_smp_futex": 300}


def user_test(smp, prog):
    """Boots /bin/PROG as pid 1. Its PASS/FAIL lines are reported under
    smpN/; the program itself (smpN/PROG) fails on a bad boot, without the
    `init exited with status 0` line and QEMU exit code 1, or without a
    single PASS line."""
    prefix = "smp%d/" % smp
    # Without the program the kernel starts its monitor: end it at once.
    b = run_qemu(qemu_kernel_cmd(smp, "init=/bin/" + prog),
                 timeout=USER_TEST_TIMEOUT.get(prog, QEMU_TIMEOUT),
                 stdin_script=[("K> ", "poweroff 3\n")])
    out = []
    for line in b.out.splitlines():
        m = LINE_RE.match(line.strip())
        if m:
            out.append((prefix + m.group(2),
                        None if m.group(1) == "PASS" else (m.group(3) or "failed"), None))
    passed = sum(1 for _, reason, _ in out if reason is None)
    failed = len(out) - passed
    m = INIT_EXIT_RE.search(b.out)
    bad = b.problem()
    if not bad and not m:
        bad = "no 'init exited with status' line"
    if not bad and m.group(1) != "0":
        bad = "init exited with status %s" % m.group(1)
        if failed:                      # explained by the FAIL lines above
            out.append((prefix + prog, "%s (%d failed)" % (bad, failed), None))
            return out
    if not bad and b.code != qemu_code(0):
        bad = "QEMU exit %d, want %d (status 0)" % (b.code, qemu_code(0))
    if not bad and not passed:
        bad = "no PASS line"
    if bad:
        out.append((prefix + prog, bad, b.tail(20)))
    return out


# ---------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-k", action="append", default=[], help="run tests whose name contains this")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    want = args.k
    res = Results()

    def wanted(name):
        return not want or any(w in name for w in want)

    run_unit(res, want)

    groups = discover_groups()
    user_tests = discover_user_tests()
    jobs = []
    for smp in SMP_COUNTS:
        for g in groups:
            if wanted("smp%d/%s" % (smp, g)):
                jobs.append((guest_group, (smp, g)))
        if wanted("smp%d/console" % smp):
            jobs.append((monitor_session, (smp,)))
        if wanted("smp%d/console.tty_typeahead" % smp):
            jobs.append((tty_typeahead, (smp,)))
        if wanted("smp%d/console.tty_typeahead_at_boot" % smp):
            jobs.append((tty_typeahead, (smp, True)))
        if wanted("smp%d/shell.session" % smp):
            jobs.append((shell_session, (smp,)))
        if wanted("smp%d/shell.eof" % smp):
            jobs.append((shell_eof, (smp,)))
        if wanted("smp%d/shell.files" % smp):
            jobs.append((shell_files, (smp,)))
        if wanted("smp%d/shell.intr" % smp):
            jobs.append((shell_intr, (smp,)))
        if wanted("smp%d/console.tty_raw" % smp) or wanted("smp%d/t_tty." % smp):
            jobs.append((tty_raw, (smp,)))
        for t in user_tests:
            # -k smp1/t_fork.exit_status runs all of smp1/t_fork.
            name = "smp%d/%s" % (smp, t)
            if wanted(name) or any(w.split(".")[0] in name for w in want):
                jobs.append((user_test, (smp, t)))
    if wanted("grub/"):
        jobs.append((grub_qemu, ()))
    if wanted("bochs/"):
        jobs.append((bochs, ()))
        jobs.append((bochs, (TEST_ISO_SMP, 2, "bochs/smp2_group")))
    if wanted("gdb/"):
        jobs.append((gdb_session, ()))

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as ex:
        futures = [ex.submit(fn, *a) for fn, a in jobs]
        for fut in futures:                 # report in a fixed order
            try:
                lines = fut.result()
            except Exception as e:          # a harness bug is a failure too
                lines = [("harness", "%s: %s" % (type(e).__name__, e), None)]
            for name, reason, detail in lines:
                res.report(name, reason, detail)

    print("%d passed, %d failed" % (res.passed, res.failed), flush=True)
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
