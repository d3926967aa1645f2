"""tests/busybox.py - make check-linux (tests/run.py --check-linux):
Debian's busybox-static for i386 running on Spindle (docs/busybox.md).

One boot per CPU count of BUSYBOX_SMP_COUNTS, on build/busybox/initrd.cpio
(the usual initrd plus /bin/busybox and tests/busybox/*.sh as
/tests/busybox/). Everything is typed into Spindle's shell (/bin/sh, run by
/bin/init), as a student would:

  smpN/busybox.NAME   `busybox sh /tests/busybox/NAME.sh`: its output must
                      be exactly tests/busybox/NAME.out, and its status 0.
                      A line of NAME.out starting with "~ " is a regular
                      expression the output line must match whole (for
                      times, dates and pids).
  smpN/busybox.from_spindle_sh
                      SPINDLE_SH below: busybox applets started by Spindle's
                      shell, alone and in pipes with Spindle's programs
  smpN/busybox.ash_interactive
                      `busybox sh` at Spindle's shell: busybox's own shell
                      on the console (line editing over termios), a
                      command, `cd`, Ctrl-C ending a `sleep 100` (status
                      130) while the shell lives, and `exit 3` back to
                      Spindle's shell with its status
  smpN/busybox.boot   the boot itself: no panic, the shell's `exit 0` ends
                      init and the machine
  docs/README.run_busybox
                      README's `make run-busybox` transcript, run as
                      written (tests/docs_examples.py)

When busybox could not be fetched (tools/busybox.sh said why, in
build/busybox/why), every test is a SKIP line with that reason.
"""
import os
import re

from docs_examples import readme_run_busybox
from machine import (BUILD, ROOT, SKIP, check_in_order, qemu_code, qemu_kernel_cmd,
                     run_qemu)

BUSYBOX_B = os.path.join(BUILD, "busybox")
BUSYBOX_INITRD = os.path.join(BUSYBOX_B, "initrd.cpio")
SCRIPTS = os.path.join(ROOT, "tests", "busybox")
BUSYBOX_SMP_COUNTS = (1, 4)
BUSYBOX_TIMEOUT = 300

# Typed at Spindle's "$ " prompt: what each must print (exactly, or a "~ "
# regular expression), and its exit status.
SPINDLE_SH = [
    ("busybox echo hello from busybox", ["hello from busybox"], 0),
    ("busybox echo to the cat of Spindle | cat", ["to the cat of Spindle"], 0),
    ("cat /etc/motd | busybox grep -c Spindle", ["1"], 0),
    ("ls /bin | busybox grep -c busybox", ["1"], 0),
    ("busybox seq 3 | cat | busybox wc -l", ["3"], 0),
    ("busybox uname -a",
     ["~ Linux spindle 6\\.1\\.0-spindle #1 SMP Spindle \\S+ \\(a teaching kernel\\) i686 GNU/Linux"],
     0),
    ("busybox sh -c 'exit 5'", [], 5),
    ("busybox false", [], 1),
    ("busybox readlink /proc/self/exe", ["/bin/busybox"], 0),
]


# busybox's shell typed into: (prompt, text[, delay]) as run_qemu takes
# them, and what must come out, in order (machine.check_in_order).
ASH_SCRIPT = [
    ("$ ", "busybox sh\n"),
    ("# ", "echo ash $((6 * 7))\n"),
    ("# ", "cd /proc && pwd\n"),
    ("# ", "sleep 100\n"),
    ("sleep 100", "\x03", 1.0),          # Ctrl-C once it runs
    ("# ", "echo status $?\n"),
    ("# ", "exit 3\n"),
    ("$ ", "echo @@ash $?\n"),
]
ASH_EXPECT = [
    ("busybox's banner", r"^BusyBox v1\.\d+\.\d+ .*built-in shell \(ash\)$"),
    ("arithmetic", r"^ash 42$"),
    ("cd and pwd", r"^/proc$"),
    ("Ctrl-C echoed", r"\^C$"),
    ("the interrupted command's status", r"^status 130$"),
    ("exit 3 back in Spindle's shell", r"^@@ash 3$"),
]


def scripts():
    return sorted(f[:-3] for f in os.listdir(SCRIPTS) if f.endswith(".sh"))


def test_names(smp):
    p = "smp%d/busybox." % smp
    return [p + s for s in scripts()] + [p + "from_spindle_sh", p + "ash_interactive",
                                         p + "boot"]


