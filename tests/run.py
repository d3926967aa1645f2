#!/usr/bin/env python3
"""tests/run.py - Spindle's test harness (`make check` runs it).

Runs, in order, and prints one line per test, `PASS name` or
`FAIL name: reason`, then the exact last line `N passed, N failed`:

  unit/...     the host unit tests (build/unit/test_*, tests/unit/)
  smpN/...     the in-kernel test groups (tests/guest/, linked into
               build/kernel-test.elf alone), one QEMU boot per
               group, at every CPU count in SMP_COUNTS; groups are found by
               booting with ktest=list. crash_* groups must end in a PANIC
               with a symbolised backtrace that names the test.
  smpN/console.monitor_session
               the kernel monitor driven through the serial console
  smpN/console.tty_typeahead, smpN/console.tty_typeahead_at_boot
               6 KB typed ahead of the shell in one write: none of it lost
  smpN/shell.session, smpN/shell.eof, smpN/shell.oom, smpN/shell.files
               /bin/sh (run by /bin/init) driven through the console: a
               script of commands and their output; Ctrl-D ends it;
               memhog killed by the out-of-memory policy, the shell alive
  smpN/shell.intr
               Ctrl-C and Ctrl-\ typed while `sleep 100` runs: the command
               dies, the shell lives (job control, docs/terminal.md)
  smpN/console.tty_raw, smpN/t_tty.typed_*
               /bin/t_tty -- raw reading typed bytes in raw mode (VMIN,
               VTIME, no ISIG) and canonical mode without echo
  smpN/t_*     the user test programs (user/tests/t_*.c, not the *_child.c
               helpers), each booted as init (init=/tests/t_NAME): its own
               PASS/FAIL lines, then `init exited with status 0`; those in
               USER_TEST_BOOTS once per CPU model and argv listed there; at
               every count of SMP_COUNTS, or those USER_TEST_SMP names
  smpN/fpu=lazy/t_fpu*, smpN/nofxsr/t_fpu*
               the FPU tests again in the other switching mode, and on a
               CPU without FXSR and SSE (USER_TEST_VARIANTS)
  smpN/lx_*    the linux group (user/linux/lx_*.c): glibc programs built
               by the host's gcc -m32 -static, booted as init like the
               t_* programs (from /tests), at -smp 1, 4 and 8 (LINUX_SMP_COUNTS)
  grub/...     the GRUB ISO booted in QEMU
  bochs/...    the same ISO under Bochs, the shell typed into it, and
               t_fpu_fault as init (Bochs raises SSE exceptions, QEMU's
               TCG does not)
  gdb/...      GDB on QEMU's stub with the debug kernel and Spindle's
               commands (tests/gdb_tests.py)
  bench/...    make bench's SMP table (/bin/bench_smp at -smp 2 under
               -icount) completes and repeats exactly; the hot paths of
               /bin/bench hold their instruction budgets, tests/budgets.txt
               (tests/bench_check.py)
  replay/...   runs that repeat: each of a few programs booted twice at
               -smp 4 under -icount prints the same log (one under a
               schedule seed, chaos=SEED); a race planted in /bin/race-demo
               hides at the default schedule, is found by a seed and
               replays exactly; so is a lost wake-up planted in a copy of
               the kernel, which lab 6's grader then fails; the SMP test
               programs pass under seeds 1 to 3 (tests/race_check.py,
               docs/races.md)
  trace/...    the scheduler tracer (tests/trace_check.py): make trace's run
               of start-detached 1000 at -smp 4, its JSON against the
               Chrome trace-event format, its event counts against the
               program, its SVG; a ring overfilled, its drops counted;
               /tests/t_trace on, booted with `trace`
  seed/...     the seed kernel (make seed), the core alone: the shell at
               every count of SMP_COUNTS, every seed-personality test
               program at -smp 2, a glibc program refused, `monitor`
               refused (tests/seed.py);
               grub/seed_iso_shell and bochs/seed_shell boot it by GRUB
  up/...       QEMU without a local APIC, and without a power-off device
  web/...      build/web (make web) booted by v86 in Node and in Chromium
  repo/...     no file refers outside the repository; kernel/ holds no
               i386 detail (tests/arch_boundary.py); the seed kernel's
               size, the core's one door to the Linux layer, no test code
               in the kernels of make run and make seed (tests/seed.py)
  docs/...     every command README.md and docs/ show, run as written
               (tests/docs_examples.py)
  labs/...     each lab (docs/labs/): its tests grade 100% here, and its
               student tree (make lab) is bare of markers and solutions,
               builds, and grades below 100%; the tree with every stub
               builds; the marker parser (tests/labs.py)

A boot fails, with its reason and its last lines of output, on a PANIC
where none was expected, a triple fault (QEMU exits 0 under -no-reboot, or
the banner shows twice), a timeout, or a missing end-of-run line. A test
whose tool is not installed (Bochs, GRUB, GDB) prints `SKIP name: why`,
and the last line then ends `, N skipped`. Exit status 1 if anything
failed. Options: -t NAME runs the tests with that exact name or shell
glob (make test T=NAME); -k PATTERN those whose name contains PATTERN;
-j N boots N machines at once. --check-linux (make check-linux) runs
only the busybox group instead: Debian's busybox-static driven through
Spindle's shell at -smp 1 and 4, and README's `make run-busybox`
transcript (tests/busybox.py), SKIP lines if busybox could not be
fetched.

The pieces: tests/machine.py (a QEMU boot and its results),
tests/console.py (the monitor, typeahead and shell sessions),
tests/console_tty.py (Ctrl-C at the shell, raw-mode reads),
tests/loaders.py (GRUB, Bochs), tests/gdb_tests.py (GDB),
tests/docs_examples.py and tests/docs_figures.py (the docs), tests/web.py (the page and the
machine v86 emulates); this file, the unit tests, the
in-kernel groups, the user test programs and main.
"""
import argparse
import concurrent.futures
import fnmatch
import os
import re
import subprocess
import sys
import time

