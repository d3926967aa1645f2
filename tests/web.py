"""tests/web.py - tests/run.py's checks of the browser build and of the
machine it runs on (docs/web.md):

  up/noapic.*        QEMU with a CPU that has no local APIC (-cpu
                     qemu32,-apic), as v86 emulates: the kernel's one-CPU,
                     8259 PIC path, driven through the shell
  up/no_poweroff     QEMU without isa-debug-exit: init's exit is said, then
                     the line "spindle: no power-off device: the machine is
                     halted" is the last, and the machine stays halted
  web/node.*         build/web's files booted by v86 in Node
                     (tests/web/node.mjs), no browser
  web/node_iso.*     the same with spindle.iso through SeaBIOS and GRUB
  web/chromium.*     build/web served on 127.0.0.1 and driven in headless
                     Chromium (tests/web/browser.mjs); its screenshot goes
                     to build/web-screenshot.png
"""
import os
import re
import shutil
import subprocess

from machine import (BANNER, BUILD, INITRD, KERNEL, QEMU_BASE, ROOT, check_in_order,
                     qemu_code, run_qemu)

WEB = os.path.join(BUILD, "web")
WEB_NPM = os.path.join(BUILD, "web-npm")
SCREENSHOT = os.path.join(BUILD, "web-screenshot.png")
CHROMIUM = "/usr/bin/chromium"
HALTED = "spindle: no power-off device: the machine is halted"
WEB_TIMEOUT = 150           # each of the two web runs, start to end

NOAPIC_EXPECT = [
    ("the one-CPU 8259 path", r"^smp: no local APIC in xAPIC mode: one CPU, 8259 PICs$"),
    ("the banner", re.escape(BANNER)),
    ("one CPU", r"^cpus: 1 running"),
    ("tls-demo", r"^tls-demo: 4 threads and main; one selector, a base each$"),
    ("tls-demo's last thread", r"^thread 3: %gs=0x33 \(entry 6\) base=0x[0-9a-f]{8} "),
    ("ps", r"^TID TGID PPID STATE CPU EXITSIG COMM"),
    ("ps lists itself", r"^\s+\d+\s+\d+\s+\d+ R\s+0\s+17 ps "),
    ("init's end", r"^init exited with status 0$"),
]


def up_noapic():
    """The uniprocessor no-APIC path under QEMU, so that it is tested on
    every make check, not only when v86 runs."""
    name = "up/noapic.shell"
    cmd = QEMU_BASE + ["-cpu", "qemu32,-apic", "-smp", "1", "-kernel", KERNEL,
                       "-initrd", INITRD, "-append", ""]
    b = run_qemu(cmd, stdin_script=[("$ ", "tls-demo\n"), ("$ ", "ps\n"),
                                    ("$ ", "exit 0\n")])
    bad = b.problem() or check_in_order(b.out, NOAPIC_EXPECT)
    if not bad and b.code != qemu_code(0):
        bad = "QEMU exit %d, want %d (status 0)" % (b.code, qemu_code(0))
    return [(name, bad, b.tail(20) if bad else None)]


def no_poweroff(smp=1):
    """A machine without a power-off device (QEMU without isa-debug-exit,
    as v86): the kernel's last line, and then nothing. With smp > 1 the
    other CPUs are stopped first (arch/i386/power.c): the line must still
    come, last."""
    name = "up/no_poweroff" if smp == 1 else "smp%d/no_poweroff" % smp
    cmd = [a for a in QEMU_BASE if not a.startswith("isa-debug-exit")]
    cmd.remove("-device")
    cmd += ["-smp", str(smp), "-kernel", KERNEL, "-initrd", INITRD, "-append", "init=/bin/sh"]
    b = run_qemu(cmd, stdin_script=[("$ ", "exit 5\n")], stop_on=HALTED)
    bad = b.problem()
    if not bad and not re.search(r"^init exited with status 5$", b.out, re.M):
        bad = "no 'init exited with status 5' line"
    if not bad and not b.out.rstrip().endswith(HALTED):
        bad = "the last line is not %r" % HALTED
    if not bad and b.code >= 0:
        bad = "QEMU exited by itself (%d): there is no device to power it off" % b.code
    return [(name, bad, b.tail() if bad else None)]


def node_lines(prefix, cmd, timeout=WEB_TIMEOUT):
    """Runs a tests/web/ script; its PASS/FAIL lines, and a failure of the
    whole if it printed none or exited non-zero without a FAIL line."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           stdin=subprocess.DEVNULL, cwd=ROOT)
        out, code = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        code = "timeout after %d s" % timeout
        p = None
    res, detail = [], []
    for line in out.splitlines():
        m = re.match(r"^(PASS|FAIL) (\S+?)(?:: (.*))?$", line)
        if m:
            res.append((m.group(2), None if m.group(1) == "PASS" else m.group(3) or "failed",
                        None))
        elif line.startswith("    | "):
            detail.append(line)
    if detail and res:
        name, reason, _ = next((r for r in res if r[1]), res[-1])
        res = [(n, r, "\n".join(detail) if (n, r) == (name, reason) else None)
               for n, r, _ in res]
    if not res or (code != 0 and all(r[1] is None for r in res)):
        err = (p.stderr if p else "")[-1500:]
        res.append((prefix, "exit %s, %d results" % (code, len(res)),
                    "\n".join("    | " + l for l in (out[-800:] + err).splitlines())))
    return res


def web_ready(prefix):
    """None if build/web and its npm packages are there, else the reason."""
    if not os.path.exists(os.path.join(WEB, "index.html")):
        return "no %s/index.html (make web)" % WEB
    if not shutil.which("node"):
        return "no node (tools/deps.sh web installs Node.js)"
    return None


def web_node(iso=False):
    name = "web/node_iso" if iso else "web/node"
    bad = web_ready(name)
    if bad:
        return [(name, bad, None)]
    return node_lines(name, ["node", "tests/web/node.mjs", WEB] + (["iso"] if iso else []))


def web_browser():
    bad = web_ready("web/chromium")
    if not bad and not os.access(CHROMIUM, os.X_OK):
        bad = "no %s: Debian's chromium is not installed (tools/deps.sh web)" % CHROMIUM
    if bad:
        return [("web/chromium", bad, None)]
    server = subprocess.Popen(["python3", "tools/serve-web.py", WEB], cwd=ROOT,
                              stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        url = server.stdout.readline().strip()
        if not url.startswith("http://127.0.0.1:"):
            return [("web/chromium", "tools/serve-web.py did not start: %r" % url, None)]
        return node_lines("web/chromium", ["node", "tests/web/browser.mjs", url,
                                           WEB_NPM, SCREENSHOT])
    finally:
        server.kill()
        server.wait()
