"""tests/docs_examples.py - the project's documents checked against the
tree: no file refers outside the repository, and every command and
example that README.md and docs/ show is run as written (docs/examples).

repo/no_outside_references: every file git tracks (or, without git, every
file outside build/) is free of paths into the course machine's shared
area, and every relative Markdown link lands on a file of the tree.

docs/linux_abi_calls is tests/linux_abi_check.py.
"""
import os
import re
import subprocess

from machine import BUILD, ROOT, SKIP
from docs_covered import COVERED
from linux_abi_check import linux_abi_calls

# A project file may name only its own files: no sibling directory, no
# absolute path into the machine it was written on.
OUTSIDE_RE = re.compile(r"\.\./shared\b|/work/|\bshared/(?:spec|notes|seeds)\b")
LINK_RE = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def tree_files():
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode()
        files = [f for f in out.split("\0") if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(ROOT):
        dirs[:] = [x for x in dirs if x not in (".git", "build")]
        files += [os.path.relpath(os.path.join(d, n), ROOT) for n in names]
    return files


def outside_references():
    name = "repo/no_outside_references"
    bad = []
    for f in sorted(tree_files()):
        path = os.path.join(ROOT, f)
        if not os.path.isfile(path):
            continue
        try:
            text = open(path, encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if OUTSIDE_RE.search(line) and f != "tests/docs_examples.py":
                bad.append("%s:%d: %s" % (f, n, line.strip()[:100]))
            if f.endswith(".md"):
                for target in LINK_RE.findall(line):
                    if re.match(r"[a-z]+:", target):
                        continue            # http:, https:, mailto:
                    dest = os.path.normpath(os.path.join(os.path.dirname(path), target))
                    if not dest.startswith(ROOT + os.sep) or not os.path.exists(dest):
                        bad.append("%s:%d: link to %s, not a file of the tree" % (f, n, target))
    if bad:
        return [(name, "%d references outside the repository" % len(bad),
                 "\n".join("    | " + b for b in bad[:30]))]
    return [(name, None, None)]


# ---------------------------------------------------------------- docs/examples
# Every command that README.md and docs/ show at a prompt (`$ `, `(gdb) `,
# `<bochs:N> `) is run as written, by one of the sessions below, and the
# output lines shown beside it must come out (numbers and addresses may
# differ: see normalize). A `$ ` command that no session runs is itself a
# failure, so a new example cannot go untested.
import pty                          # noqa: E402
import select                       # noqa: E402
import shlex                        # noqa: E402
import signal                       # noqa: E402
import tempfile                     # noqa: E402
import time                         # noqa: E402

DOCS = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(ROOT, "docs"))
                              if f.endswith(".md")) + \
    sorted("docs/labs/" + f for f in os.listdir(os.path.join(ROOT, "docs", "labs"))
           if f.endswith(".md"))
PROMPT_RE = re.compile(r"^(\$|\(gdb\)|<bochs:\d+>) (.*)$")
SESSION_TIMEOUT = 240


def blocks(doc):
    """The indented code blocks of a Markdown file: (first line number,
    [lines without the four-space indent])."""
    out, cur, start = [], [], 0
    for n, line in enumerate(open(os.path.join(ROOT, doc)).read().splitlines(), 1):
        if line.startswith("    ") and (cur or line.strip()):
            if not cur:
                start = n
            cur.append(line[4:])
        elif not line.strip() and cur:
            cur.append("")
        else:
            if cur:
                out.append((start, cur))
            cur = []
    if cur:
        out.append((start, cur))
    return [(s, [l for l in b]) for s, b in out]


# A source citation, FILE:LINE, as GDB prints it ("at kernel/fork.c:198")
# and as a compiler does: compared exactly, so that a doc whose line
# numbers no longer point where the tree's do fails.
CITE_RE = re.compile(r"\b[\w./-]+\.(?:c|h|S|ld|py):\d+\b")