from machine import (BUILD, INITRD, ROOT, SKIP, SMP_COUNTS, STATUS_FAIL,
                     STATUS_PANIC, STATUS_PASS, TEST_ISO_FPU, TEST_ISO_SMP, LINE_RE, Results,
                     qemu_code, qemu_kernel_cmd, run_qemu)
from console import monitor_session, shell_eof, shell_files, shell_oom, shell_session, tty_typeahead
from console_tty import shell_intr, shell_susp, tty_raw
import arch_boundary
from bench_check import bench_budgets, bench_smp_repeats, identical_logs
from race_check import SEEDED_TESTS, planted_counter_race, planted_lost_wakeup, seeded_test
from trace_check import checker_rejects, overflow_reported, trace_start_detached
from docs_examples import doc_jobs, outside_references
from labs import labs_jobs
from gdb_tests import break_switch, every_command, kmain_and_gdt, tasks_vs_proc
from loaders import bochs, bochs_shell, bochs_user, grub_qemu
from web import no_poweroff, up_noapic, web_browser, web_node
from busybox import busybox_jobs
from user_tests import (LINUX_SMP_COUNTS, USER_TEST_BOOTS, USER_TEST_SMP,
                        discover_linux_tests, discover_user_tests, trace_user_test,
                        user_test, user_test_variants)
import seed

# ---------------------------------------------------------------- unit
def unit_binaries():
    d = os.path.join(BUILD, "unit")
    return sorted(f for f in os.listdir(d) if f.startswith("test_")) \
        if os.path.isdir(d) else []


def run_unit(res, sel):
    """The host unit tests selected; a SKIP line if none is built (make
    unit-tests builds them; make check and make test do it first)."""
    bins = unit_binaries()
    if not bins:
        if sel.job("unit/test_"):
            res.skip("unit", "no unit test binaries in build/unit (make unit-tests)")
        return
    for b in bins:
        if not sel.job("unit/" + b):
            continue
        p = subprocess.run([os.path.join(BUILD, "unit", b)], capture_output=True,
                           text=True, timeout=300)
        n = 0
        for line in p.stdout.splitlines():
            m = LINE_RE.match(line.strip())
            if m:
                n += 1
                if sel.line(m.group(2)):
                    res.report(m.group(2), None if m.group(1) == "PASS"
                               else (m.group(3) or "failed"))
        if n == 0 or (p.returncode != 0 and "FAIL" not in p.stdout):
            res.report("unit/" + b, "exit status %d, %d results" % (p.returncode, n),
                       p.stderr[-2000:])


