#!/usr/bin/env python3
"""tools/mklab.py - writes a student tree for one lab (make lab LAB=n DEST=dir).

    tools/mklab.py [--later] [--src DIR] LAB DEST

Copies the tree (the files git tracks, as they are in the work tree, so
nothing untracked such as a teacher's notes; without git, every file but
build/ and .git) to DEST, a plain directory tree, not a clone, so no
solution survives in any history. In every C, header and
assembly file, each marked region (docs/labs/README.md, "The markers"):

    /* LAB 4: BEGIN SOLUTION */
    ...the code the student writes...
    /* LAB 4: END SOLUTION */
    #if 0 /* LAB 4: STUB */
    ...what the student starts from...
    #endif /* LAB 4: END STUB */

becomes its stub's lines if it belongs to lab LAB (or, with --later, to a
later lab), and its solution's lines otherwise; the marker lines go, so
none is left and stripping the result again changes nothing. The one
file added is DEST/.spindle-lab, the lab's number: `make grade` there
grades that lab unless given another LAB. The full
tree compiles the solution (the stub is under #if 0, so it need only
tokenise); the student tree compiles the stub, which must build with
-Werror and fail cleanly (-ENOSYS, nothing done), never crash the build.

Other modes, used by make check (tests/labs.py):
    tools/mklab.py --list [--src DIR]     every region: file, lab, lines
    tools/mklab.py --verify DIR           no marker in DIR's sources
Exit status 2 on a malformed marker (unmatched, nested, a stub missing
right after its solution, a lab outside 1..NLABS), with file and line.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

NLABS = 8
SOURCE_EXTS = (".c", ".h", ".S")
# Never copied: the build directory, git's, and what the build leaves.
SKIP_DIRS = {"build", ".git", "node_modules", "__pycache__"}
SKIP_FILES = {".gdbinit"}
# Written into a student tree: its lab's number, for make grade.
LAB_FILE = ".spindle-lab"

MARK_RE = re.compile(r"^\s*(?:#if 0 |#endif )?/\* LAB (\d+): "
                     r"(BEGIN SOLUTION|END SOLUTION|STUB|END STUB) \*/\s*$")
BEGIN_RE = re.compile(r"^\s*/\* LAB (\d+): BEGIN SOLUTION \*/\s*$")
END_RE = re.compile(r"^\s*/\* LAB (\d+): END SOLUTION \*/\s*$")
STUB_RE = re.compile(r"^\s*#if 0 /\* LAB (\d+): STUB \*/\s*$")
END_STUB_RE = re.compile(r"^\s*#endif /\* LAB (\d+): END STUB \*/\s*$")
# Any line that looks like a marker, even a malformed one: for --verify.
ANY_MARK_RE = re.compile(r"LAB \d+: (BEGIN SOLUTION|END SOLUTION|STUB|END STUB)\b")


class MarkerError(Exception):
    pass


def regions(path, lines):
    """The marked regions of a file: (lab, begin, end, stub, end_stub)
    line indexes (0-based), checked for shape."""
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = BEGIN_RE.match(line)
        if not m:
            if MARK_RE.match(line) or ANY_MARK_RE.search(line):
                raise MarkerError("%s:%d: marker outside a region: %s"
                                  % (path, i + 1, line.strip()))
            i += 1
            continue
        lab = int(m.group(1))
        if not 1 <= lab <= NLABS:
            raise MarkerError("%s:%d: lab %d is not 1..%d" % (path, i + 1, lab, NLABS))
        want = ((END_RE, "END SOLUTION"), (STUB_RE, "STUB"), (END_STUB_RE, "END STUB"))
        idx = [i]
        j = i + 1
        for k, (rx, what) in enumerate(want):
            while j < len(lines) and not ANY_MARK_RE.search(lines[j]):
                if k == 1:      # the stub must follow its solution at once
                    break
                j += 1
            mm = rx.match(lines[j]) if j < len(lines) else None
            if not mm or int(mm.group(1)) != lab:
                raise MarkerError("%s:%d: LAB %d: expected '%s' here" % (path, j + 1, lab, what))
            idx.append(j)
            j += 1
        out.append((lab,) + tuple(idx))
        i = j
    return out


def strip_text(path, text, lab, later):
    """The file's text for lab's student tree, and its regions."""
    lines = text.split("\n")
    regs = regions(path, lines)
    if not regs:
        return text, regs
    out = []
    pos = 0
    for rlab, b, e, s, es in regs:
        out += lines[pos:b]
        if rlab == lab or (later and rlab > lab):
            out += lines[s + 1:es]          # the stub
        else:
            out += lines[b + 1:e]           # the solution
        pos = es + 1
    out += lines[pos:]
    return "\n".join(out), regs


def tree_files(src):
    """The tree's files, relative to src, sorted: git's tracked files (a
    new file counts once it is added), or without git every file."""
    if os.path.exists(os.path.join(src, ".git")):
        p = subprocess.run(["git", "-C", src, "ls-files", "-z", "--cached"],
                           capture_output=True, check=True)
        names = sorted(set(n.decode() for n in p.stdout.split(b"\0") if n))
        return [n for n in names if os.path.lexists(os.path.join(src, n))]
    names = []
    for d, dirs, files in os.walk(src):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
        for f in files:
            if f not in SKIP_FILES:
                names.append(os.path.relpath(os.path.join(d, f), src))
    return sorted(names)


def is_source(name):
    return name.endswith(SOURCE_EXTS)


def make_lab(src, lab, dest, later):
    real_src, real_dest = os.path.realpath(src), os.path.realpath(dest)
    if real_dest == real_src or real_dest.startswith(real_src + os.sep):
        raise MarkerError("%s is inside the tree %s (give a directory outside it)"
                          % (dest, src))
    if os.path.exists(dest) and os.listdir(dest):
        raise MarkerError("%s exists and is not empty (give a new directory)" % dest)
    files = tree_files(src)
    stripped = []
    for name in files:
        s = os.path.join(src, name)
        d = os.path.join(dest, name)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        if os.path.islink(s):
            os.symlink(os.readlink(s), d)
            continue
        if is_source(name):
            with open(s, encoding="utf-8") as f:
                text = f.read()
            new, regs = strip_text(name, text, lab, later)
            with open(d, "w", encoding="utf-8") as f:
                f.write(new)
            shutil.copymode(s, d)
            stripped += [(name, r[0]) for r in regs
                         if r[0] == lab or (later and r[0] > lab)]
        else:
            shutil.copy2(s, d)
    # The tree's own lab, which make grade grades when given no LAB.
    with open(os.path.join(dest, LAB_FILE), "w") as f:
        f.write("%d\n" % lab)
    return stripped


def list_regions(src):
    out = []
    for name in tree_files(src):
        if is_source(name) and not os.path.islink(os.path.join(src, name)):
            with open(os.path.join(src, name), encoding="utf-8") as f:
                lines = f.read().split("\n")
            for lab, b, e, s, es in regions(name, lines):
                out.append((name, lab, b + 1, es + 1))
    return out


def verify(tree):
    bad = []
    for name in tree_files(tree):
        if is_source(name) and not os.path.islink(os.path.join(tree, name)):
            with open(os.path.join(tree, name), encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    if ANY_MARK_RE.search(line):
                        bad.append("%s:%d: %s" % (name, n, line.strip()))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--later", action="store_true", help="strip the later labs too")
    ap.add_argument("--list", action="store_true", help="list the marked regions")
    ap.add_argument("--verify", metavar="DIR", help="fail if DIR has a marker left")
    ap.add_argument("lab", nargs="?", type=int)
    ap.add_argument("dest", nargs="?")
    a = ap.parse_args()
    try:
        if a.list:
            for name, lab, b, e in list_regions(a.src):
                print("lab %d %s:%d-%d" % (lab, name, b, e))
            return 0
        if a.verify:
            bad = verify(a.verify)
            for b in bad:
                print("marker left: " + b, file=sys.stderr)
            return 1 if bad else 0
        if a.lab is None or not a.dest:
            ap.error("give LAB and DEST (make lab LAB=n DEST=dir)")
        if not 1 <= a.lab <= NLABS:
            ap.error("LAB is 1..%d (docs/labs/README.md)" % NLABS)
        stripped = make_lab(a.src, a.lab, a.dest, a.later)
    except MarkerError as e:
        print("mklab: %s" % e, file=sys.stderr)
        return 2
    if not any(lab == a.lab for _, lab in stripped):
        print("mklab: lab %d has no marked region" % a.lab, file=sys.stderr)
        return 2
    for name in sorted(set(n for n, _ in stripped)):
        print("  stub    %s" % name)
    print("lab %d%s: a student tree in %s (cd %s && make grade)"
          % (a.lab, " and later labs" if a.later else "", a.dest, a.dest, ))
    return 0


if __name__ == "__main__":
    sys.exit(main())
