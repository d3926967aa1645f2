"""tests/docs_figures.py - the docs checker's figures and prose
(docs/examples, with tests/docs_examples.py, which holds the sessions
and the helpers used here).

docs/benchmarks.make_bench: make bench as the docs write it, and every
figure of the docs' bench tables within BENCH_TOLERANCE of its own.
docs/benchmarks.make_profile: make profile's blocks, digits and all.
docs/fuzzing.make_fuzz: fuzzing.md's short fuzz runs and their endings.
docs/prose_commands: the commands README and the handouts name in a
sentence (PROSE_COMMANDS), and what the sentence promises.
docs/checker_rejects: the checker fails what it must.
"""
import os
import re
import shlex
import subprocess

from machine import BUILD, ROOT
from docs_examples import (DOCS, GDB_ERRORS, blocks, child_env, commands, expected_lines,
                           make, missing_lines, strip_escapes)

# -------- benchmarks
# A table's figures are measurements of the whole boot image: under
# -icount they repeat exactly, but any change to the kernel or to the
# initrd may move them a little. A doc's figure must be within this much
# of make bench's (relative; percentages within one point).
BENCH_TOLERANCE = 0.03
NUM_RE = re.compile(r"^-?\d+(?:\.\d+)?%?$")


def bench_rows(lines):
    """{name: [rows of values]} of a bench table's lines: a row is a
    name, two spaces or more, then its figures up to the first field that
    is not one ('-' is a figure not measured). The runs, targets and
    results after that are not figures of the row."""
    rows = {}
    for line in lines:
        fields = re.split(r"\s{2,}", line.strip())
        if len(fields) < 2 or NUM_RE.match(fields[0]):
            continue
        vals = []
        for f in fields[1:]:
            if NUM_RE.match(f) or f == "-":
                vals.append(f)
            else:
                break
        if vals and any(v != "-" for v in vals):
            rows.setdefault(fields[0], []).append(vals)
    return rows


def figure_close(doc_value, real_value):
    if doc_value == "-" or real_value == "-":
        return doc_value == real_value
    d, r = float(doc_value.rstrip("%")), float(real_value.rstrip("%"))
    if doc_value.endswith("%"):
        return abs(d - r) <= 1.0
    return abs(d - r) <= max(BENCH_TOLERANCE * abs(r), 0.05)


def stale_figures(doc_lines, real_lines):
    """The doc's table rows whose figures make bench no longer gives
    (BENCH_TOLERANCE). A row of several figures is compared column by
    column with the one row of that name, or figure by figure with the
    first figure of each row of that name (the FPU table shows the eager
    and the lazy run's rows side by side); a row that appears in two
    tables (set_thread_area) may match either."""
    real = bench_rows(real_lines)
    bad = []
    for name, doc_rows in bench_rows(doc_lines).items():
        cands = real.get(name)
        if not cands:
            continue                # not a bench row (or a row make bench dropped)
        for vals in doc_rows:
            if any(len(c) >= len(vals) and all(figure_close(v, c[i]) for i, v in enumerate(vals))
                   for c in cands):
                continue
            if len(vals) == len(cands) and len(vals) > 1 and \
                    all(figure_close(v, c[0]) for v, c in zip(vals, cands)):
                continue
            bad.append("%s: %s, make bench: %s" % (name, " ".join(vals),
                                                    " / ".join(" ".join(c) for c in cands)))
    return bad


def doc_make_bench():
    """Every make bench command of docs/benchmarks.md (and README's), as
    written: each must complete, and every figure the docs' tables show
    must be what it measures (BENCH_TOLERANCE); whether a target is met
    is judged by bench/budgets, not here."""
    name = "docs/benchmarks.make_bench"
    cmds = []
    for doc in ("README.md", "docs/benchmarks.md"):
        for _, lines in blocks(doc):
            cmds += [c for c in commands(lines, "$") if c.startswith("make bench")]
    for cmd in dict.fromkeys(cmds):
        p = subprocess.run(make(*shlex.split(cmd)[1:]), cwd=ROOT, env=child_env(),
                           capture_output=True, text=True, timeout=1800,
                           stdin=subprocess.DEVNULL)
        if p.returncode != 0 or not re.search(r"^\S.*\s\d+\s", p.stdout, re.M):
            return [(name, "`%s` failed (exit %d) or printed no table" % (cmd, p.returncode),
                     (p.stdout + p.stderr)[-1500:])]
    try:
        real = open(os.path.join(BUILD, "bench.txt")).read().splitlines()
    except OSError as e:
        return [(name, "no %s/bench.txt after make bench: %s" % (BUILD, e), None)]
    bad = []
    for doc in ("README.md", "docs/benchmarks.md"):
        lines = [l for _, b in blocks(doc) for l in b] + fenced_lines(doc)
        bad += ["%s: %s" % (doc, b) for b in stale_figures(lines, real)]
    if bad:
        return [(name, "%d figures the docs show are not make bench's (within %d%%)"
                 % (len(bad), BENCH_TOLERANCE * 100), "\n".join("    | " + b for b in bad[:20]))]
    return [(name, None, None)]