# ---------------------------------------------------------------- guest
def discover_groups():
    b = run_qemu(qemu_kernel_cmd(1, "ktest=list"))
    bad = b.problem()
    if bad or b.code != qemu_code(STATUS_PASS):
        raise SystemExit("cannot list the test groups (%s):\n%s"
                         % (bad or "exit %d" % b.code, b.tail()))
    return re.findall(r"^ktest-group (\S+)$", b.out, re.M)


BACKTRACE_RE = re.compile(r"^  #(\d+) 0x[0-9a-f]{8} ([A-Za-z_][\w.]*)\+0x[0-9a-f]+$", re.M)

# What each deliberate crash must print, beyond the common shape.
CRASH_EXPECT = {
    "crash_pf": r"^PANIC: page fault at eip=0x[0-9a-f]{8} cr2=0xf8000000 err=0x2$",
    "crash_null": r"^PANIC: page fault at eip=0x[0-9a-f]{8} cr2=0x00000000 err=0$",
    "crash_ud": r"^PANIC: invalid opcode \(trap 6\) at eip=0x[0-9a-f]{8}",
    "crash_panic": r"^PANIC: deliberate panic 42 from the crash_panic test$",
    "crash_sleep_spinlock":
        r"^PANIC: schedule: sleeping with spinlock 'crash test' held \(1 held\)",
    "crash_recursive_lock": r"^PANIC: spinlock 'crash test': recursive acquire on cpu(\d) "
                            r"\(owner cpu\1\)$",
    "crash_lock_not_held": r"^PANIC: assertion failed: spin_held\(&tasklist_lock\) "
                           r"at kernel/task\.c:\d+ in task_find\(\)$",
    "crash_kstack_use_after_free": r"^PANIC: page fault at eip=0x[0-9a-f]{8} "
                                   r"cr2=0x[0-9a-f]{8} err=0$",
    "crash_stack_overflow": r"^PANIC: kernel stack overflow: esp=0x[0-9a-f]{8} "
                            r"cr2=0x[0-9a-f]{8}, in the guard page under the stack",
    "crash_double_free": r"^PANIC: objcache_free\(crash test, 0x[0-9a-f]{8}\): double free$",
}
# Crashes that happen on a kernel thread's stack: their backtrace ends at
# the thread's function, not at kmain.
CRASH_IN_KTHREAD = {"crash_stack_overflow"}


def check_crash(group, b):
    """The shape of a deliberate kernel fault: the reason line, a
    backtrace of symbolised frames numbered from 0 that names the test
    function and kmain, and power-off status 0x7f."""
    if b.timed_out:
        return "timeout (no power-off)"
    pat = CRASH_EXPECT.get(group, r"^PANIC: ")
    if not re.search(pat, b.out, re.M):
        return "no line matching /%s/" % pat
    if "backtrace:" not in b.out:
        return "no backtrace"
    frames = BACKTRACE_RE.findall(b.out.split("backtrace:", 1)[1])
    if len(frames) < 3 or [int(n) for n, _ in frames] != list(range(len(frames))):
        return "backtrace is not numbered symbolised frames #0.."
    names = [f for _, f in frames]
    if not any(f.startswith("ktest_%s_" % group) for f in names):
        return "backtrace does not name the test function ktest_%s_*" % group
    if "kmain" not in names and group not in CRASH_IN_KTHREAD:
        return "backtrace does not reach kmain"
    if b.code != qemu_code(STATUS_PANIC):
        return "QEMU exit %d, want %d (status 0x7f)" % (b.code, qemu_code(STATUS_PANIC))
    return None


STOPPED_RE = re.compile(r"^cpu(\d+) stopped: eip=0x[0-9a-f]{8} \S+ task=\S+ tid=-?\d+$", re.M)


def check_stopped_cpus(b, smp):
    """A panic on one CPU stops the others, and each says so once."""
    cpus = sorted(int(c) for c in STOPPED_RE.findall(b.out))
    if len(cpus) != smp - 1 or len(set(cpus)) != smp - 1:
        return "%d 'cpuN stopped' lines for %d other CPUs: %s" % (len(cpus), smp - 1, cpus)
    return None


