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
  smpN/shell.session, smpN/shell.eof
               /bin/sh (run by /bin/init) driven through the console: a
               script of commands and their output; Ctrl-D ends it
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
"""
import argparse
import concurrent.futures
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# make check passes its build directory (make B=dir) in the environment.
BUILD = os.path.abspath(os.environ.get("SPINDLE_BUILD", os.path.join(ROOT, "build")))
KERNEL = os.path.join(BUILD, "kernel.elf")
INITRD = os.path.join(BUILD, "initrd.cpio")
TEST_ISO = os.path.join(BUILD, "spindle-test.iso")
TEST_ISO_SMP = os.path.join(BUILD, "spindle-test-smp.iso")   # ktest=smp expect_cpus=2

SMP_COUNTS = (1, 2, 4, 8)
QEMU_TIMEOUT = 120          # seconds for one boot (TCG, loaded machine)
BOCHS_TIMEOUT = 300
BANNER = "Spindle 0.1 booting"
STATUS_PASS, STATUS_FAIL, STATUS_PANIC = 0x10, 0x11, 0x7f


def qemu_code(status):
    """QEMU's exit code for a guest outb(0xf4, status) (isa-debug-exit)."""
    return (status << 1) | 1


QEMU_BASE = ["qemu-system-i386", "-m", "128", "-display", "none",
             "-no-reboot", "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]


def qemu_kernel_cmd(smp, append, initrd=INITRD, mem=128):
    cmd = QEMU_BASE + ["-smp", str(smp), "-kernel", KERNEL,
                       "-initrd", initrd, "-append", append]
    cmd[cmd.index("-m") + 1] = str(mem)
    return cmd


class Boot:
    """The result of one machine run: its output and how it ended."""

    def __init__(self, out, code, timed_out):
        self.out, self.code, self.timed_out = out, code, timed_out

    def tail(self, n=12):
        lines = self.out.rstrip("\n").splitlines()[-n:]
        return "\n".join("    | " + l for l in lines)

    def problem(self, expect_panic=False):
        """Why this boot went wrong, or None."""
        if self.timed_out:
            return "timeout (no power-off)"
        if self.out.count(BANNER) > 1:
            return "the machine rebooted (triple fault?): banner seen twice"
        if "PANIC" in self.out and not expect_panic:
            line = next(l for l in self.out.splitlines() if "PANIC" in l)
            return "kernel panic: " + line.strip()
        if self.code == 0:
            return "QEMU exited 0: a triple fault under -no-reboot"
        return None


def run_qemu(cmd, timeout=QEMU_TIMEOUT, stdin_script=None):
    """Runs QEMU with the serial console on a pipe. stdin_script is a list
    of (prompt, line): each line is sent once prompt has appeared after the
    previous send."""
    p = subprocess.Popen(cmd + ["-serial", "stdio"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = b""
    script = list(stdin_script or [])
    seen = 0
    deadline = time.monotonic() + timeout
    timed_out = False
    while True:
        while script and script[0][0].encode() in out[seen:]:
            prompt, line = script.pop(0)
            seen = out.index(prompt.encode(), seen) + len(prompt)
            try:
                p.stdin.write(line.encode())
                p.stdin.flush()
            except BrokenPipeError:
                script = []
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            p.kill()
            break
        r, _, _ = select.select([p.stdout], [], [], min(left, 1.0))
        if r:
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            out += chunk
    code = p.wait()
    return Boot(out.decode("utf-8", "replace").replace("\r", ""), code, timed_out)


# ---------------------------------------------------------------- results
class Results:
    def __init__(self):
        self.passed = self.failed = 0

    def report(self, name, reason=None, detail=None):
        if reason is None:
            self.passed += 1
            print("PASS " + name, flush=True)
        else:
            self.failed += 1
            print("FAIL %s: %s" % (name, reason), flush=True)
            if detail:
                print(detail, flush=True)


LINE_RE = re.compile(r"^(PASS|FAIL) (\S+?)(?:: (.*))?$")


def collect_lines(res, prefix, text):
    """Reports every PASS/FAIL line of a run; returns how many there were."""
    n = 0
    for line in text.splitlines():
        m = LINE_RE.match(line.strip())
        if m:
            n += 1
            res.report(prefix + m.group(2), None if m.group(1) == "PASS"
                       else (m.group(3) or "failed"))
    return n


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


MONITOR_SCRIPT = [
    ("K> ", "help\n"),
    ("K> ", "ls\n"),
    ("K> ", "cat /etc/motd\n"),
    ("K> ", "gdt\n"),
    ("K> ", "mem\n"),
    ("K> ", "nosuchcommand\n"),
    ("K> ", "poweroff 3\n"),
]
MONITOR_EXPECT = [
    r"poweroff \[STATUS\]",                           # help
    r"^\s+\d+ /etc/motd$",                            # ls
    r"^Welcome to Spindle",                           # cat
    r"^  12 sel 0x60  00cf9[ab]000000ffff  kernel code", # gdt
    r"^frames: \d+ free of \d+",                      # mem
    r"^nosuchcommand: unknown command",
    r"^powering off$",
]


def monitor_session(smp):
    name = "smp%d/console.monitor_session" % smp
    b = run_qemu(qemu_kernel_cmd(smp, "monitor"), stdin_script=MONITOR_SCRIPT)
    bad = b.problem()
    if bad:
        return [(name, bad, b.tail())]
    for pat in MONITOR_EXPECT:
        if not re.search(pat, b.out, re.M):
            return [(name, "no output line matching /%s/" % pat, b.tail(30))]
    if b.code != qemu_code(3):
        return [(name, "QEMU exit %d, want %d (poweroff 3)" % (b.code, qemu_code(3)),
                 b.tail())]
    return [(name, None, None)]


# Typed (pasted) ahead: `sleep 1`, 100 echo lines (6,008 bytes) and
# Ctrl-D, in one write once the kernel's banner shows (the UART's FIFOs on)
# or, for ..._at_boot, before QEMU starts, as `make run < script` does (the
# UART in 16450 mode: uart.c), never waiting for a prompt. While the shell
# sleeps nothing reads: the kernel must hold the bytes back in the UART
# (and QEMU in its chardev) instead of dropping what its buffers cannot
# take. The quotes make the shell's output ("line-007 7hij...") differ from
# the tty's echo of the input, which may come between any two writes.
TYPEAHEAD_LINES = 100


def typeahead_payload(i):
    s = "abcdefghijklmnopqrstuvwxyz0123456789"
    return "%d%s%s-%03d" % (i % 10, s[i % 36:], s[:i % 36], i)


def tty_typeahead(smp, at_boot=False):
    name = "smp%d/console.tty_typeahead%s" % (smp, "_at_boot" if at_boot else "")
    lines = ["echo 'line-%03d' \"%s\"\n" % (i, typeahead_payload(i))
             for i in range(TYPEAHEAD_LINES)]
    burst = "sleep 1\n" + "".join(lines) + "\x04"
    b = run_qemu(qemu_kernel_cmd(smp, ""), stdin_script=[("" if at_boot else BANNER, burst)])
    bad, pos = None, 0
    for i in range(TYPEAHEAD_LINES):
        want = "line-%03d %s\n" % (i, typeahead_payload(i))
        at = b.out.find(want, pos)
        if at < 0:
            bad = "output line %d of %d (%r) missing or out of order" % (
                i + 1, TYPEAHEAD_LINES, want)
            break
        pos = at + len(want)
    # A lost Ctrl-D leaves the shell waiting: say which line went first.
    if b.problem():
        bad = b.problem() + ("; " + bad if bad else "")
    errors = re.findall(r"sh: .*$", b.out, re.M)
    if not bad and errors:
        bad = "shell errors (bytes lost?): %s" % errors[:3]
    if not bad and not re.search(r"^init exited with status 0$", b.out[pos:], re.M):
        bad = "Ctrl-D after the burst did not end the shell and init with status 0"
    if not bad and b.code != qemu_code(0):
        bad = "QEMU exit %d, want %d (status 0)" % (b.code, qemu_code(0))
    return [(name, bad, b.tail(20) if bad else None)]


# ---------------------------------------------------------------- the shell
# A normal boot: /bin/init runs /bin/sh on the console. Each line is sent
# once the shell's "$ " prompt has shown; the expectations (below) must
# then appear in this order.
SHELL_SCRIPT = [
    ("$ ", "echo hello\n"),
    ("$ ", "echo 'a  b' \"c$?d\" \\#x   # a comment\n"),
    ("$ ", "\n"),
    ("$ ", "   # only a comment\n"),
    ("$ ", "ls\n"),
    ("$ ", "cat /etc/motd\n"),
    ("$ ", "ps\n"),
    ("$ ", "nosuchprog\n"),
    ("$ ", "echo missing=$?\n"),
    ("$ ", "sh -c 'exit 5'\n"),
    ("$ ", "echo child=$?\n"),
    ("$ ", "sleep 3 &\n"),
    ("$ ", "ps\n"),
    ("$ ", "wait\n"),
    ("$ ", "echo waited=$?\n"),
    ("$ ", "start-detached 10000\n"),
    ("$ ", "echo detached=$?\n"),
    ("$ ", "exit 3\n"),
]
# (what, regex): searched one after the other, each after the previous
# match. {sh} and {job} stand for the shell's and the background job's
# pids, taken from the first ps and from the [PID] line.
PS_ROW = r"^\s*{pid}\s+{tgid}\s+{ppid}\s+[RSDZ]\s+\d+\s+17\s+{comm}\s+0x[0-9a-f]{{8}}"
SHELL_EXPECT = [
    ("echo", r"^hello$"),
    ("quoting, $? and comments", r"^a  b c0d #x$"),
    ("ls lists /bin/sh", r"^\s*\d+ /bin/sh$"),
    ("ls lists /etc/motd", r"^\s*\d+ /etc/motd$"),
    ("cat /etc/motd", r"^Welcome to Spindle"),
    ("ps header", r"^\s*TID\s+TGID\s+PPID\s+STATE\s+CPU\s+EXITSIG\s+COMM\s+TLS6\s+TLS7\s+TLS8$"),
    ("ps shows init as pid 1", PS_ROW.format(pid=1, tgid=1, ppid=0, comm="init")),
    ("ps shows sh, child of init", PS_ROW.format(pid=r"(?P<sh>\d+)", tgid=r"(?P=sh)",
                                                 ppid=1, comm="sh")),
    ("ps shows itself, child of sh", PS_ROW.format(pid=r"\d+", tgid=r"\d+", ppid="{sh}",
                                                   comm="ps")),
    ("a missing program", r"^sh: nosuchprog: not found$"),
    ("$? of a missing program is 127", r"^missing=127$"),
    ("$? of sh -c 'exit 5'", r"^child=5$"),
    ("& prints [PID]", r"^\[(?P<job>\d+)\]$"),
    ("ps shows the background job", PS_ROW.format(pid="{job}", tgid="{job}", ppid="{sh}",
                                                  comm="sleep")),
    ("wait reports the job", r"^\[{job}\] Done$"),
    ("wait's status", r"^waited=0$"),
    # The seed's tool (user-vm-unlock-2.5.31-A2's transcript), 10,000
    # detached CLONE_RELEASE_VM threads, every stack word checked.
    ("start-detached: words set", r"^stack end: 0x12341234$"),
    ("start-detached: started", r"^started up 10000 threads!$"),
    ("start-detached: words zeroed", r"^stack end after all threads exited: 0x00000000\.$"),
    ("start-detached: status", r"^detached=0$"),
    ("exit 3 ends init", r"^init exited with status 3$"),
]


def check_in_order(out, expect):
    """None if every (what, regex) of expect matches out in order, else
    the reason. {name} in a regex is a group (?P<name>...) matched by an
    earlier one."""
    pos, seen = 0, {}
    for what, pat in expect:
        pat = re.sub(r"\{(\w+)\}", lambda m: seen.get(m.group(1), m.group(0)), pat)
        m = re.compile(pat, re.M).search(out, pos)
        if not m:
            return "%s: no line matching /%s/ after offset %d" % (what, pat, pos)
        seen.update(m.groupdict())
        pos = m.end()
    return None


def shell_session(smp):
    name = "smp%d/shell.session" % smp
    b = run_qemu(qemu_kernel_cmd(smp, ""), stdin_script=SHELL_SCRIPT)
    bad = b.problem() or check_in_order(b.out, SHELL_EXPECT)
    errors = re.findall(r"^sh: .*$", b.out, re.M)
    if not bad and errors != ["sh: nosuchprog: not found"]:
        bad = "unexpected shell errors: %s" % errors
    if not bad and b.code != qemu_code(3):
        bad = "QEMU exit %d, want %d (exit 3)" % (b.code, qemu_code(3))
    return [(name, bad, b.tail(40) if bad else None)]


def shell_eof(smp):
    """Ctrl-D at the start of a line: end of input, the shell exits with
    the last status (0: echo's), and so does init."""
    name = "smp%d/shell.eof" % smp
    b = run_qemu(qemu_kernel_cmd(smp, ""),
                 stdin_script=[("$ ", "echo one\n"), ("$ ", "\x04")])
    bad = b.problem() or check_in_order(b.out, [
        ("echo", r"^one$"),
        ("EOF ends the shell and init", r"^init exited with status 0$")])
    if not bad and b.code != qemu_code(0):
        bad = "QEMU exit %d, want %d (status 0)" % (b.code, qemu_code(0))
    return [(name, bad, b.tail(20) if bad else None)]


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


# ---------------------------------------------------------------- loaders
def check_boot_group(name, out):
    """A run of ktest=boot booted by a real loader."""
    if out.count(BANNER) > 1:
        return "the machine rebooted: banner seen twice"
    if BANNER not in out:
        return "no boot banner"
    if "PANIC" in out:
        return "kernel panic"
    m = re.search(r"^ktest: done, (\d+) passed, (\d+) failed$", out, re.M)
    if not m:
        return "no 'ktest: done' line (no clean power-off)"
    if int(m.group(2)) or not int(m.group(1)):
        return "ktest: %s passed, %s failed" % m.groups()
    return None


def grub_qemu():
    name = "grub/qemu_iso_boot"
    cmd = QEMU_BASE + ["-cdrom", TEST_ISO, "-boot", "d"]
    b = run_qemu(cmd)
    out = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", b.out)   # GRUB's escapes
    bad = b.problem() or check_boot_group(name, out)
    if not bad and "loader: GRUB" not in out:
        bad = "the banner does not name GRUB as the loader"
    if not bad and b.code != qemu_code(STATUS_PASS):
        bad = "QEMU exit %d" % b.code
    return [(name, bad, b.tail() if bad else None)]


def bochs(iso=TEST_ISO, cpus=1, name="bochs/iso_boot"):
    if not shutil.which("bochs"):
        return [(name, "bochs is not installed (tools/deps.sh)", None)]
    with tempfile.TemporaryDirectory() as d:
        serial = os.path.join(d, "serial.txt")
        try:
            subprocess.run([os.path.join(ROOT, "tools", "bochs.sh"), iso, serial, str(cpus)],
                           stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=BOCHS_TIMEOUT)
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
        out = open(serial, errors="replace").read().replace("\r", "") \
            if os.path.exists(serial) else ""
    out = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out)
    bad = "timeout" if timed_out else check_boot_group(name, out)
    return [(name, bad, Boot(out, 1, timed_out).tail() if bad else None)]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


GDB_SCRIPT = """set confirm off
set pagination off
file {kernel}
target remote 127.0.0.1:{port}
break kmain
continue
info symbol $pc
break banner_print
continue
x/24gx &cpus[0].gdt
kill
"""


def gdb_session():
    """make qemu-gdb's setup, driven: QEMU stopped at reset with -S, GDB
    stops in kmain with symbols, and reads CPU 0's GDT."""
    name = "gdb/kmain_and_gdt"
    if not shutil.which("gdb"):
        return [(name, "gdb is not installed", None)]
    port = free_port()
    q = subprocess.Popen(qemu_kernel_cmd(1, "") + ["-serial", "null", "-S", "-gdb",
                                                   "tcp:127.0.0.1:%d" % port],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    try:
        with tempfile.NamedTemporaryFile("w", suffix=".gdb", delete=False) as f:
            f.write(GDB_SCRIPT.format(kernel=KERNEL, port=port))
        time.sleep(0.3)
        p = subprocess.run(["gdb", "-nx", "-batch", "-x", f.name],
                           capture_output=True, text=True, timeout=QEMU_TIMEOUT)
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        out = "timeout"
    finally:
        os.unlink(f.name)
        q.kill()
        q.wait()
    if not re.search(r"Breakpoint 1, kmain \(magic=", out):
        return [(name, "GDB did not stop in kmain with symbols", out[-1500:])]
    words = re.findall(r"0x([0-9a-f]{16})", out.split("Breakpoint 2", 1)[-1])
    if len(words) < 24:
        return [(name, "no 24-entry x/24gx dump of cpus[0].gdt", out[-1500:])]
    g = [int(w, 16) & ~(1 << 40) for w in words[:24]]    # ignore Accessed
    want = {4: 0x00cffa000000ffff, 5: 0x00cff2000000ffff,
            12: 0x00cf9a000000ffff, 13: 0x00cf92000000ffff}
    for i, v in want.items():
        if g[i] != v:
            return [(name, "GDT entry %d is %#018x, want %#018x" % (i, g[i], v), None)]
    if any(g[i] for i in list(range(0, 4)) + list(range(6, 12)) + [15] + list(range(16, 24))):
        return [(name, "an entry that must be empty is not: %s" % words, None)]
    return [(name, None, None)]


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
