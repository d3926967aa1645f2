"""tests/labs.py - the labs' tests and grading (make grade), and their checks
in make check (the labs/ group of tests/run.py).

LAB_TESTS maps each lab (docs/labs/README.md) to its graded tests: a test
name or shell glob as tests/run.py reports it (`make test T=...` takes the
same), its points, and whether the lab's stub must make it fail. A glob
such as smp1/t_tls stands for that boot and all its cases; the entry is OK
when it matched at least one result and every result it matched passed.

    python3 tests/labs.py grade [LAB]     make grade [LAB=n]: points per
                                          test, `Score: X/Y`, exit 1 below
                                          100%, JSON in $SPINDLE_BUILD/grade.json;
                                          no LAB: the student tree's own lab
                                          (.spindle-lab), else all; LAB=all all

In make check (labs_jobs): labs/mklab_markers, tools/mklab.py's parser
on small texts (kept, stripped, malformed); labs/later_builds, the tree
with every lab's stubs (make lab LAB=1 LATER=1) builds; and for every lab:
  labs/labN_full      make grade LAB=N: 100% on this tree's build
  labs/labN_stripped  make lab LAB=N DEST=(a temporary directory), then in
                      it: no marker left, no solution text left anywhere,
                      stripping it again changes nothing, the tree builds
                      (-Werror) and make grade (its own lab) scores below 100%
                      with every test the stub must fail failing.
"""
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (number, short name, handout)
LABS = {
    1: ("gdt", "docs/labs/lab1-gdt.md"),
    2: ("switch", "docs/labs/lab2-switch.md"),
    3: ("tls", "docs/labs/lab3-tls.md"),
    4: ("clone", "docs/labs/lab4-clone.md"),
    5: ("exit", "docs/labs/lab5-exit.md"),
    6: ("futex", "docs/labs/lab6-futex.md"),
    7: ("pthreads", "docs/labs/lab7-pthreads.md"),
    8: ("tlb", "docs/labs/lab8-tlb.md"),
}

# lab -> [(test name or glob, points, the stub must make it fail)]
U = "unit/test_desc."
LAB_TESTS = {
    1: [(U + "flat_matches_seed_gdt", 10, True),
        (U + "system_descriptors", 10, True),
        (U + "base_and_limit_decode", 10, True),
        (U + "tls_hand_computed_words", 10, True),
        (U + "limit_above_20_bits_is_cut_as_in_the_seed", 10, True),
        ("smp1/boot", 25, True),
        ("smp2/boot", 25, True)],
    2: [("smp1/t_tls_switch", 40, True),
        ("smp2/t_tls_switch", 30, True),
        ("smp2/t_smp_tls", 30, True)],
    3: [(U + "erratum2_db_bit22_g_bit23_independent", 15, True),
        (U + "erratum5_unused_bits_zero", 15, True),
        (U + "erratum6_tls_refuses_16bit_code_not_present", 15, True),
        (U + "erratum6_empty_and_zero_clear", 15, True),
        (U + "every_field_combination_round_trips", 10, False),
        ("smp1/t_tls", 30, True)],
    4: [("smp1/t_clone", 30, True),
        ("smp1/t_abi_clone", 30, True),
        ("smp1/t_seed", 20, True),
        ("smp2/t_clone", 20, True)],
    5: [("smp1/t_storm", 35, True),
        ("smp2/t_smp_storm", 35, True),
        ("smp1/t_seed", 30, False)],
    # Labs 6 and 7 grade their threaded tests under schedule seeds too
    # (docs/races.md): a lost wake-up that the default schedule hides
    # fails under one of them, every time.
    6: [("smp1/t_futex", 30, True),
        ("smp1/t_abi_futex", 30, True),
        ("smp2/t_futex", 20, True),
        ("replay/seeds/smp4/t_futex", 20, True)],
    7: [("smp1/t_pthread", 30, True),
        ("smp1/t_pthread_sync", 25, True),
        ("smp2/t_pthread", 25, True),
        ("replay/seeds/smp4/t_pthread_sync", 20, True)],
    8: [("smp2/t_smp_tlb", 50, True),
        ("smp4/t_smp_tlb", 50, True)],
}