def guest_group(smp, group):
    """Boots one group; returns (lines to report) as (name, reason, detail)."""
    prefix = "smp%d/" % smp
    append = "ktest=%s expect_cpus=%d" % (group, smp)
    initrd = INITRD
    if group == "initrd":
        # A second, plain module: abi.md's "any other file" rule.
        extra = os.path.join(ROOT, "user", "root", "etc", "motd")
        append += " extra_size=%d" % os.path.getsize(extra)
        initrd = "%s,%s /bin/extra" % (INITRD, extra.replace(",", ",,"))
    b = run_qemu(qemu_kernel_cmd(smp, append, initrd))
    out = []
    if group.startswith("crash_"):
        bad = check_crash(group, b)
        if not bad and group.startswith("crash_smp"):
            bad = check_stopped_cpus(b, smp)
        out.append((prefix + group, bad, b.tail(20)))
        return out
    for line in b.out.splitlines():
        m = LINE_RE.match(line.strip())
        if m:
            out.append((prefix + m.group(2),
                        None if m.group(1) == "PASS" else (m.group(3) or "failed"), None))
    bad = b.problem()
    done = re.search(r"^ktest: done, (\d+) passed, (\d+) failed$", b.out, re.M)
    if bad:
        out.append((prefix + group, bad, b.tail()))
    elif not done:
        out.append((prefix + group, "no 'ktest: done' line", b.tail()))
    elif b.code != qemu_code(STATUS_FAIL if int(done.group(2)) else STATUS_PASS):
        out.append((prefix + group, "QEMU exit %d disagrees with the results" % b.code,
                    b.tail()))
    return out


# What abi.md section 1 promises of the machine, each a boot of the
# ktest=smp group (every CPU up, each with its GDT, IPIs) in a shape no
# other job boots: (name, -smp, -m, extra QEMU arguments, extra kernel
# words, CPUs the kernel must use, lines that must appear once).
MACHINE_BOOTS = [
    ("machine/mem32", 1, 32, [], "", 1, []),
    ("machine/mem896", 4, 896, [], "", 4, []),
    ("machine/smp_cap_and_unknown_word", 4, 128, [], "smp=2 no_such_word", 2,
     [r"cmdline: unknown word 'no_such_word' ignored"]),
    ("machine/no_acpi_mp_table", 4, 128, ["-no-acpi"], "", 4,
     [r"smp: MP table: 4 CPUs.*"]),
]


def machine_boot(name, smp, mem, extra, words, cpus, once):
    """One of MACHINE_BOOTS: the group passes, and each line of once is
    printed exactly once."""
    append = ("%s ktest=smp expect_cpus=%d" % (words, cpus)).strip()
    b = run_qemu(qemu_kernel_cmd(smp, append, mem=mem) + extra)
    bad = b.problem()
    done = re.search(r"^ktest: done, (\d+) passed, (\d+) failed$", b.out, re.M)
    if not bad and not done:
        bad = "no 'ktest: done' line"
    elif not bad and int(done.group(2)):
        bad = "%s ktest cases failed" % done.group(2)
    for line in once:
        n = len(re.findall("^" + line + "$", b.out, re.M))
        if not bad and n != 1:
            bad = "%d lines match %r, want 1" % (n, line)
    return [(name, bad, b.tail(20) if bad else None)]


def exit_status_masked():
    """abi.md section 1: pid 1's exit status N is printed whole, and
    QEMU is told N & 0x7f (isa-debug-exit: its exit code is that, times
    2, plus 1)."""
    name = "machine/exit_status_200"
    b = run_qemu(qemu_kernel_cmd(1, "init=/bin/sh"), stdin_script=[("$ ", "exit 200\n")])
    bad = b.problem()
    if not bad and not re.search(r"^init exited with status 200$", b.out, re.M):
        bad = "no 'init exited with status 200' line"
    if not bad and b.code != qemu_code(200 & 0x7f):
        bad = "QEMU exit %d, want %d" % (b.code, qemu_code(200 & 0x7f))
    return [(name, bad, b.tail(12) if bad else None)]