def fenced_lines(doc):
    """The lines inside the ``` blocks of a Markdown file."""
    out, inside = [], False
    for line in open(os.path.join(ROOT, doc)).read().splitlines():
        if line.startswith("```"):
            inside = not inside
        elif inside:
            out.append(line)
    return out


def doc_make_profile():
    """Every block of README and docs/ that starts with `$ make profile`:
    the command as written, and every line the block shows must come out
    as it is, digits and all. Under -icount a path's count is the same
    every run, so a figure that no longer comes out is a stale doc (or a
    path that changed: then the doc changes with it, on purpose)."""
    name = "docs/benchmarks.make_profile"
    for doc in DOCS:
        for _, lines in blocks(doc):
            cmds = commands(lines, "$")
            if not cmds or not cmds[0].startswith("make profile"):
                continue
            p = subprocess.run(make(*shlex.split(cmds[0])[1:]), cwd=ROOT, env=child_env(),
                               capture_output=True, text=True, timeout=900,
                               stdin=subprocess.DEVNULL)
            got = [" ".join(l.split()) for l in p.stdout.splitlines()]
            miss = [l for l in expected_lines(lines) if " ".join(l.split()) not in got]
            if p.returncode != 0 or miss:
                return [(name, "%s: `%s` (exit %d): not printed: %s"
                         % (doc, cmds[0], p.returncode, miss[:2]), (p.stdout + p.stderr)[-1500:])]
    return [(name, None, None)]


# -------- fuzzing
# A fuzz run (or a short campaign) the prose names, "`make fuzz ...`
# passes:" or "`make fuzz-campaign ...` passes:", and the lines
# the indented block after it shows as its ending.
FUZZ_PROSE_RE = re.compile(r"`(make fuzz(?:-campaign)? [^`]*)`\s*passes:\s*\n\n((?:    .*\n)+)")


def shown_lines_missing(name, runs, must_succeed):
    """Runs each (command, block) as written (make on the build under
    test): the block's lines must all come out, digits and all. A fuzz
    run must also succeed; make race fails when a seed does, as shown."""
    for cmd, block in runs:
        p = subprocess.run(make(*shlex.split(cmd)[1:]), cwd=ROOT, env=child_env(),
                           capture_output=True, text=True, timeout=900,
                           stdin=subprocess.DEVNULL)
        got = [" ".join(l.split()) for l in strip_escapes(p.stdout).splitlines()]
        miss = [l.strip() for l in block.splitlines()
                if l.strip() and " ".join(l.split()) not in got]
        if (must_succeed and p.returncode != 0) or miss:
            return [(name, "`%s` (exit %d): not printed: %s" % (cmd, p.returncode, miss[:2]),
                     (p.stdout + p.stderr)[-1500:])]
    return [(name, None, None)]


def doc_make_fuzz():
    """docs/fuzzing.md's short fuzz runs, as written: each must end with
    the lines it shows, digits and all (a seed's number and init's
    status are no measurement)."""
    name = "docs/fuzzing.make_fuzz"
    text = open(os.path.join(ROOT, "docs/fuzzing.md")).read()
    runs = [(" ".join(c.split()), b) for c, b in FUZZ_PROSE_RE.findall(text)]
    if not runs:
        return [(name, "docs/fuzzing.md names no `make fuzz ...` passes: run", None)]
    return shown_lines_missing(name, runs, True)


# -------- schedule seeds
RACE_BLOCK_RE = re.compile(r"^    \$ (make (?:race|replay) [^\n]*)\n((?:    (?!\$ ).*\n)+)", re.M)