def normalize(line):
    """A sample line as it can be compared: what varies from build to
    build (addresses, sizes, counts, ids) becomes #; source citations
    (CITE_RE) stay as they are."""
    line = line.replace("\u2018", "'").replace("\u2019", "'")
    cites = CITE_RE.findall(line)
    line = CITE_RE.sub("\ue000", line)
    # GDB shows an argument's value at entry too when the compiler kept it.
    line = re.sub(r"(\w+)=\1@entry=", r"\1=", line)
    line = re.sub(r"#\s.*$", "", line) if line.startswith("$ ") else line
    line = re.sub(r"\b[0-9a-f]{16}\b", "#", line)
    line = re.sub(r"0x[0-9a-f]+", "0x#", line)
    line = re.sub(r"\d+", "#", line)
    # A file's date in `ls -l` is the machine's clock.
    line = re.sub(r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b", "Mon", line)
    # A task's state in a ps table, R or S, depends on timing.
    line = re.sub(r"(?<= )[RS](?= )", "R", line)
    for c in cites:
        line = line.replace("\ue000", c, 1)
    return " ".join(line.split())


def expected_lines(block_lines):
    """The output lines a block shows (not commands, not '...')."""
    return [l for l in block_lines if l.strip() and not PROMPT_RE.match(l)
            and l.strip() != "..." and not l.startswith("...")]


# Threads that print at once (tls-demo's four threads and main) come out
# in an order the scheduler picks: a sample line may also match one of the
# REORDER_WINDOW output lines just before the point the sample has reached,
# once each. Everything further apart must come out in the sample's order.
REORDER_WINDOW = 8


def missing_lines(sample, actual):
    """The sample lines that do not come out, normalized, in order (up to
    REORDER_WINDOW lines of reordering)."""
    acts = [normalize(a) for a in strip_escapes(actual).splitlines()]
    miss, pos, used = [], 0, set()
    for s in sample:
        n = normalize(s)
        if not n:
            continue
        for i in range(pos, len(acts)):
            if i not in used and n in acts[i]:
                used.add(i)
                pos = i + 1
                break
        else:
            near = [i for i in range(max(0, pos - REORDER_WINDOW), pos)
                    if i not in used and n in acts[i]]
            if near:
                used.add(near[0])
            else:
                miss.append(s)
    return miss


def strip_escapes(text):
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r", "")


def child_env():
    """The environment for a make run by a test: not the jobserver of the
    make check that runs us (its file descriptors are not passed on), nor
    the T= of a `make test T=...` that runs us (make exports it, and make
    race would take it for its own T=smpN/t_name)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "T")}
    env["LC_ALL"] = "C"
    return env


def make(*args):
    """make ARGS as the docs write it, on the build directory under test
    (make check B=DIR passes it on as SPINDLE_BUILD)."""
    argv = ["make", "--no-print-directory"] + list(args)
    if os.path.realpath(BUILD) != os.path.realpath(os.path.join(ROOT, "build")):
        argv.append("B=" + BUILD)
    return argv


def pty_run(argv, script, timeout=SESSION_TIMEOUT, cwd=ROOT):
    """Runs argv on a terminal of its own, as a student would. script is a
    list of (prompt, text): text is typed once prompt has appeared after
    the previous one. Returns (output, timed_out)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.execvpe(argv[0], argv, child_env())
    out, seen, script = b"", 0, list(script)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            while script and script[0][0].encode() in out[seen:]:
                prompt, text = script.pop(0)
                seen = out.index(prompt.encode(), seen) + len(prompt)
                os.write(fd, text.encode())
            r, _, _ = select.select([fd], [], [], 0.5)
            if r:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                out += chunk
        else:
            return out.decode("utf-8", "replace"), True
        return out.decode("utf-8", "replace"), False
    finally:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)


def doc_block(doc, first_command):
    """The code block of doc whose first prompt line is first_command."""
    for start, lines in blocks(doc):
        cmds = [PROMPT_RE.match(l) for l in lines]
        cmds = [m.group(0) for m in cmds if m]
        if cmds and cmds[0].split("#")[0].strip() == first_command:
            return start, lines
    raise LookupError("%s has no block starting with `%s`" % (doc, first_command))


def commands(lines, prompt):
    out = []
    for l in lines:
        m = PROMPT_RE.match(l)
        if m and m.group(1).startswith(prompt):
            out.append(m.group(2).split("  #")[0].rstrip())
    return out