def skip_reason():
    """None if the tests can run, else why not."""
    if os.path.exists(BUSYBOX_INITRD):
        return None
    try:
        why = open(os.path.join(BUSYBOX_B, "why")).read().strip()
    except OSError:
        why = ""
    return why or "no %s (make check-linux fetches busybox and builds it)" % \
        os.path.relpath(BUSYBOX_INITRD, ROOT)


def compare(got, want):
    """None if the lines got match the lines want, else the first
    difference."""
    for i, (g, w) in enumerate(zip(got, want)):
        ok = re.fullmatch(w[2:], g) if w.startswith("~ ") else g == w
        if not ok:
            return "line %d is %r, want %r" % (i + 1, g, w)
    if len(got) != len(want):
        return "%d lines, want %d (%s)" % (
            len(got), len(want),
            "first extra: %r" % got[len(want)] if len(got) > len(want)
            else "first missing: %r" % want[len(got)])
    return None


def between(out, begin, end_re):
    """The lines printed between the line `begin` and the line matching
    end_re, less the echo of the commands typed there; the end match."""
    at = out.find("\n" + begin + "\n")
    if at < 0:
        return None, None
    m = re.compile(end_re, re.M).search(out, at)
    if not m:
        return None, None
    lines = out[at + len(begin) + 2:m.start()].split("\n")
    # The first line is the typed command's echo after the prompt, the
    # last the prompt and the echo of the end marker's command.
    return lines[1:-2], m


def session(smp):
    """One boot: every script, then SPINDLE_SH, then exit 0."""
    prefix = "smp%d/busybox." % smp
    why = skip_reason()
    if why:
        return [(n, SKIP + why, None) for n in test_names(smp)]
    typed = []
    for s in scripts():
        typed += ["echo @@begin %s" % s, "busybox sh /tests/busybox/%s.sh" % s,
                  "echo @@end %s $?" % s]
    for i, (cmd, _, _) in enumerate(SPINDLE_SH):
        typed += ["echo @@begin sh%d" % i, cmd, "echo @@end sh%d $?" % i]
    typed.append("echo @@begin ash")
    script = [("$ ", t + "\n") for t in typed] + ASH_SCRIPT + [("$ ", "exit 0\n")]
    b = run_qemu(qemu_kernel_cmd(smp, "", BUSYBOX_INITRD),
                 stdin_script=script, timeout=BUSYBOX_TIMEOUT)
    # The whole console, to read when something fails.
    with open(os.path.join(BUSYBOX_B, "console-smp%d.txt" % smp), "w") as f:
        f.write(b.out)
    res = []
    for s in scripts():
        lines, end = between(b.out, "@@begin " + s, r"^@@end %s (\d+)$" % s)
        want = open(os.path.join(SCRIPTS, s + ".out")).read().splitlines()
        if lines is None:
            bad = "no output between @@begin %s and @@end %s" % (s, s)
        else:
            bad = compare(lines, want)
            if not bad and end.group(1) != "0":
                bad = "exit status %s" % end.group(1)
        res.append((prefix + s, bad,
                    "\n".join("    | " + l for l in (lines or [])[-30:]) if bad else None))
    bad = None
    for i, (cmd, want, status) in enumerate(SPINDLE_SH):
        lines, end = between(b.out, "@@begin sh%d" % i, r"^@@end sh%d (\d+)$" % i)
        if lines is None:
            bad = "`%s`: no output between its markers" % cmd
        elif compare(lines, want):
            bad = "`%s`: %s" % (cmd, compare(lines, want))
        elif int(end.group(1)) != status:
            bad = "`%s`: exit status %s, want %d" % (cmd, end.group(1), status)
        if bad:
            break
    res.append((prefix + "from_spindle_sh", bad, b.tail(20) if bad else None))
    at = b.out.find("\n@@begin ash\n")
    bad = check_in_order(b.out[at:], ASH_EXPECT) if at >= 0 else "no @@begin ash"
    res.append((prefix + "ash_interactive", bad, b.tail(20) if bad else None))
    bad = b.problem()
    if not bad and not re.search(r"^init exited with status 0$", b.out, re.M):
        bad = "no 'init exited with status 0' after exit 0"
    if not bad and b.code != qemu_code(0):
        bad = "QEMU exit %d, want %d (status 0)" % (b.code, qemu_code(0))
    res.append((prefix + "boot", bad, b.tail(30) if bad else None))
    return res


def busybox_jobs():
    """(name, function, args) for tests/run.py --check-linux."""
    return [("smp%d/busybox" % smp, session, (smp,)) for smp in BUSYBOX_SMP_COUNTS] + \
        [("docs/README.run_busybox", readme_run_busybox, ())]
