"""tests/race_check.py - schedule seeds (kernel/chaos.h, tools/race.py,
docs/races.md).

  replay/planted_counter_race  /bin/race-demo 2 1000 at -smp 2 (two threads
                               adding to one counter with no lock) fails
                               under at least one of the seeds
                               1..PLANTED_SEEDS and passes under another
                               (make race's run of tools/race.py, on
                               make race's relative paths, which are on
                               the kernel's command line: another path is
                               another run); the first failing seed,
                               replayed ten times (make replay's), prints
                               the log make race kept, byte for byte, and
                               the same verdict each time
  replay/planted_lost_wakeup   a copy of the tree whose futex_wait checks
                               the futex word before it queues itself
                               under the bucket's lock (LOST_WAKEUP_PLANT)
                               is built; t_futex at -smp 2 fails under at
                               least one of the seeds 1..LOST_WAKEUP_SEEDS
                               (a ping-pong wake-up lost), its first
                               failing seed replays as above, and lab 6's
                               grader scores that kernel below full marks,
                               its seeded entry failing
  replay/seeds/smp4/T          each SMP test program T of SEEDED_TESTS at
                               -smp 4 under the seeds 1..SEEDED_RUNS
                               (make race T=smp4/T RUNS=3): every run
                               passes
"""
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

from machine import INITRD, KERNEL, QEMU_TIMEOUT, ROOT, other_tree_make

PLANTED_INIT = "init=/bin/race-demo -- 2 1000"
PLANTED_CPUS = 2
# docs/races.md: "runs seeds 1 to 40, requires at least one to fail".
PLANTED_SEEDS = 40
REPLAYS = 10
# The test programs whose threads meet on several CPUs, explored under a
# few seeds by make check. Not t_smp_tls: it needs threads to migrate
# while they run, which CPUs that take turns (-icount) never make them do
# (it fails at the default schedule there too).
SEEDED_TESTS = ["t_smp_futex", "t_futex", "t_pthread_sync", "t_smp_storm", "t_clone_wait",
                "t_exec_race", "t_pthread", "t_robust", "t_signal_wait", "t_smp_tlb",
                "t_kill_fork", "t_affinity"]
SEEDED_RUNS = 3
# Seconds a seeded run may take. The slowest of SEEDED_TESTS runs in
# about 2 s here (the whole machine under -icount is one host thread):
# a run that takes a minute is a hang - a lab's stub spinning on a
# futex that returns -ENOSYS, say - and the first failing seed ends it.
SEEDED_TIMEOUT = min(60, QEMU_TIMEOUT)
# The kernel's planted race: futex_wait checks the futex word, and lets
# its locks go, before it queues itself; a FUTEX_WAKE that comes in
# between finds nobody to wake, and the waiter sleeps through it.
# t_futex's ping-pong sees the wait time out while the word says "go".
# docs/races.md: "requires a failing seed among 1 to 10".
LOST_WAKEUP_CPUS = 2
LOST_WAKEUP_INIT = "init=/tests/t_futex"
LOST_WAKEUP_SEEDS = 10
LOST_WAKEUP_FAIL = "FAIL t_futex.ping_pong_10000_rounds_no_lost_wakeup: lost["
LOST_WAKEUP_GRADED = "replay/seeds/smp4/t_futex"
LOST_WAKEUP_PLANT = ("""\
	b = w.bucket = bucket_of(w.key);
	flags = spin_lock_irqsave(&b->lock);
	if (*(volatile uint32_t *)P2V(pa) != val)
		err = -EAGAIN;
	else {
		list_add_tail(&w.link, &b->waiters);
		current->state = TASK_INTERRUPTIBLE;
	}
	spin_unlock_irqrestore(&b->lock, flags);
	spin_unlock(&mm->lock);
	if (err)
		return err;
""", """\
	if (*(volatile uint32_t *)P2V(pa) != val)     /* planted: too early */
		err = -EAGAIN;
	spin_unlock(&mm->lock);
	if (err)
		return err;
	b = w.bucket = bucket_of(w.key);
	flags = spin_lock_irqsave(&b->lock);
	list_add_tail(&w.link, &b->waiters);
	current->state = TASK_INTERRUPTIBLE;
	spin_unlock_irqrestore(&b->lock, flags);
""")
FAILED_RE = re.compile(r"^seed (\d+): (.*)  \((.*)\)$", re.M)


def race_cmd(mode, cpus, init, *more, root=ROOT):
    """tools/race.py MODE on the build under test (the tree at root's:
    build/kernel.elf, build/initrd.cpio), as make race runs it there."""
    kernel, initrd = ((os.path.relpath(KERNEL, ROOT), os.path.relpath(INITRD, ROOT))
                      if root == ROOT else ("build/kernel.elf", "build/initrd.cpio"))
    return [sys.executable, os.path.join(root, "tools", "race.py"), mode,
            "--kernel", kernel, "--initrd", initrd, "--cpus", str(cpus),
            "--init", init] + list(more)