# labs/labN_stripped: seconds a boot of a stub tree may take. A stub
# fails its tests; one that hangs them fails them by this timeout.
STUB_TIMEOUT = 15

LINE_RE = re.compile(r"^(PASS|FAIL|SKIP) (\S+?)(?::\s*(.*))?$")


def job_of(name):
    """smp1/t_clone.files_shared -> smp1/t_clone (as tests/run.py)."""
    head, _, tail = name.partition("/")
    return head + "/" + tail.split(".")[0] if tail else name


def matches(name, glob):
    return fnmatch.fnmatchcase(name, glob) or fnmatch.fnmatchcase(job_of(name), glob)


def run_tests(globs, build, root=ROOT, jobs=2, timeout=1800):
    """tests/run.py -t GLOBS on build: {name: (status, reason)} and the output."""
    env = dict(os.environ, SPINDLE_BUILD=build)
    p = subprocess.run([sys.executable, os.path.join(root, "tests", "run.py"),
                        "-j", str(jobs), "-t", " ".join(globs)],
                       cwd=root, env=env, capture_output=True, text=True, timeout=timeout)
    results = {}
    for line in p.stdout.splitlines():
        m = LINE_RE.match(line)
        if m:
            results[m.group(2)] = (m.group(1), m.group(3))
    return results, p.stdout + p.stderr


def score(lab, results):
    """[(entry, points, ok, [names matched])] for lab's tests."""
    out = []
    for glob, pts, _ in LAB_TESTS[lab]:
        names = sorted(n for n in results if matches(n, glob))
        ok = bool(names) and all(results[n][0] == "PASS" for n in names)
        out.append((glob, pts, ok, names))
    return out


def grade(labs, build, root=ROOT, out=sys.stdout, jobs=2):
    """Runs and scores labs; prints JOS-style lines; the summary dict."""
    globs = sorted(set(g for lab in labs for g, _, _ in LAB_TESTS[lab]))
    results, log = run_tests(globs, build, root, jobs)
    summary = {"labs": [], "score": 0, "max": 0}
    for lab in labs:
        name, handout = LABS[lab]
        print("== lab %d: %s (%s) ==" % (lab, name, handout), file=out)
        rows = score(lab, results)
        got = sum(p for _, p, ok, _ in rows if ok)
        total = sum(p for _, p, _, _ in rows)
        tests = []
        for glob, pts, ok, names in rows:
            if ok:
                print("%s: OK (%dpts)" % (glob, pts), file=out)
            else:
                # The first failed case says most (smp1/t_clone.files_shared),
                # then the boot's own line (smp1/t_clone: init exited ...).
                bad = sorted((n for n in names if results[n][0] != "PASS"),
                             key=lambda n: ("." not in n.partition("/")[2], n))
                why = ("%s: %s%s" % (bad[0], results[bad[0]][1] or "failed",
                                     " (and %d more)" % (len(bad) - 1) if len(bad) > 1 else "")
                       if bad else "no result (the build or boot failed: see the log)")
                print("%s: FAIL (0/%dpts) %s" % (glob, pts, why.strip()), file=out)
            tests.append({"name": glob, "points": pts if ok else 0, "max": pts, "ok": ok,
                          "results": {n: results[n][0] for n in names}})
        print("Lab %d score: %d/%d" % (lab, got, total), file=out)
        summary["labs"].append({"lab": lab, "name": name, "score": got, "max": total,
                                "tests": tests})
        summary["score"] += got
        summary["max"] += total
    print("Score: %d/%d" % (summary["score"], summary["max"]), file=out)
    summary["log_tail"] = log[-4000:] if summary["score"] < summary["max"] else ""
    return summary


# Gradescope's autograder format ("Autograder Specifications": the file
# /autograder/results/results.json): a total, and per test a name, its
# score and max_score, a status and its output.
GRADESCOPE_DIR = "/autograder/results"


