"""tests/machine.py - running one machine for tests/run.py: where the build
is, the QEMU command line, a boot with its serial console on a pipe (and a
script typed into it), what a boot's ending means, and the PASS/FAIL
results."""
import os
import re
import select
import shutil
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# make check passes its build directory (make B=dir) in the environment.
BUILD = os.path.abspath(os.environ.get("SPINDLE_BUILD", os.path.join(ROOT, "build")))
KERNEL = os.path.join(BUILD, "kernel.elf")
# The same kernel with the in-kernel test groups (tests/guest) linked in:
# the kernel of make run carries no test code (docs/testing.md).
TEST_KERNEL = os.path.join(BUILD, "kernel-test.elf")
# The seed kernel, the core alone (make seed).
SEED_KERNEL = os.path.join(BUILD, "seed", "kernel.elf")
INITRD = os.path.join(BUILD, "initrd.cpio")
TEST_ISO = os.path.join(BUILD, "spindle-test.iso")
TEST_ISO_SMP = os.path.join(BUILD, "spindle-test-smp.iso")   # ktest=smp expect_cpus=2
TEST_ISO_FPU = os.path.join(BUILD, "spindle-test-fpu.iso")   # init=/tests/t_fpu_fault

SMP_COUNTS = (1, 2, 4, 8)

# Seconds for one boot (TCG, loaded machine). SPINDLE_QEMU_TIMEOUT
# shortens it where a hang is expected: labs/labN_stripped grades stubs,
# some of which spin until they are stopped.
# QEMU's deterministic setup (docs/races.md, "The deterministic machine"):
# the one line of tools/icount.flags, as make bench and make race use it.
with open(os.path.join(ROOT, "tools", "icount.flags")) as _f:
    ICOUNT = _f.read().split()
QEMU_TIMEOUT = int(os.environ.get("SPINDLE_QEMU_TIMEOUT", "120"))
BOCHS_TIMEOUT = 300
BANNER = "Spindle 0.1 booting"
STATUS_PASS, STATUS_FAIL, STATUS_PANIC = 0x10, 0x11, 0x7f


# make check builds whole trees besides this one: each lab's student tree
# (tests/labs.py) and the copy with a planted race (tests/race_check.py).
# They compile mostly the same files as each other. Through ccache
# (tools/deps.sh installs it for make check), with its cache in
# build/ccache, a tree compiles only what differs from the trees built
# before it: about 8 s instead of 30 s a tree here. The objects are the
# same bytes either way, because the build is reproducible: the
# -ffile-prefix-map flags keep a tree's directory out of its objects, and
# ccache hashes the directory as mapped. Without ccache, the trees build
# as they always did.
def other_tree_make(argv, env=None):
    """(argv, env) for running make, argv, in another tree."""
    if not shutil.which("ccache"):
        return argv, env
    env = dict(env or os.environ, CCACHE_DIR=os.path.join(BUILD, "ccache"))
    return argv + ["CC=ccache gcc", "HOSTCC=ccache gcc"], env



def qemu_code(status):
    """QEMU's exit code for a guest outb(0xf4, status) (isa-debug-exit)."""
    return (status << 1) | 1


QEMU_BASE = ["qemu-system-i386", "-m", "128", "-display", "none",
             "-no-reboot", "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]


def qemu_kernel_cmd(smp, append, initrd=INITRD, mem=128, cpu=None, kernel=None):
    """cpu: a QEMU CPU model (-cpu), or None for QEMU's default (qemu32,
    which lacks UMIP; `max` has it: docs/reliability.md). kernel: the
    image; by default the test kernel for a ktest= boot, else the
    kernel of make run."""
    if kernel is None:
        kernel = TEST_KERNEL if re.search(r"(^| )ktest=", append) else KERNEL
    cmd = QEMU_BASE + ["-smp", str(smp), "-kernel", kernel,
                       "-initrd", initrd, "-append", append]
    cmd[cmd.index("-m") + 1] = str(mem)
    if cpu:
        cmd += ["-cpu", cpu]
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


def run_qemu(cmd, timeout=QEMU_TIMEOUT, stdin_script=None, stop_on=None):
    """Runs QEMU with the serial console on a pipe. stdin_script is a list
    of (prompt, line) or (prompt, line, delay): each line is sent once
    prompt has appeared after the previous send (and delay seconds more,
    for a program that must get going before it is sent something).
    stop_on: a text after which QEMU is not waited for but killed, a
    second later (a machine that halts instead of powering off); such a
    run counts as timed out only if the text never came."""
    p = subprocess.Popen(cmd + ["-serial", "stdio"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = b""
    script = list(stdin_script or [])
    seen = 0
    deadline = time.monotonic() + timeout
    timed_out = False
    stopping = False
    while True:
        if stop_on and not stopping and stop_on.encode() in out:
            stopping = True
            deadline = min(deadline, time.monotonic() + 1.0)
        while script and script[0][0].encode() in out[seen:]:
            prompt, line = script[0][:2]
            delay = script[0][2] if len(script[0]) > 2 else 0
            script.pop(0)
            seen = out.index(prompt.encode(), seen) + len(prompt)
            if delay:
                time.sleep(delay)
            try:
                p.stdin.write(line.encode())
                p.stdin.flush()
            except BrokenPipeError:
                script = []
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = not stopping
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
# A test function's reason starting with SKIP is a SKIP line: something
# the test needs is not installed (tools/deps.sh names it).
SKIP = "SKIP: "


class Results:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def skip(self, name, reason):
        self.skipped += 1
        print("SKIP %s: %s" % (name, reason), flush=True)

    def summary(self):
        """The last line: exactly `N passed, N failed`, then `, N skipped`
        if anything was."""
        s = "%d passed, %d failed" % (self.passed, self.failed)
        return s + (", %d skipped" % self.skipped if self.skipped else "")

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
