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
  replay/seeds/smp4/T          each SMP test program T of SEEDED_TESTS at
                               -smp 4 under the seeds 1..SEEDED_RUNS
                               (make race T=smp4/T RUNS=3): every run
                               passes
"""
import os
import re
import subprocess
import sys
import tempfile

from machine import INITRD, KERNEL, ROOT

RACE = [sys.executable, os.path.join(ROOT, "tools", "race.py")]
PLANTED_INIT = "init=/bin/race-demo -- 2 1000"
PLANTED_CPUS = 2
# docs/races.md: "found within the first 40 seeds".
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
FAILED_RE = re.compile(r"^seed (\d+): (.*)  \((.*)\)$", re.M)


def race_cmd(mode, cpus, init, *more):
    """tools/race.py MODE on the build under test, as make race runs it."""
    return RACE + [mode, "--kernel", os.path.relpath(KERNEL, ROOT),
                   "--initrd", os.path.relpath(INITRD, ROOT), "--cpus", str(cpus),
                   "--init", init] + list(more)


def race_args(mode, *more):
    return race_cmd(mode, PLANTED_CPUS, PLANTED_INIT, *more)


def planted_counter_race():
    name = "replay/planted_counter_race"
    with tempfile.TemporaryDirectory() as out:
        p = subprocess.run(race_args("race", "--runs", str(PLANTED_SEEDS), "--seed", "1",
                                     "--out", out),
                           cwd=ROOT, capture_output=True, text=True, timeout=900)
        failed = [(int(s), why, log) for s, why, log in FAILED_RE.findall(p.stdout)]
        if p.returncode != 1 or not failed:
            return [(name, "no seed of 1..%d found the race (race.py exit %d)"
                     % (PLANTED_SEEDS, p.returncode), p.stdout[-1500:] + p.stderr[-500:])]
        if len(failed) == PLANTED_SEEDS:
            return [(name, "every seed failed: the seeds do not change the schedule", p.stdout)]
        if not re.search(r"^race: %d of %d seeds failed " % (len(failed), PLANTED_SEEDS),
                         p.stdout, re.M):
            return [(name, "no closing count that matches the failing seeds", p.stdout)]
        seed, why, log = failed[0]
        if why != "init exited with status 1":
            return [(name, "seed %d failed otherwise than by lost updates: %s" % (seed, why),
                     None)]
        with open(log) as f:
            kept = f.read()
        for i in range(REPLAYS):
            r = subprocess.run(race_args("replay", "--seed", str(seed)),
                               cwd=ROOT, capture_output=True, text=True, timeout=300)
            verdict = "replay: seed %d: %s\n" % (seed, why)
            if r.returncode != 1 or not r.stdout.endswith(verdict):
                return [(name, "replay %d of seed %d: not the verdict '%s'"
                         % (i + 1, seed, verdict.strip()), r.stdout[-800:])]
            if r.stdout[:-len(verdict)] != kept:
                return [(name, "replay %d of seed %d: the log differs from make race's"
                         % (i + 1, seed), r.stdout[-800:])]
    return [(name, None, None)]


def seeded_test(t):
    name = "replay/seeds/smp4/%s" % t
    p = subprocess.run(race_cmd("race", 4, "init=/tests/%s" % t, "--runs", str(SEEDED_RUNS),
                                "--seed", "1", "--jobs", "1", "--timeout", "240"),
                       cwd=ROOT, capture_output=True, text=True, timeout=1200)
    if p.returncode != 0:
        return [(name, "failing seeds: %s" % "; ".join(
            "%s: %s" % (s, why) for s, why, _ in FAILED_RE.findall(p.stdout)) or p.stderr[-300:],
            p.stdout[-1500:])]
    return [(name, None, None)]
