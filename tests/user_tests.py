"""tests/user_tests.py - the user test programs' boots for tests/run.py:
each /tests/t_NAME booted as init at -smp N (or a variant: a kernel word,
a QEMU CPU model), its PASS and FAIL lines taken as results, a forked
child's failed CHECK added to its case's FAIL line, and the boot itself
judged (init's exit status, QEMU's exit code)."""
import os
import re

from machine import (ICOUNT, LINE_RE, QEMU_TIMEOUT, ROOT, SMP_COUNTS, qemu_code,
                     qemu_kernel_cmd, run_qemu)


def discover_user_tests():
    """The test programs: user/tests/t_NAME.c, less the helpers that other
    programs execute (t_NAME_child.c)."""
    d = os.path.join(ROOT, "user", "tests")
    names = os.listdir(d) if os.path.isdir(d) else []
    return sorted(f[:-2] for f in names if f.startswith("t_") and f.endswith(".c")
                  and not f.endswith("_child.c"))


def discover_linux_tests():
    """The linux group: user/linux/lx_NAME.c (glibc programs)."""
    d = os.path.join(ROOT, "user", "linux")
    names = os.listdir(d) if os.path.isdir(d) else []
    return sorted(f[:-2] for f in names if f.startswith("lx_") and f.endswith(".c"))


# The linux group's CPU counts (issue 12): one, some, and the most.
LINUX_SMP_COUNTS = (1, 4, 8)

INIT_EXIT_RE = re.compile(r"^init exited with status (\d+)$", re.M)

# Programs that compare CPU time charged by the tick with ticks passed
# boot under -icount (tools/icount.flags): the tick then comes from the
# instruction count, not the host's clock, and a busy host cannot bunch
# ticks up where the guest turns interrupts back on in the kernel (which
# charged user spins as system time in a loaded make check).
USER_TEST_ICOUNT = {"t_times"}

# Programs that need more than QEMU_TIMEOUT on a loaded host: t_smp_futex's
# 100,000-round ping-pong is up to 200,000 wake-ups of a halted vCPU,
# each a host thread waking (docs/smp.md); still bounded, never a hang.
# lx_pthread's 1,000 threads and 1,000 create/join rounds take ~30 s at
# -smp 8 on a loaded 2-core host, and several times that when it is
# busier still.
USER_TEST_TIMEOUT = {"t_smp_futex": 300, "t_fuzz": 300, "t_stress": 200, "t_exhaust": 300,
                     "lx_pthread": 300}

# Programs that run at only some CPU counts (all of SMP_COUNTS otherwise):
# the fuzzer and the stress run are long, and -smp 1 and 4 are the counts
# issue 11 asks for (t_exhaust's bombs too); t_kill_fork races CPUs
# against each other (at -smp 1 its forkers only starve pid 1).
USER_TEST_SMP = {"t_fuzz": (1, 4), "t_stress": (4,), "t_exhaust": (1, 4),
                 "t_kill_fork": (2, 4, 8)}

# Programs booted once per (QEMU CPU model, argv) listed here instead of
# once plainly: t_umip checks sgdt & co. on a CPU without UMIP (QEMU's
# default) and on one with it (-cpu max); its argument says which.
USER_TEST_BOOTS = {"t_umip": [(None, ["no-umip"]), ("max", ["umip"])]}

# What some programs' consoles must show besides their own PASS lines:
# lines that only the kernel prints, which the program cannot read.
CHILD_CHECK_RE = re.compile(r"^  (\S+): in a child, (.*)$", re.M)
FAULT_LINE_RE = re.compile(r"^pid (\d+) \((\S+)\): (SIG\w+) at eip=0x[0-9a-f]{8} "
                           r"addr=0x([0-9a-f]{8})$", re.M)


def fault_line_check(out):
    """t_fault_line: one fault line, for the child that died; none for
    the faults its handlers caught (abi.md section 7)."""
    lines = FAULT_LINE_RE.findall(out)
    m = re.search(r"^t_fault_line: child (\d+) must be reported at addr=0x([0-9a-f]{8})$",
                  out, re.M)
    if not m:
        return "no 'child ... must be reported' line"
    want = [(m.group(1), "t_fault_line", "SIGSEGV", m.group(2))]
    want += [(pid, "t_fault_line", sig, addr) for pid, sig, addr in re.findall(
        r"^t_fault_line: child (\d+) must be reported as (SIG\w+) at addr=0x([0-9a-f]{8})$",
        out, re.M)]
    if lines != want:
        return "fault lines %s, want exactly %s" % (lines, want)
    return None


