"""tests/loaders.py - tests/run.py's boots by real loaders: the GRUB ISO
in QEMU, the same ISO under Bochs (1 and 2 CPUs), a user test program as
init under Bochs, and the shell driven under Bochs through COM1 on a
terminal, as `make bochs` runs it. A loader
that is not installed gives a SKIP line, not a failure (tools/deps.sh
names the package). GDB's sessions are in tests/gdb_tests.py."""
import os
import pty
import re
import select
import shutil
import subprocess
import tempfile
import time

from machine import (BANNER, BOCHS_TIMEOUT, BUILD, LINE_RE, QEMU_BASE, ROOT, SKIP,
                     STATUS_PASS, TEST_ISO, Boot, check_in_order, qemu_code, run_qemu)

ISO = os.path.join(BUILD, "spindle.iso")


def loader_missing(iso, need_bochs):
    """Why a loader test cannot run here (a SKIP reason), or None."""
    if need_bochs and not shutil.which("bochs"):
        return SKIP + "bochs is not installed (tools/deps.sh bochs)"
    if not os.path.exists(iso):
        if not shutil.which("grub-mkrescue"):
            return SKIP + "grub-mkrescue is not installed, so no ISO (tools/deps.sh iso)"
        return "no %s (make iso)" % iso
    return None

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
    why = loader_missing(TEST_ISO, False)
    if why:
        return [(name, why, None)]
    cmd = QEMU_BASE + ["-cdrom", TEST_ISO, "-boot", "d"]
    b = run_qemu(cmd)
    out = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", b.out)   # GRUB's escapes
    bad = b.problem() or check_boot_group(name, out)
    if not bad and "loader: GRUB" not in out:
        bad = "the banner does not name GRUB as the loader"
    if not bad and b.code != qemu_code(STATUS_PASS):
        bad = "QEMU exit %d" % b.code
    return [(name, bad, b.tail() if bad else None)]


def bochs_serial(iso, cpus):
    """Boots iso under Bochs; (serial output without escapes, timed out)."""
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
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out), timed_out


def bochs(iso=TEST_ISO, cpus=1, name="bochs/iso_boot"):
    why = loader_missing(iso, True)
    if why:
        return [(name, why, None)]
    out, timed_out = bochs_serial(iso, cpus)
    bad = "timeout" if timed_out else check_boot_group(name, out)
    return [(name, bad, Boot(out, 1, timed_out).tail() if bad else None)]


def bochs_user(iso, cpus, prog):
    """A user test program booted as init from iso under Bochs: its
    PASS/FAIL lines as bochs/PROG.CASE, and bochs/PROG itself fails
    without `init exited with status 0` or without a PASS line."""
    name = "bochs/" + prog
    why = loader_missing(iso, True)
    if why:
        return [(name, why, None)]
    out, timed_out = bochs_serial(iso, cpus)
    res = []
    for line in out.splitlines():
        m = LINE_RE.match(line.strip())
        if m:
            res.append(("bochs/" + m.group(2),
                        None if m.group(1) == "PASS" else (m.group(3) or "failed"), None))
    bad = None
    if timed_out:
        bad = "timeout"
    elif "PANIC" in out:
        bad = "kernel panic"
    elif not re.search(r"^init exited with status 0$", out, re.M):
        bad = "no 'init exited with status 0' line"
    elif not any(r is None for _, r, _ in res):
        bad = "no PASS line"
    if bad:
        res.append((name, bad, Boot(out, 1, timed_out).tail(20)))
    return res


# The shell under Bochs, as `make bochs` runs it: COM1 in Bochs's `term`
# mode on a terminal (here a pseudo-terminal the test holds the other end
# of), typed into and read back.
BOCHS_SHELL = [("$ ", "echo typed under bochs\n"), ("$ ", "tls-demo\n"), ("$ ", "exit 5\n")]
BOCHS_SHELL_EXPECT = [
    ("the banner", r"Spindle 0\.1 booting \(i386, loader: GRUB"),
    ("echo", r"^typed under bochs$"),
    ("tls-demo", r"^thread 0: %gs=0x33 \(entry 6\) base=0x[0-9a-f]{8}"),
    ("tls-demo's main", r"^main    : %gs=0x33"),
    ("exit 5 powers off", r"^init exited with status 5$"),
]


def bochs_shell(iso=ISO, cpus=1, name="bochs/shell_session", expect=None):
    """The shell under Bochs: BOCHS_SHELL typed, expect (BOCHS_SHELL_EXPECT
    by default) checked in order."""
    why = loader_missing(iso, True)
    if why:
        return [(name, why, None)]
    master, slave = pty.openpty()
    p = subprocess.Popen([os.path.join(ROOT, "tools", "bochs.sh"), "--console",
                          os.ttyname(slave), iso, str(cpus)], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out, script, seen = b"", list(BOCHS_SHELL), 0
    deadline = time.monotonic() + BOCHS_TIMEOUT
    timed_out = True
    try:
        while time.monotonic() < deadline:
            while script and script[0][0].encode() in out[seen:]:
                prompt, line = script.pop(0)
                seen = out.index(prompt.encode(), seen) + len(prompt)
                os.write(master, line.encode())
            r, _, _ = select.select([master], [], [], 0.5)
            if r:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    break
            if p.poll() is not None and not r:
                timed_out = False
                break
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()
        os.close(master)
        os.close(slave)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.decode("utf-8", "replace")).replace("\r", "")
    b = Boot(text, 1, timed_out)
    bad = "timeout" if timed_out else check_in_order(text, expect or BOCHS_SHELL_EXPECT)
    if not bad and "PANIC" in text:
        bad = "kernel panic"
    return [(name, bad, b.tail(20) if bad else None)]
