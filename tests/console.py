"""tests/console.py - tests/run.py's console sessions: the kernel monitor,
6 KB typed ahead of the shell, and /bin/sh driven through the serial
console with a script of commands and the output they must give."""
import re

from machine import BANNER, check_in_order, qemu_code, qemu_kernel_cmd, run_qemu


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
    ("$ ", "ls /bin\n"),
    ("$ ", "ls /etc/motd\n"),
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
    ("ls /bin lists sh", r"^\s*\d+ sh$"),
    ("ls lists /etc/motd", r"^\s*\d+ /etc/motd$"),
    ("cat /etc/motd", r"^Welcome to Spindle"),
    ("ps header", r"^\s*TID\s+TGID\s+PPID\s+STATE\s+CPU\s+EXITSIG\s+COMM\s+TLS6\s+TLS7\s+TLS8\s+PERS$"),
    ("ps shows init as pid 1", PS_ROW.format(pid=1, tgid=1, ppid=0, comm="init")),
    ("ps shows sh, child of init", PS_ROW.format(pid=r"(?P<sh>\d+)", tgid=r"(?P=sh)",
                                                 ppid=1, comm="sh")),
    ("ps shows itself, child of sh", PS_ROW.format(pid=r"\d+", tgid=r"\d+", ppid="{sh}",
                                                   comm="ps")),
    ("a missing program", r"^sh: nosuchprog: not found$"),
    ("$? of a missing program is 127", r"^missing=127$"),
    ("$? of sh -c 'exit 5'", r"^child=5$"),
    ("& prints [PID]", r"^\[(?P<job>\d+)\]$"),
    # Its comm is still sh if ps runs before the forked child's execve
    # (a loaded host may not have run the child yet): both are the job.
    ("ps shows the background job", PS_ROW.format(pid="{job}", tgid="{job}", ppid="{sh}",
                                                  comm="(?:sleep|sh)")),
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


# Files through the shell: cd, redirections, pipes, ls, mkdir, mv, rm.
SHELL_FILES_SCRIPT = [
    ("$ ", "mkdir /work\n"),
    ("$ ", "cd /work\n"),
    ("$ ", "pwd\n"),
    ("$ ", "echo one > f\n"),
    ("$ ", "echo two >>f\n"),
    ("$ ", "cat < f\n"),
    ("$ ", "echo hello pipes | cat | cat\n"),
    ("$ ", "ls /bin | cat > list\n"),
    ("$ ", "cat list\n"),
    ("$ ", "mv f g\n"),
    ("$ ", "ls\n"),
    ("$ ", "cat g | cat > /dev/null\n"),
    ("$ ", "echo piped=$?\n"),
    ("$ ", "rm g list\n"),
    ("$ ", "cd ..\n"),
    ("$ ", "rm -d /work\n"),
    ("$ ", "ls /work\n"),
    ("$ ", "cd /nowhere\n"),
    ("$ ", "cat < /nowhere\n"),
    ("$ ", "echo status=$?\n"),
    ("$ ", "echo x |\n"),
    ("$ ", "exit 4\n"),
]
SHELL_FILES_EXPECT = [
    ("pwd after cd", r"^/work$"),
    ("> then >> then <", r"^one\r?\n\s*two$"),
    ("a pipeline of three", r"^hello pipes$"),
    ("ls /bin | cat > list, then cat list", r"^\s*\d+ sh$"),
    ("ls after mv", r"^\s+8 g$"),
    ("ls lists the file ls wrote", r"^\s*\d+ list$"),
    ("a pipeline's status", r"^piped=0$"),
    ("rm -d removed the directory", r"^ls: /work: No such file or directory$"),
    ("cd to a missing directory", r"^sh: cd: /nowhere: No such file or directory$"),
    ("< from a missing file", r"^sh: /nowhere: No such file or directory$"),
    ("the failed redirection's status", r"^status=1$"),
    ("a pipe with no command after it", r"^sh: syntax error: '\|' needs a command on each side$"),
    ("exit 4 ends init", r"^init exited with status 4$"),
]


def shell_files(smp):
    name = "smp%d/shell.files" % smp
    b = run_qemu(qemu_kernel_cmd(smp, ""), stdin_script=SHELL_FILES_SCRIPT)
    bad = b.problem() or check_in_order(b.out, SHELL_FILES_EXPECT)
    if not bad and b.code != qemu_code(4):
        bad = "QEMU exit %d, want %d (exit 4)" % (b.code, qemu_code(4))
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


# The shell survives the out-of-memory policy (kernel/mm/oom.h): memhog
# touches more than the machine has and is the one killed; init and the
# shell live, and /proc/kstat can be read right after.
OOM_SCRIPT = [
    ("$ ", "memhog\n"),
    ("$ ", "echo hog=$?\n"),
    ("$ ", "ps\n"),
    ("$ ", "cat /proc/kstat\n"),
    ("$ ", "exit 4\n"),
]
OOM_EXPECT = [
    ("the policy's line", r"^\.*Out of memory: Killed process \d+ \(memhog\) anon-rss:\d+kB$"),
    ("memhog's $? is 128 + SIGKILL", r"^hog=137$"),
    ("ps shows init", PS_ROW.format(pid=1, tgid=1, ppid=0, comm="init")),
    ("ps shows sh", PS_ROW.format(pid=r"\d+", tgid=r"\d+", ppid=1, comm="sh")),
    ("/proc/kstat is readable", r"^frames_free \d+$"),
    ("exit 4 ends init", r"^init exited with status 4$"),
]


def shell_oom(smp):
    name = "smp%d/shell.oom" % smp
    b = run_qemu(qemu_kernel_cmd(smp, ""), stdin_script=OOM_SCRIPT)
    bad = b.problem() or check_in_order(b.out, OOM_EXPECT)
    if not bad and len(re.findall(r"Out of memory: Killed", b.out)) != 1:
        bad = "not exactly one out-of-memory kill"
    if not bad and b.code != qemu_code(4):
        bad = "QEMU exit %d, want %d (exit 4)" % (b.code, qemu_code(4))
    return [(name, bad, b.tail(40) if bad else None)]