# ---------------------------------------------------------------- main
class Selection:
    """Which tests to run. -k PATTERN: names containing PATTERN (any of
    several). -t NAME: exact names or shell globs (make test T=NAME):
    smp1/t_clone is that program's boot (all its cases) and not
    t_clone_wait, smp1/t_clone.files_shared one case of it, 'smp*/t_fork'
    every CPU count, 'gdb/*' the GDB sessions. None: everything."""

    def __init__(self, subs, globs):
        self.subs, self.globs = subs, globs

    @staticmethod
    def job_of(name):
        """A result's boot: smp1/t_clone.files_shared -> smp1/t_clone."""
        head, _, tail = name.partition("/")
        return head + "/" + tail.split(".")[0] if tail else name

    def job(self, name):
        if self.subs and not any(w in name or w.split(".")[0] in name for w in self.subs):
            return False
        if self.globs and not any(fnmatch.fnmatchcase(name, g) or
                                  fnmatch.fnmatchcase(name, self.job_of(g)) or
                                  fnmatch.fnmatchcase(self.job_of(name), g)
                                  for g in self.globs):
            return False
        return True

    def line(self, name):
        if self.subs and not any(w in name or w.split(".")[0] in name for w in self.subs):
            return False
        if self.globs and not any(fnmatch.fnmatchcase(name, g) or
                                  fnmatch.fnmatchcase(self.job_of(name), g)
                                  for g in self.globs):
            return False
        return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-k", action="append", default=[], help="run tests whose name contains this")
    ap.add_argument("-t", action="append", default=[],
                    help="run tests with this exact name or shell glob (make test T=...)")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--check-linux", action="store_true",
                    help="only the busybox group (make check-linux)")
    args = ap.parse_args()
    sel = Selection(args.k, [g for t in args.t for g in t.split()])
    res = Results()

    if not args.check_linux:
        run_unit(res, sel)

    groups = [] if args.check_linux else discover_groups()
    user_tests = discover_user_tests()
    linux_tests = discover_linux_tests()
    jobs = []
    for smp in SMP_COUNTS:
        for g in groups:
            jobs.append(("smp%d/%s" % (smp, g), guest_group, (smp, g)))
        jobs.append(("smp%d/console.monitor_session" % smp, monitor_session, (smp,)))
        jobs.append(("smp%d/console.tty_typeahead" % smp, tty_typeahead, (smp,)))
        jobs.append(("smp%d/console.tty_typeahead_at_boot" % smp, tty_typeahead, (smp, True)))
        jobs.append(("smp%d/shell.session" % smp, shell_session, (smp,)))
        jobs.append(("smp%d/shell.eof" % smp, shell_eof, (smp,)))
        jobs.append(("smp%d/shell.oom" % smp, shell_oom, (smp,)))
        jobs.append(("smp%d/shell.files" % smp, shell_files, (smp,)))
        jobs.append(("smp%d/shell.intr" % smp, shell_intr, (smp,)))
        jobs.append(("smp%d/shell.susp" % smp, shell_susp, (smp,)))
        jobs.append(("smp%d/console.tty_raw" % smp, tty_raw, (smp,)))
        for t in user_tests:
            if smp not in USER_TEST_SMP.get(t, SMP_COUNTS):
                continue
            for cpu, argv in USER_TEST_BOOTS.get(t, [(None, [])]):
                jobs.append(("smp%d/%s" % (smp, t), user_test, (smp, t, cpu, argv)))
            for v in user_test_variants(t, smp):
                jobs.append(("smp%d/%s/%s" % (smp, v[0], t), user_test,
                             (smp, t, None, (), v)))
        for t in linux_tests if smp in LINUX_SMP_COUNTS else ():
            jobs.append(("smp%d/%s" % (smp, t), user_test, (smp, t)))
    if not args.check_linux:
        for smp in SMP_COUNTS:
            jobs.append(("seed/smp%d/shell.session" % smp, seed.seed_shell, (smp,)))
        for t in seed.seed_tests(user_tests):
            for cpu, argv in USER_TEST_BOOTS.get(t, [(None, [])]):
                jobs.append(("seed/smp2/%s" % t, user_test,
                             (2, t, cpu, argv, None, seed.SEED_KERNEL, "seed/")))
        jobs.append(("seed/smp1/no_monitor", seed.seed_no_monitor, ()))
        jobs.append(("grub/seed_iso_shell", seed.seed_grub, ()))
        jobs.append(("bochs/seed_shell", seed.seed_bochs, ()))
        jobs.append(("repo/seed_size", seed.seed_size, ()))
        jobs.append(("docs/README.make_seed", seed.readme_make_seed, ()))
        jobs.append(("repo/layer_boundary", seed.layer_boundary, ()))
        jobs.append(("repo/no_test_code", seed.no_test_code, ()))
    for m in MACHINE_BOOTS:
        jobs.append((m[0], machine_boot, m))
    jobs.append(("machine/exit_status_200", exit_status_masked, ()))
    jobs.append(("grub/qemu_iso_boot", grub_qemu, ()))
    jobs.append(("bochs/iso_boot", bochs, ()))
    jobs.append(("bochs/smp2_group", bochs, (TEST_ISO_SMP, 2, "bochs/smp2_group")))
    jobs.append(("bochs/shell_session", bochs_shell, ()))
    jobs.append(("bochs/t_fpu_fault", bochs_user, (TEST_ISO_FPU, 2, "t_fpu_fault")))
    jobs.append(("gdb/kmain_and_gdt", kmain_and_gdt, ()))
    for smp in (1, 4):
        jobs.append(("gdb/smp%d.break_switch" % smp, break_switch, (smp,)))
    jobs.append(("gdb/tasks_vs_proc", tasks_vs_proc, ()))
    jobs.append(("gdb/every_command", every_command, ()))
    jobs.append(("repo/no_outside_references", outside_references, ()))
    jobs.append((arch_boundary.NAME, arch_boundary.kernel_has_no_i386_detail, ()))
    jobs.append((arch_boundary.UPWARD_NAME, arch_boundary.arch_upward_calls, ()))
    jobs.append(("bench/smp2_table_repeats", bench_smp_repeats, ()))
    jobs.append(("bench/budgets", bench_budgets, ()))
    jobs.append(("replay/identical_logs_smp4", identical_logs, ()))
    jobs.append(("replay/planted_counter_race", planted_counter_race, ()))
    jobs.append(("replay/planted_lost_wakeup", planted_lost_wakeup, ()))
    for t in SEEDED_TESTS:
        jobs.append(("replay/seeds/smp4/%s" % t, seeded_test, (t,)))
    jobs.append(("trace/start_detached", trace_start_detached, ()))
    jobs.append(("trace/overflow_reported", overflow_reported, ()))
    jobs.append(("trace/checker_rejects", checker_rejects, ()))
    jobs.append(("trace/t_trace", trace_user_test, ()))
    jobs.append(("up/noapic", up_noapic, ()))
    jobs.append(("up/no_poweroff", no_poweroff, ()))
    jobs.append(("smp4/no_poweroff", no_poweroff, (4,)))
    jobs.append(("web/node", web_node, ()))
    jobs.append(("web/node_iso", web_node, (True,)))
    jobs.append(("web/chromium", web_browser, ()))
    jobs += doc_jobs()
    jobs += labs_jobs()
    jobs = [(name, fn, a) for name, fn, a in jobs if sel.job(name)]
    if args.check_linux:                # instead of all the above
        jobs = [(name, fn, a) for name, fn, a in busybox_jobs() if sel.job(name)]

    seconds = []                            # (wall-clock seconds, job): write_times
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as ex:
        futures = [ex.submit(timed, fn, a) for name, fn, a in jobs]
        for (job, _, _), fut in zip(jobs, futures):     # report in a fixed order
            try:
                lines, secs = fut.result()
                seconds.append((secs, job))
            except Exception as e:          # a harness bug is a failure too
                lines = [("harness", "%s: %s" % (type(e).__name__, e), None)]
            for name, reason, detail in lines:
                if not sel.line(name) and reason is None:
                    continue
                if reason is not None and reason.startswith(SKIP):
                    res.skip(name, reason[len(SKIP):])
                else:
                    res.report(name, reason, detail)

    write_times(seconds, args.j, "check-linux-times.txt" if args.check_linux else "check-times.txt")
    print(res.summary(), flush=True)
    return 1 if res.failed else 0


# Where make check's time goes: each job's wall-clock seconds, slowest
# first, in $(B)/check-times.txt (check-linux-times.txt for make
# check-linux), for whoever must keep the run short (README, "make
# check"). Not printed: the output is one line per test.
def timed(fn, args):
    start = time.monotonic()
    lines = fn(*args)
    return lines, time.monotonic() - start


def write_times(seconds, parallel, name):
    try:
        with open(os.path.join(BUILD, name), "w") as f:
            f.write("# seconds  job (tests/run.py, %d jobs at a time)\n" % parallel)
            for secs, job in sorted(seconds, reverse=True):
                f.write("%9.1f  %s\n" % (secs, job))
    except OSError:
        pass                                # a figure for people, never a failure


if __name__ == "__main__":
    sys.exit(main())
