"""tests/seed.py - make check's seed group: the seed kernel (make seed,
build/seed/kernel.elf), the core without the Linux layer, and the rules
that keep the two kernels apart (docs/architecture.md).

  seed/smpN/shell.session  the shell at -smp 1, 2, 4 and 8: ps (every task
                           of the seed personality), tls-demo,
                           start-detached, ls over /proc/files, and a
                           glibc program refused at execve with ENOEXEC
                           and one kernel line, the shell alive after
  seed/smp2/t_*            every user test program that needs nothing of
                           abi.md section 9 (all but LINUX_LAYER_TESTS),
                           booted as init on the seed kernel
  seed/smp1/no_monitor     `monitor` on the seed kernel's command line: one
                           line (the monitor is the full kernel's), status 1
  grub/seed_iso_shell      the seed kernel through GRUB (build/seed/spindle-seed.iso)
  bochs/seed_shell         the same ISO under Bochs, 2 CPUs
  repo/seed_size           tools/seed_size.py: the seed kernel's code lines
                           within the limit
  repo/layer_boundary      the core names the layer only through
                           kernel/linux_hooks.h (what the check means is
                           in layer_boundary's comment)
  repo/no_test_code        kernel.elf and the seed kernel carry no
                           in-kernel test (ktest_*) symbol; kernel-test.elf does
"""
import os
import re
import subprocess

from machine import (BUILD, ROOT, SEED_KERNEL, KERNEL, TEST_KERNEL, check_in_order,
                     qemu_code, qemu_kernel_cmd, run_qemu)

SEED_ISO = os.path.join(BUILD, "seed", "spindle-seed.iso")

# The user test programs that test abi.md section 9 - the Linux layer's
# system calls (files and directories, pipes, the terminal, job control,
# limits, interval timers, restart, uname, affinity, madvise...) - or run
# glibc programs, in all their cases or some (t_exec, t_libc: chmod, a
# directory). Every other test program is a seed-personality one and must
# pass on the seed kernel too.
LINUX_LAYER_TESTS = {
    "t_abi_values", "t_affinity", "t_exec", "t_files", "t_fpu_pinned", "t_fs_dirs",
    "t_fs_fds", "t_fs_files", "t_fs_link", "t_fs_pipe", "t_fuzz", "t_glibc", "t_jobctl",
    "t_libc", "t_madvise", "t_personality", "t_restart", "t_robust", "t_signal_wait",
    "t_sys_info", "t_times", "t_tty", "t_tty_pgrp",
}

SEED_SHELL = [
    ("$ ", "ps\n"),
    ("$ ", "tls-demo\n"),
    ("$ ", "start-detached 50\n"),
    ("$ ", "ls /bin\n"),
    ("$ ", "glibc-hello\n"),
    ("$ ", "echo the shell lives\n"),
    ("$ ", "exit 0\n"),
]
SEED_SHELL_EXPECT = [
    ("ps's header, with the personality column",
     r"^TID TGID PPID STATE CPU EXITSIG COMM +TLS6 +TLS7 +TLS8 +PERS$"),
    ("ps lists itself as a seed program", r"^ +\d+ +\d+ +\d+ R .* ps .* seed$"),
    ("tls-demo", r"^tls-demo: 4 threads and main; one selector, a base each$"),
    ("start-detached", r"^started up 50 threads!$"),
    ("start-detached's RELEASE_VM word", r"^stack end after all threads exited: 0x00000000\.$"),
    ("ls over /proc/files", r"^ +\d+ tls-demo$"),
    ("the kernel's refusal line",
     r"^execve: /bin/glibc-hello is a Linux program \(GNU ABI note\): "
     r"this kernel has no Linux layer$"),
    ("the shell's ENOEXEC", r"^sh: glibc-hello: Exec format error$"),
    ("the shell lives", r"^the shell lives$"),
    ("exit 0 powers off", r"^init exited with status 0$"),
]


# tls-demo's main and its threads print in whatever order they run.
TLS_DEMO_LINES = [r"^thread [0-3]: %gs=0x33 \(entry 6\) base=0x[0-9a-f]{8}",
                  r"^main    : %gs=0x33 \(entry 6\) base=0x[0-9a-f]{8}"]