def found_and_replayed(name, cpus, init, seeds, want, root=ROOT, all_may_fail=False):
    """make race over seeds 1..seeds: at least one fails with the verdict
    want (and, unless all_may_fail, one passes: the seeds change the
    schedule); the first failing seed, replayed REPLAYS times, prints the
    log make race kept, byte for byte, and the same verdict. A result
    list; with the failing seed's log on success, for more checks."""
    with tempfile.TemporaryDirectory() as out:
        p = subprocess.run(race_cmd("race", cpus, init, "--runs", str(seeds), "--seed", "1",
                                    "--out", out, root=root),
                           cwd=root, capture_output=True, text=True, timeout=900)
        failed = [(int(s), why, log) for s, why, log in FAILED_RE.findall(p.stdout)]
        if p.returncode != 1 or not failed:
            return [(name, "no seed of 1..%d found the race (race.py exit %d)"
                     % (seeds, p.returncode), p.stdout[-1500:] + p.stderr[-500:])], None
        if len(failed) == seeds and not all_may_fail:
            return [(name, "every seed failed: the seeds do not change the schedule",
                     p.stdout)], None
        if not re.search(r"^race: %d of %d seeds failed " % (len(failed), seeds),
                         p.stdout, re.M):
            return [(name, "no closing count that matches the failing seeds", p.stdout)], None
        seed, why, log = failed[0]
        if why != want:
            return [(name, "seed %d failed with '%s', not '%s'" % (seed, why, want),
                     None)], None
        with open(log) as f:
            kept = f.read()
        for i in range(REPLAYS):
            r = subprocess.run(race_cmd("replay", cpus, init, "--seed", str(seed), root=root),
                               cwd=root, capture_output=True, text=True, timeout=300)
            verdict = "replay: seed %d: %s\n" % (seed, why)
            if r.returncode != 1 or not r.stdout.endswith(verdict):
                return [(name, "replay %d of seed %d: not the verdict '%s'"
                         % (i + 1, seed, verdict.strip()), r.stdout[-800:])], None
            if r.stdout[:-len(verdict)] != kept:
                # Where they part: what a rare divergence needs to be
                # understood (the logs themselves go with the temporary
                # directory).
                diff = "".join(difflib.unified_diff(
                    kept.splitlines(True), r.stdout[:-len(verdict)].splitlines(True),
                    "make race's log", "replay %d's log" % (i + 1), n=3))
                return [(name, "replay %d of seed %d: the log differs from make race's"
                         % (i + 1, seed), diff[:3000])], None
    return [(name, None, None)], kept


def planted_counter_race():
    return found_and_replayed("replay/planted_counter_race", PLANTED_CPUS, PLANTED_INIT,
                              PLANTED_SEEDS, "init exited with status 1")[0]


def plant_lost_wakeup(dest):
    """Copies the tree to dest (what make lab copies) with futex_wait's
    solution planted with a lost wake-up (LOST_WAKEUP_PLANT); None, or
    why it could not."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import mklab
    for rel in mklab.tree_files(ROOT):
        d = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, rel), d)
    path = os.path.join(dest, "kernel", "futex.c")
    with open(path) as f:
        text = f.read()
    right, planted = LOST_WAKEUP_PLANT
    with open(os.path.join(ROOT, "docs", "races.md")) as f:
        if " ".join(planted.split()) not in " ".join(f.read().split()):
            return "docs/races.md does not show the plant (LOST_WAKEUP_PLANT) as it is"
    if text.count(right) != 1:
        return "kernel/futex.c's futex_wait no longer holds the text to plant in"
    with open(path, "w") as f:
        f.write(text.replace(right, planted))
    return None


def planted_lost_wakeup():
    name = "replay/planted_lost_wakeup"
    with tempfile.TemporaryDirectory() as tree:
        why = plant_lost_wakeup(tree)
        if why:
            return [(name, why, None)]
        # The kernel for make race, and the test kernel make grade's
        # runs list their groups with.
        argv, env = other_tree_make(["make", "-j2", "all", "build/kernel-test.elf"])
        b = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, timeout=900)
        if b.returncode != 0:
            return [(name, "the planted tree does not build", b.stdout[-1500:] + b.stderr[-1500:])]
        res, log = found_and_replayed(name, LOST_WAKEUP_CPUS, LOST_WAKEUP_INIT,
                                      LOST_WAKEUP_SEEDS, "init exited with status 1",
                                      root=tree, all_may_fail=True)
        if log is None:
            return res
        if LOST_WAKEUP_FAIL not in log:
            return [(name, "the failing seed's log has no '%s'" % LOST_WAKEUP_FAIL, log[-1500:])]
        # Lab 6's grader (tests/labs.py) on the planted solution: below
        # full marks, and its seeded entry is one that fails.
        import io
        import labs
        out = io.StringIO()
        s = labs.grade([6], os.path.join(tree, "build"), root=tree, out=out)
        seeded = [t for t in s["labs"][0]["tests"] if t["name"] == LOST_WAKEUP_GRADED]
        unrun = [t["name"] for t in s["labs"][0]["tests"] if not t["results"]]
        if unrun:
            return [(name, "lab 6's grade ran nothing for " + ", ".join(unrun),
                     s["log_tail"][-1500:])]
        if s["score"] >= s["max"] or not seeded or seeded[0]["ok"]:
            return [(name, "lab 6's grade of the lost wake-up: %d/%d, %s not failed"
                     % (s["score"], s["max"], LOST_WAKEUP_GRADED), out.getvalue())]
    return res


def seeded_test(t):
    name = "replay/seeds/smp4/%s" % t
    p = subprocess.run(race_cmd("race", 4, "init=/tests/%s" % t, "--runs", str(SEEDED_RUNS),
                                "--seed", "1", "--jobs", "1", "--first",
                                "--timeout", str(SEEDED_TIMEOUT)),
                       cwd=ROOT, capture_output=True, text=True, timeout=1200)
    if p.returncode != 0:
        return [(name, "failing seeds: %s" % "; ".join(
            "%s: %s" % (s, why) for s, why, _ in FAILED_RE.findall(p.stdout)) or p.stderr[-300:],
            p.stdout[-1500:])]
    return [(name, None, None)]