CONSOLE_CHECKS = {"t_fault_line": ("console.fault_lines", fault_line_check)}

# Programs booted again another way, reported under smpN/LABEL/: (label,
# programs, kernel words, QEMU arguments, CPU counts). The FPU tests in
# the other switching mode (arch/i386/fpu.h; t_fpu, whose migrations
# matter most there, at every count), and on a CPU without FXSR and SSE,
# where the kernel keeps fnsave images (t_fpu_signal's frame checks want
# the fxsave part, so it is not among them).
USER_TEST_VARIANTS = [
    ("fpu=lazy", ("t_fpu", "t_fpu_pinned"), "fpu=lazy", None, SMP_COUNTS),
    ("fpu=lazy", ("t_fpu_signal", "t_fpu_fault"), "fpu=lazy", None, (1, 4)),
    ("nofxsr", ("t_fpu", "t_fpu_fault"), "", "qemu32,-fxsr,-sse,-sse2", (1, 4)),
]


def user_test_variants(prog, smp):
    """(label, kernel word, QEMU CPU model) of each variant of prog."""
    return [(label, word, cpu) for label, progs, word, cpu, smps in USER_TEST_VARIANTS
            if prog in progs and smp in smps]


def user_test(smp, prog, cpu=None, args=(), variant=None, kernel=None, prefix=None):
    """Boots /tests/PROG as pid 1 (on QEMU CPU model cpu, with args as its
    argv[1..]; or as a variant of USER_TEST_VARIANTS: a kernel word and a
    CPU model). Its PASS/FAIL lines are reported under smpN/ (smpN/LABEL/
    for a variant); the program itself (smpN/PROG, or smpN/PROG@cpu) fails
    on a bad boot, without the `init exited with status 0` line and QEMU
    exit code 1, or without a single PASS line."""
    label, word, vcpu = variant or ("", "", None)
    cpu = cpu or vcpu
    prefix = (prefix or "") + "smp%d/" % smp + (label + "/" if label else "")
    append = "init=/tests/" + prog + (" " + word if word else "") + \
        ("".join(" " + a for a in ("--",) + tuple(args)) if args else "")
    # Without the program the kernel starts its monitor: end it at once.
    b = run_qemu(qemu_kernel_cmd(smp, append, cpu=cpu, kernel=kernel)
                 + (ICOUNT if prog in USER_TEST_ICOUNT else []),
                 timeout=USER_TEST_TIMEOUT.get(prog, QEMU_TIMEOUT),
                 stdin_script=[("K> ", "poweroff 3\n")])
    out = []
    # A forked child's failed CHECK (user/tests/t.h) prints where and
    # what under its case's name; the case's FAIL line then says so.
    child = {m.group(1): m.group(2) for m in
             CHILD_CHECK_RE.finditer(b.out.replace("\r", ""))}
    for line in b.out.splitlines():
        m = LINE_RE.match(line.strip())
        if m:
            reason = None if m.group(1) == "PASS" else (m.group(3) or "failed")
            if reason and m.group(2) in child:
                reason += " [%s]" % child[m.group(2)]
            out.append((prefix + m.group(2), reason, None))
    passed = sum(1 for _, reason, _ in out if reason is None)
    failed = len(out) - passed
    m = INIT_EXIT_RE.search(b.out)
    bad = b.problem()
    if not bad and not m:
        bad = "no 'init exited with status' line"
    if not bad and m.group(1) != "0":
        bad = "init exited with status %s" % m.group(1)
        if failed:                      # explained by the FAIL lines above
            out.append((prefix + prog + ("@" + cpu if cpu else ""),
                        "%s (%d failed)" % (bad, failed), None))
            return out
    if not bad and b.code != qemu_code(0):
        bad = "QEMU exit %d, want %d (status 0)" % (b.code, qemu_code(0))
    if not bad and not passed:
        bad = "no PASS line"
    if bad:
        out.append((prefix + prog + ("@" + cpu if cpu else ""), bad, b.tail(20)))
    elif prog in CONSOLE_CHECKS:
        name, check = CONSOLE_CHECKS[prog]
        out.append(("%s%s.%s" % (prefix, prog, name), check(b.out), b.tail(20)))
    return out


def trace_user_test():
    """/tests/t_trace on, booted with `trace` at -smp 4: its lines under
    trace/ (smpN/t_trace, without the word, checks the other half)."""
    return [(n.replace("smp4/trace/", "trace/", 1), r, d)
            for n, r, d in user_test(4, "t_trace", None, ["on"], ("trace", "trace", None))]