def gradescope_results(s):
    """Gradescope's results.json for a grade() summary: one test per
    graded test of each lab, named "lab N: TEST"."""
    tests = []
    for lab in s["labs"]:
        for t in lab["tests"]:
            failed = sorted(n for n, r in t["results"].items() if r != "PASS")
            tests.append({
                "name": "lab %d: %s" % (lab["lab"], t["name"]),
                "score": float(t["points"]), "max_score": float(t["max"]),
                "status": "passed" if t["ok"] else "failed",
                "output": "all %d cases passed" % len(t["results"]) if t["ok"] else
                ("failed: " + ", ".join(failed[:10]) + (" (and %d more)" % (len(failed) - 10)
                                                        if len(failed) > 10 else "")
                 if failed else "no result (the build or boot failed)"),
                "visibility": "visible"})
    return {"score": float(s["score"]), "tests": tests, "stdout_visibility": "visible",
            "output": "Score: %d/%d" % (s["score"], s["max"])}


def gradescope_problems(r):
    """What in a results.json Gradescope would not take (an empty list
    when it is well-formed): the checks make check makes."""
    bad = []
    if not isinstance(r.get("score"), (int, float)):
        bad.append("no numeric score")
    tests = r.get("tests")
    if not isinstance(tests, list) or not tests:
        return bad + ["no tests list"]
    for t in tests:
        for k, kind in (("name", str), ("score", (int, float)), ("max_score", (int, float)),
                        ("output", str)):
            if not isinstance(t.get(k), kind):
                bad.append("test %r: %s missing or not a %s" % (t.get("name"), k, kind))
        if t.get("status") not in ("passed", "failed"):
            bad.append("test %r: status %r" % (t.get("name"), t.get("status")))
        if isinstance(t.get("score"), (int, float)) and isinstance(t.get("max_score"), (int, float)) \
                and not 0 <= t["score"] <= t["max_score"]:
            bad.append("test %r: score outside 0..max_score" % t.get("name"))
    if isinstance(r.get("score"), (int, float)) and \
            abs(sum(t.get("score", 0) for t in tests) - r["score"]) > 1e-9:
        bad.append("the total is not the sum of the tests' scores")
    return bad


def grade_main(argv):
    own = os.path.join(ROOT, ".spindle-lab")    # a student tree's lab (make lab)
    if argv and argv[0]:
        want = argv[0]
    elif os.path.exists(own):
        want = open(own).read().strip()
    else:
        want = "all"
    labs = sorted(LABS) if want == "all" else [int(want)] if want.isdigit() else [0]
    if any(lab not in LABS for lab in labs):
        print("make grade: LAB is one of %s, or all" % " ".join(map(str, sorted(LABS))),
              file=sys.stderr)
        return 2
    build = os.path.abspath(os.environ.get("SPINDLE_BUILD", os.path.join(ROOT, "build")))
    s = grade(labs, build)
    out = os.environ.get("GRADE_JSON") or os.path.join(build, "grade.json")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        json.dump(s, f, indent=1, sort_keys=True)
        f.write("\n")
    # Beside it, Gradescope's; and where Gradescope looks, when this runs
    # inside its autograder (docs/labs/README.md, "For teachers").
    r = gradescope_results(s)
    for d in [os.path.dirname(os.path.abspath(out))] + \
            ([GRADESCOPE_DIR] if os.path.isdir(GRADESCOPE_DIR) else []):
        with open(os.path.join(d, "results.json"), "w") as f:
            json.dump(r, f, indent=1, sort_keys=True)
            f.write("\n")
    if s["score"] < s["max"]:
        print("(tests/run.py's output is in %s, log_tail)" % out)
    return 0 if s["score"] == s["max"] else 1