# -------- README: make run, the shell session
def readme_make_run():
    name = "docs/README.make_run"
    _, lines = doc_block("README.md", "$ make run")
    shell = commands(lines[1:], "$")
    out, timed_out = pty_run(make("run"),
                             [("$ ", c + "\n") for c in shell])
    if timed_out:
        return [(name, "timeout", tail(out))]
    miss = missing_lines(expected_lines(lines), out)
    if miss:
        return [(name, "README's make run shows lines that do not come out: %s" % miss[:3],
                 tail(out))]
    return [(name, None, None)]


# -------- README: busybox under Spindle's shell (make check-linux runs it)
def readme_run_busybox():
    name = "docs/README.run_busybox"
    if not os.path.exists(os.path.join(BUILD, "busybox", "root", "bin", "busybox")):
        return [(name, SKIP_MARK + "no busybox in build/busybox (make busybox fetches it)",
                 None)]
    _, lines = doc_block("README.md", "$ make run-busybox")
    shell = commands(lines[1:], "$")
    out, timed_out = pty_run(make("run-busybox"), [("$ ", c + "\n") for c in shell])
    if timed_out:
        return [(name, "timeout", tail(out))]
    miss = missing_lines(expected_lines(lines), out)
    if miss:
        return [(name, "README's make run-busybox shows lines that do not come out: %s"
                 % miss[:3], tail(out, 40))]
    return [(name, None, None)]


def tail(out, n=15):
    lines = strip_escapes(out).rstrip("\n").splitlines()[-n:]
    return "\n".join("    | " + l for l in lines)


# -------- README: your own program
def readme_hello():
    name = "docs/README.own_program"
    _, lines = doc_block("README.md", "$ cat hello.c")
    cmds = commands(lines, "$")
    i = lines.index("$ cat hello.c") + 1
    src = []
    while not lines[i].startswith("$ "):
        src.append(lines[i])
        i += 1
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "hello.c"), "w").write("\n".join(src) + "\n")
        # tools/spindle-cc compiles where you are; make runs in the tree,
        # so the program is named by its full path there.
        cc = cmds[1].split()
        assert cc[0] == "tools/spindle-cc", cmds
        p = subprocess.run([os.path.join(ROOT, cc[0])] + cc[1:], cwd=d, capture_output=True,
                           text=True, env=dict(child_env(), SPINDLE_BUILD=BUILD), timeout=300)
        if p.returncode != 0:
            return [(name, "`%s` failed: %s" % (cmds[1], p.stderr[-300:]), None)]
        miss = missing_lines([l for l in expected_lines(lines) if "warning" in l], p.stderr)
        if miss:
            return [(name, "spindle-cc did not print %s" % miss, p.stderr[-500:])]
        hello = os.path.join(d, "hello")
        for cmd, script, want in (
                (cmds[2], [("$ ", "hello\n"), ("$ ", "exit\n")], "hello from hello"),
                (cmds[3], [], "hello from /bin/hello")):
            argv = [a.replace("=hello", "=" + hello) for a in shlex.split(cmd)]
            out, timed_out = pty_run(make(*argv[1:]), script)
            out = strip_escapes(out)
            if timed_out or want not in out or "init exited with status 0" not in out:
                return [(name, "`%s`: no '%s', then 'init exited with status 0'" % (cmd, want),
                         tail(out))]
    return [(name, None, None)]


# -------- GDB sessions: make qemu-gdb, then make gdb typed into
# make qemu-gdb, or make replay-gdb (a schedule seed's run: docs/races.md).
QEMU_GDB_RE = re.compile(r'make (qemu-gdb|replay-gdb)((?: [A-Z_]+=(?:"[^"]*"|[^\s`]+))*)')