def seed_shell(smp):
    name = "seed/smp%d/shell.session" % smp
    b = run_qemu(qemu_kernel_cmd(smp, "", kernel=SEED_KERNEL), stdin_script=SEED_SHELL)
    bad = b.problem() or check_in_order(b.out, SEED_SHELL_EXPECT)
    if not bad:
        counts = [len(re.findall(p, b.out, re.M)) for p in TLS_DEMO_LINES]
        if counts != [4, 1]:
            bad = "tls-demo printed %d thread lines and %d main lines, want 4 and 1" % tuple(counts)
    if not bad and b.code != qemu_code(0):
        bad = "QEMU exit %d, want %d (status 0)" % (b.code, qemu_code(0))
    return [(name, bad, b.tail(20) if bad else None)]


def seed_no_monitor():
    """The kernel monitor is a course tool of the full kernel's
    (kernel/monitor.h): the seed kernel asked for it says so and powers
    off with status 1, before init."""
    name = "seed/smp1/no_monitor"
    b = run_qemu(qemu_kernel_cmd(1, "monitor", kernel=SEED_KERNEL))
    bad = b.problem() or check_in_order(b.out, [
        ("the refusal", r"^the kernel monitor is the full kernel's \(make run APPEND=monitor\)$")])
    if not bad and re.search(r"^init exited", b.out, re.M):
        bad = "init ran"
    if not bad and b.code != qemu_code(1):
        bad = "QEMU exit %d, want %d (status 1)" % (b.code, qemu_code(1))
    return [(name, bad, b.tail(20) if bad else None)]


def seed_tests(user_tests):
    """The seed-personality test programs."""
    return [t for t in user_tests if t not in LINUX_LAYER_TESTS]


def seed_grub():
    """The seed ISO in QEMU: GRUB loads the seed kernel, the shell runs."""
    from loaders import loader_missing
    from machine import QEMU_BASE
    name = "grub/seed_iso_shell"
    why = loader_missing(SEED_ISO, False)
    if why:
        return [(name, why, None)]
    cmd = QEMU_BASE + ["-smp", "2", "-cdrom", SEED_ISO, "-boot", "d"]
    b = run_qemu(cmd, stdin_script=[("$ ", "tls-demo\n"), ("$ ", "exit 0\n")])
    bad = b.problem() or check_in_order(b.out, [
        ("GRUB loaded it", r"Spindle 0\.1 booting \(i386, loader: GRUB"),
        ("two CPUs", r"^cpus: 2 running"),
        ("tls-demo", r"^main    : %gs=0x33"),
        ("exit 0 powers off", r"^init exited with status 0$")])
    return [(name, bad, b.tail(20) if bad else None)]


def seed_bochs():
    """The seed ISO under Bochs with 2 CPUs: the shell typed into."""
    import loaders
    # With two CPUs tls-demo's main may print before or after its
    # threads: each is looked for from the command on.
    expect = [
        ("the banner", r"Spindle 0\.1 booting \(i386, loader: GRUB"),
        ("two CPUs", r"^cpus: 2 running"),
        ("echo", r"^typed under bochs$"),
        ("tls-demo", r"^tls-demo: 4 threads and main"),
        ("exit 5 powers off", r"^init exited with status 5$"),
    ]
    res = loaders.bochs_shell(SEED_ISO, 2, "bochs/seed_shell", expect)
    return res


def readme_make_seed():
    """README's `make seed` transcript: its last line is what make seed
    prints now, to the digit."""
    name = "docs/README.make_seed"
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    m = re.search(r"^    \$ make seed\n(?:    .*\n)*?    (seed kernel: .*)$", text, re.M)
    if not m:
        return [(name, "README.md shows no `$ make seed` ending in its figure", None)]
    p = subprocess.run(["make", "--no-print-directory", "B=" + BUILD, "seed"], cwd=ROOT,
                       capture_output=True, text=True)
    lines = [l.strip() for l in p.stdout.splitlines() if l.startswith("seed kernel:")]
    got = lines[-1] if lines else "(no figure; exit %d)" % p.returncode
    bad = None if got == m.group(1) else "README says %r, make seed says %r" % (m.group(1), got)
    return [(name, bad, None)]


def seed_size():
    p = subprocess.run(["python3", os.path.join(ROOT, "tools", "seed_size.py"),
                        os.path.join(BUILD, "seed"), "--quiet"],
                       capture_output=True, text=True)
    out = (p.stdout + p.stderr).strip()
    return [("repo/seed_size", None if p.returncode == 0 else out.splitlines()[-1] if out
             else "exit %d" % p.returncode, out[-2000:] if p.returncode else None)]


# The core: what the seed kernel is built from.
CORE_DIRS = ("boot", "arch", "kernel", "lib")


def core_files():
    for d in CORE_DIRS:
        for dirpath, _, names in os.walk(os.path.join(ROOT, d)):
            for n in names:
                if n.endswith((".c", ".h", ".S")):
                    yield os.path.relpath(os.path.join(dirpath, n), ROOT)