# ---------------------------------------------------------------- make check
def tree_digest(root):
    """{relative path: bytes} of a plain tree, build/ left out."""
    out = {}
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x != "build"]
        for f in files:
            p = os.path.join(d, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = fh.read()
    return out


def solutions(lab):
    """Each of lab's solution texts, whitespace squeezed (for the
    no-solution-left check); only those of 60 characters or more, as a
    `return 0;` is found everywhere."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import mklab
    out = []
    for name, rlab, b, e in mklab.list_regions(ROOT):
        if rlab != lab:
            continue
        with open(os.path.join(ROOT, name), encoding="utf-8") as f:
            lines = f.read().split("\n")
        _, b0, e0, _, _ = [r for r in mklab.regions(name, lines) if r[1] == b - 1][0]
        text = " ".join(" ".join(lines[b0 + 1:e0]).split())
        if len(text) >= 60:
            out.append((name, text))
    return out


def full_grade(lab):
    """make grade LAB=lab on this tree, as the handout shows it: 100%."""
    name = "labs/lab%d_full" % lab
    build = os.path.abspath(os.environ.get("SPINDLE_BUILD", os.path.join(ROOT, "build")))
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "grade.json")
        rel = os.path.relpath(build, ROOT)
        p = subprocess.run(["make", "--no-print-directory", "grade", "LAB=%d" % lab,
                            "B=" + (build if rel.startswith("..") else rel), "GRADE_JSON=" + js],
                           cwd=ROOT, capture_output=True, text=True, timeout=1800)
        if not os.path.exists(js):
            return [(name, "make grade wrote no JSON (exit %d)" % p.returncode,
                     (p.stdout + p.stderr)[-1500:])]
        with open(js) as f:
            s = json.load(f)
        with open(os.path.join(d, "results.json")) as f:
            gs = gradescope_problems(json.load(f))
    if gs:
        return [(name, "results.json is not Gradescope's format: " + "; ".join(gs[:3]), None)]
    bad = [t["name"] for l in s["labs"] for t in l["tests"] if not t["ok"]]
    if bad or p.returncode or not re.search(r"^Score: %d/%d$" % (s["max"], s["max"]),
                                            p.stdout, re.M):
        return [(name, "graded %d/%d (exit %d): %s failed"
                 % (s["score"], s["max"], p.returncode, ", ".join(bad)),
                 s["log_tail"][-1500:] or p.stdout[-1500:])]
    return [(name, None, None)]


def stripped_grade(lab):
    name = "labs/lab%d_stripped" % lab
    tmp = tempfile.mkdtemp(prefix="spindle-lab%d-" % lab)
    try:
        dest = os.path.join(tmp, "lab")
        again = os.path.join(tmp, "again")
        p = subprocess.run(["make", "--no-print-directory", "lab", "LAB=%d" % lab,
                            "DEST=" + dest], cwd=ROOT, capture_output=True, text=True)
        if p.returncode:
            return [(name, "make lab failed (exit %d)" % p.returncode, p.stdout + p.stderr)]
        mk = os.path.join(ROOT, "tools", "mklab.py")
        p = subprocess.run([sys.executable, mk, "--verify", dest], capture_output=True, text=True)
        if p.returncode:
            return [(name, "a marker is left in the student tree", p.stderr[-1500:])]
        tree = tree_digest(dest)
        for f, sol in solutions(lab):
            for path, data in tree.items():
                try:
                    text = " ".join(data.decode("utf-8").split())
                except UnicodeDecodeError:
                    continue
                if sol in text:
                    return [(name, "a solution of %s is left in %s" % (f, path), sol[:300])]
        p = subprocess.run([sys.executable, mk, "--src", dest, str(lab), again],
                           capture_output=True, text=True)
        if p.returncode != 2 or "has no marked region" not in p.stderr:
            return [(name, "stripping the student tree again did not find it bare", p.stderr)]
        if tree_digest(again) != tree:
            return [(name, "stripping the student tree again changed it", None)]
        from machine import other_tree_make
        argv, env = other_tree_make(["make", "-j2", "--no-print-directory", "all", "unit-tests"])
        p = subprocess.run(argv, cwd=dest, env=env, capture_output=True, text=True, timeout=1800)
        if p.returncode:
            return [(name, "the student tree does not build", (p.stdout + p.stderr)[-2000:])]
        # Some stubs hang a test (lab 6's: futexes that return -ENOSYS,
        # and locks that spin on them): STUB_TIMEOUT seconds a boot.
        argv, env = other_tree_make(["make", "--no-print-directory", "grade"],
                                    dict(os.environ, SPINDLE_QEMU_TIMEOUT=str(STUB_TIMEOUT)))
        p = subprocess.run(argv, cwd=dest, env=env, capture_output=True, text=True, timeout=1800)
        with open(os.path.join(dest, "build", "grade.json")) as f:
            s = json.load(f)
        with open(os.path.join(dest, "build", "results.json")) as f:
            r = json.load(f)
        gs = gradescope_problems(r)
        if gs or r["score"] != s["score"] or not any(t["status"] == "failed" for t in r["tests"]):
            return [(name, "results.json is not Gradescope's format, or not the grade: "
                     + "; ".join(gs[:3]), None)]
        if p.returncode == 0 or s["score"] >= s["max"]:
            return [(name, "the stubs grade %d/%d (exit %d): the tests miss them"
                     % (s["score"], s["max"], p.returncode), p.stdout[-1500:])]
        # Each entry ran: a stub fails its tests, not the boots that run
        # them (make grade once graded every entry "no result" for want
        # of the test kernel, and the stubs seemed to fail).
        # (An entry may have none when the stub stops every boot: lab 1's
        # GDT; run.py then says it could not list the test groups.)
        unrun = [t["name"] for t in s["labs"][0]["tests"] if not t["results"]]
        booted = os.path.exists(os.path.join(dest, "build", "kernel-test.elf")) and \
            "could not open kernel file" not in s["log_tail"]
        if unrun and not (booted and "cannot list the test groups" in s["log_tail"]):
            return [(name, "no result for " + ", ".join(unrun), s["log_tail"][-1500:])]
        own = [g for g, _, must in LAB_TESTS[lab] if must]
        passed = [t["name"] for t in s["labs"][0]["tests"] if t["ok"] and t["name"] in own]
        if passed:
            return [(name, "with the stubs these still pass: " + ", ".join(passed),
                     p.stdout[-1500:])]
        return [(name, None, None)]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


GOOD = """int f(void)
{
\t/* LAB 2: BEGIN SOLUTION */
\treturn 42;
\t/* LAB 2: END SOLUTION */
#if 0 /* LAB 2: STUB */
\treturn -ENOSYS;
#endif /* LAB 2: END STUB */
}
"""
# Malformed regions mklab must refuse, each with what is wrong.
BAD = {
    "no END SOLUTION": GOOD.replace("\t/* LAB 2: END SOLUTION */\n", ""),
    "no STUB": GOOD.replace("#if 0 /* LAB 2: STUB */\n", ""),
    "no END STUB": GOOD.replace("#endif /* LAB 2: END STUB */\n", ""),
    "a line between solution and stub": GOOD.replace("END SOLUTION */\n", "END SOLUTION */\n\n"),
    "another lab's END": GOOD.replace("LAB 2: END SOLUTION", "LAB 3: END SOLUTION"),
    "lab 0": GOOD.replace("LAB 2", "LAB 0"),
    "lab 9": GOOD.replace("LAB 2", "LAB 9"),
    "nested": GOOD.replace("\treturn 42;\n", "\t/* LAB 3: BEGIN SOLUTION */\n\treturn 42;\n"),
    "a stray END": GOOD + "/* LAB 2: END SOLUTION */\n",
    "a stray STUB": "#if 0 /* LAB 1: STUB */\n#endif /* LAB 1: END STUB */\n",
}


def mklab_markers():
    """tools/mklab.py's parser on small texts: the solution kept for
    another lab, the stub for this one (and with --later for an earlier
    one), stripping twice the same, and every malformed region refused."""
    name = "labs/mklab_markers"
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import mklab
    want_sol = "int f(void)\n{\n\treturn 42;\n}\n"
    want_stub = "int f(void)\n{\n\treturn -ENOSYS;\n}\n"
    cases = [((1, False), want_sol), ((2, False), want_stub), ((3, False), want_sol),
             ((1, True), want_stub), ((3, True), want_sol)]
    for (lab, later), want in cases:
        got, _ = mklab.strip_text("f.c", GOOD, lab, later)
        if got != want:
            return [(name, "lab %d later=%s: got %r, want %r" % (lab, later, got, want), None)]
        again, regs = mklab.strip_text("f.c", got, lab, later)
        if again != got or regs:
            return [(name, "stripping twice changed lab %d's text" % lab, None)]
    for why, text in sorted(BAD.items()):
        try:
            mklab.strip_text("f.c", text, 2, False)
        except mklab.MarkerError:
            continue
        return [(name, "a malformed region was accepted: " + why, text)]
    # The command's refusals: no lab, a lab out of range, a DEST in use.
    mk = [sys.executable, os.path.join(ROOT, "tools", "mklab.py")]
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "mine"), "w").close()
        for argv, why in (([], "no LAB and DEST"), (["0", d + "/x"], "LAB 0"),
                          (["9", d + "/x"], "LAB 9"), (["2", d], "a DEST with files in it"),
                          (["2", os.path.join(ROOT, "build", "lab2")], "a DEST in the tree")):
            p = subprocess.run(mk + argv, capture_output=True, text=True)
            if p.returncode != 2 or not p.stderr:
                return [(name, "mklab %s: exit %d, want 2 and a message" % (why, p.returncode),
                         p.stdout + p.stderr)]
        if os.listdir(d) != ["mine"]:
            return [(name, "mklab wrote into a DEST in use", None)]
    for lab in ("0", "9", "x"):
        p = subprocess.run([sys.executable, os.path.join(HERE, "labs.py"), "grade", lab],
                           capture_output=True, text=True)
        if p.returncode != 2 or "LAB is one of" not in p.stderr:
            return [(name, "make grade LAB=%s: exit %d, want 2 and a message"
                     % (lab, p.returncode), p.stdout + p.stderr)]
    return [(name, None, None)]


def later_builds():
    """make lab LAB=1 LATER=1: every lab's stubs at once; the tree has no
    marker and builds (a course may hand it out for the whole term)."""
    name = "labs/later_builds"
    tmp = tempfile.mkdtemp(prefix="spindle-later-")
    try:
        dest = os.path.join(tmp, "lab")
        p = subprocess.run(["make", "--no-print-directory", "lab", "LAB=1", "LATER=1",
                            "DEST=" + dest], cwd=ROOT, capture_output=True, text=True)
        if p.returncode:
            return [(name, "make lab LATER=1 failed (exit %d)" % p.returncode,
                     p.stdout + p.stderr)]
        stubbed = set(l.split()[1] for l in p.stdout.splitlines() if l.startswith("  stub "))
        sys.path.insert(0, os.path.join(ROOT, "tools"))
        import mklab
        every = set(n for n, _, _, _ in mklab.list_regions(ROOT))
        if stubbed != every:
            return [(name, "stubbed %s, want every marked file %s"
                     % (sorted(stubbed), sorted(every)), None)]
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mklab.py"),
                            "--verify", dest], capture_output=True, text=True)
        if p.returncode:
            return [(name, "a marker is left", p.stderr[-1500:])]
        from machine import other_tree_make
        argv, env = other_tree_make(["make", "-j2", "--no-print-directory", "all"])
        p = subprocess.run(argv, cwd=dest, env=env, capture_output=True, text=True, timeout=1800)
        if p.returncode:
            return [(name, "the tree with every stub does not build",
                     (p.stdout + p.stderr)[-2000:])]
        return [(name, None, None)]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def labs_jobs():
    """(name, function, args) for tests/run.py."""
    jobs = [("labs/mklab_markers", mklab_markers, ()),
            ("labs/later_builds", later_builds, ())]
    for lab in sorted(LABS):
        jobs.append(("labs/lab%d_full" % lab, full_grade, (lab,)))
        jobs.append(("labs/lab%d_stripped" % lab, stripped_grade, (lab,)))
    return jobs


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "grade":
        sys.exit(grade_main(sys.argv[2:]))
    print("usage: tests/labs.py grade [LAB]", file=sys.stderr)
    sys.exit(2)
