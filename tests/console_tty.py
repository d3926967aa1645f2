"""tests/console_tty.py - tests/run.py's terminal sessions: Ctrl-C and
Ctrl-\\ typed at the shell reach the command in the foreground (its own
process group) and not the shell; Ctrl-Z stops it and `fg` continues it
(shell.susp); and raw-mode reads (VMIN/VTIME, no ISIG, no ECHO) of bytes
typed to /tests/t_tty -- raw."""
import re

from machine import LINE_RE, check_in_order, qemu_code, qemu_kernel_cmd, run_qemu

# The 1-second delays give `sleep` time to start (and take the console)
# before the key comes; without job control the ^C kills the shell.
SHELL_INTR_SCRIPT = [
    ("$ ", "sleep 100\n"),
    ("sleep 100", "\x03", 1.0),
    ("$ ", "echo status=$?\n"),
    ("$ ", "half typed\x03"),
    ("^C", "echo alive\n"),
    ("$ ", "sleep 100 | sleep 100\n"),
    ("sleep 100 | sleep 100", "\x1c", 1.0),
    ("$ ", "echo status=$?\n"),
    ("$ ", "exit 6\n"),
]
SHELL_INTR_EXPECT = [
    ("^C echoed", r"^\$ sleep 100\n\^C$"),
    ("sleep died of SIGINT, the shell lives", r"^status=130$"),
    ("^C at the prompt drops the line", r"^\$ half typed\^Cecho alive\nalive$"),
    ("^\\ kills the whole pipeline", r"^\^\\Quit$"),
    ("SIGQUIT's status", r"^status=131$"),
    ("the shell exits normally", r"^init exited with status 6$"),
]


def shell_intr(smp):
    """sleep 100 would outlive the boot's timeout: reaching the prompt
    again proves the interrupt."""
    name = "smp%d/shell.intr" % smp
    b = run_qemu(qemu_kernel_cmd(smp, ""), timeout=60, stdin_script=SHELL_INTR_SCRIPT)
    bad = b.problem() or check_in_order(b.out, SHELL_INTR_EXPECT)
    if not bad and b.code != qemu_code(6):
        bad = "QEMU exit %d, want %d (exit 6)" % (b.code, qemu_code(6))
    return [(name, bad, b.tail(30) if bad else None)]


# Ctrl-Z stops the foreground pipeline (compat/linux/jobctl.c), the shell takes
# the console back; fg gives it back and continues the job, which ^C then
# ends: sleep 100 would outlive the boot's timeout otherwise.
SHELL_SUSP_SCRIPT = [            # each line typed at a prompt: no typeahead
    ("$ ", "sleep 100\n"),
    ("sleep 100", "\x1a", 2.0),
    ("Stopped", ""),
    ("$ ", "echo status=$?\n"),
    ("status=148", ""),
    ("$ ", "fg\n"),
    ("Continued", "\x03", 2.0),
    ("$ ", "echo after=$?\n"),
    ("after=130", ""),
    ("$ ", "sleep 100 | sleep 100\n"),
    ("sleep 100 | sleep 100", "\x1a", 2.0),
    ("Stopped", ""),
    ("$ ", "fg\n"),
    ("Continued", "\x1c", 2.0),
    ("Quit", ""),
    ("$ ", "fg\n"),
    ("no stopped job", ""),
    ("$ ", "exit 7\n"),
]
SHELL_SUSP_EXPECT = [
    ("^Z echoed", r"^\$ sleep 100\n\^Z$"),
    ("the shell says the job stopped", r"^\[\d+\] Stopped$"),
    ("a stop's status: 128 + SIGTSTP", r"^status=148$"),
    ("fg says so", r"^\[\d+\] Continued$"),
    ("fg continued it, ^C then ended it", r"^after=130$"),
    ("a stopped pipeline continues whole", r"^\^\\Quit$"),
    ("nothing left to continue", r"^fg: no stopped job$"),
    ("the shell exits normally", r"^init exited with status 7$"),
]


def shell_susp(smp):
    name = "smp%d/shell.susp" % smp
    b = run_qemu(qemu_kernel_cmd(smp, ""), timeout=60, stdin_script=SHELL_SUSP_SCRIPT)
    bad = b.problem() or check_in_order(b.out, SHELL_SUSP_EXPECT)
    if not bad and b.code != qemu_code(7):
        bad = "QEMU exit %d, want %d (exit 7)" % (b.code, qemu_code(7))
    return [(name, bad, b.tail(30) if bad else None)]


TTY_RAW_SCRIPT = [
    ("raw-vmin3>", "ab", 0.5),
    ("", "c", 0.5),               # the read returns only with the third
    ("raw-inter>", "xy", 0.3),
    ("raw-noisig>", "\x03", 0.3),
    ("raw-cr>", "\r", 0.3),
    ("canon-noecho>", "secret\n", 0.3),
]


def tty_raw(smp):
    """The PASS/FAIL lines of t_tty's raw cases, and the output checks
    only the console can make: nothing echoed with ECHO off."""
    prefix = "smp%d/" % smp
    b = run_qemu(qemu_kernel_cmd(smp, "init=/tests/t_tty -- raw"), timeout=60,
                 stdin_script=TTY_RAW_SCRIPT)
    res = []
    for line in b.out.splitlines():
        m = LINE_RE.match(line.strip())
        if m:
            res.append((prefix + m.group(2),
                        None if m.group(1) == "PASS" else (m.group(3) or "failed"), None))
    bad = b.problem()
    if not bad and len(res) != 5:
        bad = "%d PASS/FAIL lines, want 5" % len(res)
    if not bad and not re.search(r"^canon-noecho>\ngot=secret$", b.out, re.M):
        bad = "with ECHO off the typed line was shown"
    if not bad and "abc" in b.out:
        bad = "with ECHO off raw bytes were echoed"
    res.append((prefix + "console.tty_raw", bad, b.tail(30) if bad else None))
    return res