def nm(path, flags=()):
    p = subprocess.run(["nm"] + list(flags) + [path], capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else ""


def declared_names(path):
    """The linux_* functions a header declares or defines (comments out)."""
    import sys
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from seed_size import strip_comments
    with open(os.path.join(ROOT, path)) as f:
        return set(re.findall(r"\b(linux_\w+)\s*\(", strip_comments(f.read())))


def hook_names():
    """The hooks kernel/linux_hooks.h documents (its seed-kernel side)."""
    return declared_names(os.path.join("kernel", "linux_hooks.h"))


# The out-of-line halves of the inline hooks (compat/linux/hooks.h: e.g.
# linux_restart_no_handler calls linux_restart_slow only when %eax holds a
# restart code, linux_exit_robust_list calls linux_robust_list_walk only
# when there is a list).
INLINE_HOOK_PARTS = {"linux_restart_slow", "linux_clone_flags_prepare", "linux_clone_settid",
                     "linux_vfork_wait", "linux_robust_list_walk", "linux_vfork_release",
                     "linux_clear_tid_wake"}


def layer_boundary():
    """The core reaches compat/linux/ through kernel/linux_hooks.h alone:
    - no core file but kernel/linux_hooks.h includes a compat/ header,
      and none but it tests CONFIG_LINUX;
    - no core file registers a system call with LINUX_SYSCALL (the
      layer's table: kernel/syscall.h defines it);
    - in the full kernel's objects, every symbol a core object takes from
      a layer object is a hook of kernel/linux_hooks.h, and every hook
      there is one the layer defines (compat/linux/hooks.h declares it)."""
    bad = []
    for f in core_files():
        with open(os.path.join(ROOT, f), errors="replace") as fh:
            text = fh.read()
        if f != "kernel/linux_hooks.h":
            if re.search(r'#\s*include\s+"compat/', text):
                bad.append("%s includes a compat/ header" % f)
            if "CONFIG_LINUX" in text:
                bad.append("%s tests CONFIG_LINUX" % f)
        if f != "kernel/syscall.h" and re.search(r"^\s*LINUX_SYSCALL\(", text, re.M):
            bad.append("%s registers a LINUX_SYSCALL" % f)
    hooks = hook_names() | INLINE_HOOK_PARTS
    layer_defs, core_undef = set(), {}
    full = os.path.join(BUILD, "k")         # the full kernel's objects
    for dirpath, _, names in os.walk(full):
        rel = os.path.relpath(dirpath, full)
        top = rel.split(os.sep)[0]
        if top not in CORE_DIRS + ("compat",):
            continue
        for n in names:
            if not n.endswith(".o"):
                continue
            o = os.path.join(dirpath, n)
            for line in nm(o).splitlines():
                parts = line.split()
                if top == "compat" and len(parts) == 3 and parts[1] in "TDBR":
                    layer_defs.add(parts[2])
                elif top != "compat" and len(parts) == 2 and parts[0] == "U":
                    core_undef.setdefault(parts[1], os.path.join(rel, n))
    if not layer_defs:
        return [("repo/layer_boundary", "no layer objects under %s/compat (make)" % full, None)]
    for sym, obj in sorted(core_undef.items()):
        if sym in layer_defs and sym not in hooks:
            bad.append("%s calls the layer's %s, which is not a hook" % (obj, sym))
    declared = declared_names(os.path.join("compat", "linux", "hooks.h"))
    for h in sorted(hooks - declared):
        bad.append("kernel/linux_hooks.h's %s is not in compat/linux/hooks.h" % h)
    for h in sorted(declared - hooks):
        bad.append("compat/linux/hooks.h's %s has no seed-kernel side" % h)
    return [("repo/layer_boundary", "; ".join(bad[:6]) if bad else None,
             "\n".join(bad) if bad else None)]


def no_test_code():
    bad = []
    for k in (KERNEL, SEED_KERNEL):
        syms = [l.split()[-1] for l in nm(k).splitlines() if " ktest_" in l or " ktest" in l]
        if not nm(k):
            bad.append("no %s" % k)
        elif syms:
            bad.append("%s has %d test symbols (%s...)" % (os.path.relpath(k, BUILD), len(syms),
                                                          syms[0]))
    if not any(" ktest_run" in l for l in nm(TEST_KERNEL).splitlines()):
        bad.append("kernel-test.elf has no ktest_run")
    return [("repo/no_test_code", "; ".join(bad) if bad else None, None)]