def gdb_session(doc, gdb_lines, qemu_args, target="qemu-gdb"):
    """make qemu-gdb ARGS (or TARGET ARGS) in the background, then make
    gdb with the doc's (gdb) lines typed in (and `kill`). Returns GDB's
    output."""
    with tempfile.TemporaryDirectory() as d:
        gdbinit = os.path.join(d, "gdbinit")
        argv = make(target, *shlex.split(qemu_args)) + ["GDBINIT=" + gdbinit]
        qpid, qfd = pty.fork()
        if qpid == 0:
            os.chdir(ROOT)
            os.execvpe(argv[0], argv, child_env())
        qout = b""
        try:
            deadline = time.monotonic() + SESSION_TIMEOUT
            while b"QEMU waits for GDB" not in qout and time.monotonic() < deadline:
                r, _, _ = select.select([qfd], [], [], 0.5)
                if r:
                    try:
                        qout += os.read(qfd, 65536)
                    except OSError:
                        break
            if b"QEMU waits for GDB" not in qout:
                return "make qemu-gdb did not start:\n" + qout.decode(errors="replace")[-800:]
            script = "".join(l + "\n" for l in gdb_lines) + "kill\n"
            p = subprocess.run(make("gdb", "GDBINIT=" + gdbinit), env=child_env(),
                               cwd=ROOT, input=script, capture_output=True, text=True,
                               timeout=SESSION_TIMEOUT)
            return p.stdout + p.stderr
        finally:
            for sig_target in (lambda: os.killpg(qpid, signal.SIGKILL),
                               lambda: os.kill(qpid, signal.SIGKILL)):
                try:
                    sig_target()
                except OSError:
                    pass
            os.waitpid(qpid, 0)
            os.close(qfd)


# Anywhere on a line: GDB prints its errors after the prompt too
# ("(gdb) No symbol "next" in current context.").
GDB_ERRORS = re.compile(r"^.*(?:Python Exception|Error occurred in Python|No symbol |"
                        r"Cannot access memory|not defined|Undefined command|"
                        r"Connection refused|A syntax error).*$", re.M)


def doc_gdb(doc):
    """A doc's (gdb) blocks, in order, in one session, booted as the doc
    says (its first `make qemu-gdb ...` or `make replay-gdb ...`, in a
    block or in the text)."""
    name = "docs/%s.gdb" % os.path.splitext(os.path.basename(doc))[0]
    text = open(os.path.join(ROOT, doc)).read()
    # The command at a prompt if there is one (the prose may name the
    # target without its arguments), else the first in the text.
    m = re.search(r"^ *\$ " + QEMU_GDB_RE.pattern, text, re.M) or QEMU_GDB_RE.search(text)
    if not m:
        return [(name, "%s shows (gdb) commands but no make qemu-gdb" % doc, None)]
    gdb_lines, samples = [], []
    for _, lines in blocks(doc):
        cmds = commands(lines, "(gdb)")
        if cmds:
            gdb_lines += cmds
            samples += [l for l in expected_lines(lines) if not l.startswith("$ ")
                        and not l.startswith("***")]
    out = gdb_session(doc, gdb_lines, m.group(2), m.group(1))
    errs = GDB_ERRORS.findall(out)
    if errs:
        return [(name, "GDB said: %s" % errs[0], out[-2500:])]
    if out.count("Breakpoint") < 1:
        return [(name, "no breakpoint was hit", out[-2500:])]
    miss = missing_lines(samples, out)
    if miss:
        return [(name, "%s shows lines GDB does not print: %s" % (doc, miss[:2]), out[-2500:])]
    return [(name, None, None)]


# -------- Bochs
def doc_make_bochs():
    name = "docs/bochs.make_bochs"
    if not shutil_which("bochs") or not os.path.exists(os.path.join(BUILD, "spindle.iso")):
        return [(name, SKIP_MARK + "no bochs or no ISO (tools/deps.sh bochs iso)", None)]
    out, timed_out = pty_run(make("bochs"),
                             [("$ ", "echo docs\n"), ("$ ", "exit\n")])
    out = strip_escapes(out)
    _, lines = doc_block("docs/bochs.md", "$ make bochs")
    miss = missing_lines(expected_lines(lines), out)
    if timed_out or miss or "init exited with status 0" not in out:
        return [(name, "make bochs: %s" % ("timeout" if timed_out else
                                            miss or "no 'init exited with status 0'"), tail(out))]
    return [(name, None, None)]


def doc_bochs_debug():
    name = "docs/bochs.bochs_debug"
    if not shutil_which("bochs") or not shutil_which("grub-mkrescue"):
        return [(name, SKIP_MARK + "no bochs or no grub-mkrescue (tools/deps.sh bochs iso)",
                 None)]
    start, lines = doc_block("docs/bochs.md", '$ make bochs-debug APPEND="init=/bin/tls-demo"')
    _, dbg = doc_block("docs/bochs.md", "<bochs:1> c")
    cmds = commands(dbg, "<bochs")
    argv = make(*shlex.split(commands(lines, "$")[0])[1:])
    p = subprocess.run(argv, cwd=ROOT, env=child_env(),
                       input="".join(c + "\n" for c in cmds) + "quit\n",
                       capture_output=True, text=True, timeout=SESSION_TIMEOUT)
    out = p.stdout + p.stderr
    miss = missing_lines([l for l in expected_lines(lines + dbg)
                          if not l.startswith("Next at") and not l.startswith("(0) [")], out)
    if miss:
        return [(name, "bochs.md shows lines Bochs does not print: %s" % miss[:2], out[-2500:])]
    return [(name, None, None)]