def doc_make_race():
    """docs/races.md's make race and make replay blocks, as written: the
    lines each shows must come out, digits and all. Under -icount a seed's
    run is the same every time; a change to the kernel, to race-demo or
    to anything else in the initrd (the boot's instruction count) moves
    which seeds fail, and then the blocks are pasted anew from the
    commands' output. The GDB session's counter (docs/races.gdb compares
    its lines with digits normalised) must be the failing replay's."""
    name = "docs/races.make_race"
    text = open(os.path.join(ROOT, "docs/races.md")).read()
    flags = open(os.path.join(ROOT, "tools", "icount.flags")).read().strip()
    if "    " + flags + "\n" not in text:
        return [(name, "docs/races.md does not show tools/icount.flags: " + flags, None)]
    runs = RACE_BLOCK_RE.findall(text)
    if not runs:
        return [(name, "docs/races.md shows no `$ make race` or `$ make replay` block", None)]
    lost = re.findall(r"counter = (\d+), [1-9]\d* lost", text)
    shown = re.findall(r"^    \$1 = (\d+)$|^The counter is (\d+)|saw (\d+)\.", text, re.M)
    shown = ["".join(m) for m in shown]
    if len(set(lost)) != 1 or not shown or set(shown) != set(lost):
        return [(name, "docs/races.md: the GDB session's counter %s is not the failing "
                 "replay's %s" % (shown, lost), None)]
    return shown_lines_missing(name, runs, False)


# -------- commands in the prose
# Commands README and the handouts name in a sentence, not at a prompt,
# with what the sentence promises of them: each must still be named
# where it was (or this list changes with the doc) and do what is said.
# Standard input is empty (`make run` then sends the shell Ctrl-D), or
# the lines given.
PROSE_COMMANDS = [
    ("README.md", "make run </dev/null", "", r"^init exited with status 0$"),
    ("README.md", "make run SMP=4", "", r"^cpus: 4 running"),
    ("README.md", "make run APPEND=monitor", "help\npoweroff\n", r"^\s*gdt\s"),
    ("README.md", "make run RUN_KERNEL=build/kernel-test.elf APPEND=ktest=list", "",
     r"^ktest-group \S+$"),
    ("README.md", "make test T=smp1/t_clone", "", r"^\d+ passed, 0 failed$"),
    ("docs/labs/lab1-gdt.md", "make unit-tests && build/unit/test_desc", "", r""),
]


def prose_commands():
    name = "docs/prose_commands"
    for doc, cmd, stdin, want in PROSE_COMMANDS:
        text = " ".join(open(os.path.join(ROOT, doc)).read().split())
        if "`%s`" % cmd not in text:
            return [(name, "%s no longer names `%s` (tests/docs_examples.py PROSE_COMMANDS)"
                     % (doc, cmd), None)]
        argv = ["sh", "-c", cmd.replace(" </dev/null", "")
                .replace("make ", " ".join(make()) + " ").replace("build/", BUILD + "/")]
        try:
            p = subprocess.run(argv, cwd=ROOT, env=child_env(), capture_output=True,
                               text=True, input=stdin, timeout=300)
        except subprocess.TimeoutExpired as e:
            return [(name, "%s: `%s` did not end within 300 s" % (doc, cmd),
                     strip_escapes(str(e.stdout or ""))[-1500:])]
        out = strip_escapes(p.stdout + p.stderr)
        if p.returncode != 0 or not re.search(want, out, re.M):
            return [(name, "%s: `%s` (exit %d) did not print what the doc says"
                     % (doc, cmd, p.returncode), out[-1500:])]
    return [(name, None, None)]


def checker_rejects():
    """The checker itself fails what it should: a stale source line in a
    GDB transcript, an error GDB prints after its prompt, a figure 5% off
    and a count one off (so that a relaxed check cannot pass unseen)."""
    name = "docs/checker_rejects"
    bad = []
    if not missing_lines(["Breakpoint 2, do_clone (a=0xc8003f70) at kernel/fork.c:198"],
                         "Breakpoint 2, do_clone (a=0xc8003f6c) at kernel/fork.c:151\n"):
        bad.append("a stale FILE:LINE passed")
    if missing_lines(["Breakpoint 2, do_clone (a=0xc8003f70) at kernel/fork.c:151"],
                     "Breakpoint 2, do_clone (a=a@entry=0xc8003f6c) at kernel/fork.c:151\n"):
        bad.append("a current FILE:LINE with other addresses failed")
    if not GDB_ERRORS.search('(gdb) No symbol "next" in current context.'):
        bad.append("GDB's error after its prompt passed")
    real = ["sched_yield, 2 threads (per yield = switch)          380  <= 550    met      380",
            "load_TLS: instructions                                12  <= 12     met"]
    for doc, want in (("sched_yield, 2 threads (per yield = switch)          399  <= 550", 1),
                      ("sched_yield, 2 threads (per yield = switch)          385  <= 550", 0),
                      ("load_TLS: instructions                                13  <= 12", 1)):
        if len(stale_figures([doc], real)) != want:
            bad.append("%r against make bench's %r: %s" % (doc, real, "passed" if want
                                                           else "failed"))
    if bad:
        return [(name, "; ".join(bad), None)]
    return [(name, None, None)]
