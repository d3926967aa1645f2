"""tests/loaders.py - tests/run.py's boots by real loaders and debuggers:
the GRUB ISO in QEMU, the same ISO under Bochs (1 and 2 CPUs), a user test
program as init under Bochs, and GDB on QEMU's stub reading the GDT."""
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time

from machine import (BANNER, BOCHS_TIMEOUT, KERNEL, LINE_RE, QEMU_BASE, QEMU_TIMEOUT,
                     ROOT, STATUS_PASS, TEST_ISO, Boot, qemu_code, qemu_kernel_cmd,
                     run_qemu)

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
    if not shutil.which("bochs"):
        return [(name, "bochs is not installed (tools/deps.sh)", None)]
    out, timed_out = bochs_serial(iso, cpus)
    bad = "timeout" if timed_out else check_boot_group(name, out)
    return [(name, bad, Boot(out, 1, timed_out).tail() if bad else None)]


def bochs_user(iso, cpus, prog):
    """A user test program booted as init from iso under Bochs: its
    PASS/FAIL lines as bochs/PROG.CASE, and bochs/PROG itself fails
    without `init exited with status 0` or without a PASS line."""
    name = "bochs/" + prog
    if not shutil.which("bochs"):
        return [(name, "bochs is not installed (tools/deps.sh)", None)]
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