def shutil_which(cmd):
    import shutil
    return shutil.which(cmd)


SKIP_MARK = SKIP


# -------- traces
def doc_make_trace():
    """Every block of README and docs/ that starts with `$ make trace`:
    its commands run in order as written (make on the build under test,
    build/ paths there too), and the lines shown must come out. Under
    -icount a trace is the same every run, so they do."""
    name = "docs/tracing.make_trace"
    for doc in DOCS:
        for _, lines in blocks(doc):
            cmds = commands(lines, "$")
            if not cmds or not cmds[0].startswith("make trace"):
                continue
            out = ""
            for cmd in cmds:
                argv = shlex.split(cmd)
                if argv[0] == "make":
                    argv = make(*argv[1:])
                else:
                    argv = [os.path.join(ROOT, argv[0])] + [
                        os.path.join(BUILD, a[len("build/"):]) if a.startswith("build/") else a
                        for a in argv[1:]]
                p = subprocess.run(argv, cwd=ROOT, env=child_env(), capture_output=True,
                                   text=True, timeout=900, stdin=subprocess.DEVNULL)
                out += p.stdout + p.stderr
                if p.returncode != 0:
                    return [(name, "%s: `%s` failed (exit %d)" % (doc, cmd, p.returncode),
                             out[-1500:])]
            miss = missing_lines(expected_lines(lines), out)
            if miss:
                return [(name, "%s shows lines that do not come out: %s" % (doc, miss[:2]),
                         out[-1500:])]
    return [(name, None, None)]


# -------- every $ command has a session (the table: tests/docs_covered.py)


def commands_covered():
    name = "docs/every_command_run"
    bad = []
    for doc in DOCS:
        for start, lines in blocks(doc):
            shell_block = False
            for l in lines:
                m = PROMPT_RE.match(l)
                if not m or m.group(1) != "$":
                    continue
                cmd = m.group(2).split("  #")[0].strip()
                if shell_block:
                    continue            # typed into Spindle's shell
                if (doc, cmd) not in COVERED:
                    bad.append("%s:%d: $ %s" % (doc, start, cmd))
                shell_block = cmd in ("make run", "make run-busybox") and doc == "README.md"
    if bad:
        return [(name, "commands shown that no test runs (tests/docs_covered.py COVERED)",
                 "\n".join("    | " + b for b in bad))]
    return [(name, None, None)]


def gdb_docs():
    return [d for d in DOCS if any(commands(lines, "(gdb)") for _, lines in blocks(d))]


def doc_jobs():
    """(name, function, args) for tests/run.py."""
    # The figures and the prose live apart (they import this module).
    from docs_figures import (checker_rejects, doc_make_bench, doc_make_fuzz,
                              doc_make_profile, doc_make_race, prose_commands)
    jobs = [("docs/every_command_run", commands_covered, ()),
            ("docs/checker_rejects", checker_rejects, ()),
            ("docs/linux_abi_calls", linux_abi_calls, ()),
            ("docs/README.make_run", readme_make_run, ()),
            ("docs/README.own_program", readme_hello, ()),
            ("docs/benchmarks.make_bench", doc_make_bench, ()),
            ("docs/benchmarks.make_profile", doc_make_profile, ()),
            ("docs/bochs.make_bochs", doc_make_bochs, ()),
            ("docs/tracing.make_trace", doc_make_trace, ()),
            ("docs/fuzzing.make_fuzz", doc_make_fuzz, ()),
            ("docs/races.make_race", doc_make_race, ()),
            ("docs/prose_commands", prose_commands, ()),
            ("docs/bochs.bochs_debug", doc_bochs_debug, ())]
    for d in gdb_docs():
        jobs.append(("docs/%s.gdb" % os.path.splitext(os.path.basename(d))[0], doc_gdb, (d,)))
    return jobs
