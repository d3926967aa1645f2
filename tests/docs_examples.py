"""tests/docs_examples.py - the project's documents checked against the
tree: no file refers outside the repository, and every command and
example that README.md and docs/ show is run as written (docs/examples).

repo/no_outside_references: every file git tracks (or, without git, every
file outside build/) is free of paths into the course machine's shared
area, and every relative Markdown link lands on a file of the tree.
"""
import os
import re
import subprocess

from machine import ROOT

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
