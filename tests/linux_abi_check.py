"""tests/linux_abi_check.py - docs/linux_abi_calls:
docs/linux-abi.md's two lists of Linux i386 system
calls agree with the kernel's table (every SYSCALL() the kernel defines
is listed as implemented, by its name and lib/abi.h number; nothing in
the -ENOSYS table is defined; together, with the numbers Linux never gave
out, they cover 0..450); where the host has Linux's unistd_32.h, every
name is also Linux's name for that number.
"""
import os
import re

from machine import ROOT


LINUX_NR_MAX = 450              # Linux 6.1's i386 table ends at 450
LINUX_UNUSED = {222, 223, 251, 285, 387, 388, 389, 390, 391, 392, 415}
LINUX_UNISTD = "/usr/include/x86_64-linux-gnu/asm/unistd_32.h"


def kernel_syscalls():
    """{number: name} of every SYSCALL(SYS_x, ...) and LINUX_SYSCALL(SYS_x,
    ...) in kernel/, arch/ and compat/ (the full kernel's)."""
    nums = {}
    for h in ("lib/abi.h", "lib/abi_linux.h"):
        for line in open(os.path.join(ROOT, h)):
            m = re.match(r"#define SYS_(\w+)\s+(\d+)", line)
            if m:
                nums[m.group(1)] = int(m.group(2))
    calls, bad = {}, []
    for top in ("kernel", "arch", "compat"):
        for d, _, names in os.walk(os.path.join(ROOT, top)):
            for n in names:
                if not n.endswith(".c"):
                    continue
                for m in re.finditer(r"^(?:LINUX_)?SYSCALL\(SYS_(\w+),",
                                     open(os.path.join(d, n)).read(), re.M):
                    if m.group(1) in nums:
                        calls[nums[m.group(1)]] = m.group(1)
                    else:
                        bad.append("SYS_%s has no number in lib/abi.h or lib/abi_linux.h" % m.group(1))
    return calls, bad


def linux_abi_calls():
    name = "docs/linux_abi_calls"
    text = open(os.path.join(ROOT, "docs/linux-abi.md")).read()
    impl_at = text.index("### Implemented")
    none_at = text.index("### Not implemented")
    implemented = {}
    # The table's rows, without their remarks in parentheses.
    for row in re.findall(r"^\|.*", text[impl_at:text.index("\n### ", impl_at + 1)], re.M):
        row = re.sub(r"\([^()]*\)", "", row)
        for m in re.finditer(r"\b([a-z_][a-z0-9_]*) (\d+)\b", row):
            implemented.setdefault(int(m.group(2)), m.group(1))
    missing = set()
    for m in re.finditer(r"^\| (\d+)(?:-(\d+))? \|", text[none_at:], re.M):
        lo = int(m.group(1))
        missing.update(range(lo, int(m.group(2) or lo) + 1))
    calls, bad = kernel_syscalls()
    for nr, call in sorted(calls.items()):
        if implemented.get(nr) != call:
            bad.append("%s %d is not listed as implemented (the list says %s)"
                       % (call, nr, implemented.get(nr)))
        if nr in missing:
            bad.append("%s %d is in the -ENOSYS table" % (call, nr))
    for nr in sorted(set(implemented) - set(calls)):
        bad.append("%s %d is listed as implemented; no SYSCALL() defines it"
                   % (implemented[nr], nr))
    for nr in range(LINUX_NR_MAX + 1):
        if nr not in calls and nr not in missing and nr not in LINUX_UNUSED:
            bad.append("%d is in neither list" % nr)
    if os.path.exists(LINUX_UNISTD):
        linux = {}
        for line in open(LINUX_UNISTD):
            m = re.match(r"#define __NR_(\w+)\s+(\d+)", line)
            if m:
                linux[int(m.group(2))] = m.group(1)
        for nr, call in sorted(calls.items()):
            if linux.get(nr) != call:
                bad.append("%s %d is %s in Linux's table" % (call, nr, linux.get(nr)))
        for nr in sorted(LINUX_UNUSED):
            if nr in linux:
                bad.append("%d is %s in Linux's table, not unused" % (nr, linux[nr]))
    if bad:
        return [(name, "%d disagreements with the kernel's table" % len(bad),
                 "\n".join("    | " + b for b in bad[:30]))]
    return [(name, None, None)]
