#!/usr/bin/env python3
"""tests/arch_boundary.py - kernel/ holds no i386 detail (issue 14).

Every i386 detail lives in arch/i386 behind its documented headers
(docs/architecture.md lists them): inline assembly, port I/O, control,
debug and flags registers, the EFLAGS bits, page-table-entry bits,
segment descriptors and selectors, the descriptor-table and TLB
instructions, the PC's timer and interrupt chips, and raw register
reads. This scans every .c and .h file under kernel/, with comments left
out (a comment may explain the hardware), and names each file:line that
uses one. tests/run.py runs it as repo/kernel_has_no_i386_detail; run
alone (`python3 tests/arch_boundary.py`) it prints the same lines and
exits 1 if there are any.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "repo/kernel_has_no_i386_detail"

# (what, pattern): the pattern is searched in code with comments removed.
RULES = [
    ("inline assembly", r"\b(?:__asm__|__asm|asm)\b"),
    ("the raw-instruction header", r'#\s*include\s+"arch/i386/x86\.h"'),
    ("port I/O", r"\b(?:in|out)(?:s?[bwl])\s*\("),
    ("a control, debug or flags register",
     r"\b(?:read|write)_(?:cr\d|dr\d|eflags|ebp|esp|seg|msr)\b|\b[cC][rR][0-4]\b|\bDR[67]_\w+"),
    ("an EFLAGS bit", r"\b(?:X86_)?EFLAGS_\w+"),
    ("a page-table-entry bit", r"\b(?:PTE|PDE|PG|_PAGE)_[A-Z]\w*"),
    ("a segment descriptor or selector",
     r"\b(?:GDT|LDT|IDT|DESC|SEG|STS|SEL)_[A-Z_0-9]+|\b__(?:USER|KERNEL)_(?:CS|DS)\b"
     r"|\bdesc_\w+\s*\(|\bgdt_for_cpu\b|\buser_desc_to_\w+"),
    ("an i386 instruction",
     r"\b(?:cli|sti|hlt|sti_hlt|pause|clts|invlpg|rdtsc|rdmsr|wrmsr|cpuid|"
     r"lgdt|lidt|lldt|ltr|sgdt|sidt|str)\s*\("),
    ("a PC timer or interrupt chip", r"\b(?:pit|lapic|ioapic|pic)_\w+\s*\("),
]
RULES = [(what, re.compile(p)) for what, p in RULES]


def strip_comments(text):
    """text with every comment blanked, newlines kept (so line numbers
    stay); string and character literals are kept as they are."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


# Lines each rule must catch, and lines none may (comments, ordinary
# names): checked first, so that a rule that stopped matching fails the
# test instead of passing it.
MUST_CATCH = ['__asm__ volatile("cli");', 'outb(0x43, 0x34);', "write_cr3(V2P(p));",
              "if (flags & EFLAGS_IF)", "pte |= PTE_W;", "d = GDT_ENTRY_TLS_MIN;",
              "sti_hlt();", "invlpg(va);", "pit_wait_us(5000);", '#include "arch/i386/x86.h"',
              'kprintf("cr2=%x", v);']
MUST_PASS = ["/* loads CR3 and clears EFLAGS_IF */", "x = 1; // cli(); here",
             "SYSCALL(SYS_pause, pause)", "local_irq_save(flags);", "switch_mm(old, mm);",
             "strtab_add_kernel(s, str);", "uint32_t pte = mk_pte(page);"]


def rules_work():
    """None, or what is wrong with RULES."""
    for line in MUST_CATCH:
        code = strip_comments(line)
        if not any(rx.search(code) for _, rx in RULES):
            return "no rule catches %r" % line
    for line in MUST_PASS:
        code = strip_comments(line)
        hit = [m.group(0) for _, rx in RULES for m in [rx.search(code)] if m]
        if hit:
            return "a rule catches the innocent %r (%s)" % (line, hit[0])
    return None


def violations(root=ROOT):
    bad = []
    # kernel/, and the Linux layer but for its own i386 part.
    walks = [os.walk(os.path.join(root, "kernel")), os.walk(os.path.join(root, "compat"))]
    for dirpath, _, files in sorted(w for walk in walks for w in walk):
        if os.sep + "i386" in os.path.relpath(dirpath, root):
            continue
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            code = strip_comments(open(path, encoding="utf-8").read())
            for n, line in enumerate(code.splitlines(), 1):
                for what, rx in RULES:
                    m = rx.search(line)
                    if m:
                        bad.append("%s:%d: %s (%s): %s" % (rel, n, what, m.group(0),
                                                          line.strip()[:80]))
    return bad


def kernel_has_no_i386_detail():
    broken = rules_work()
    if broken:
        return [(NAME, "tests/arch_boundary.py: " + broken, None)]
    bad = violations()
    if bad:
        return [(NAME, "%d uses of i386 detail in kernel/ (belongs in arch/i386)" % len(bad),
                 "\n".join("    | " + b for b in bad[:40]))]
    return [(NAME, None, None)]


UPWARD_NAME = "repo/arch_upward_calls"


def nm_symbols(objs, undefined):
    import subprocess
    out = set()
    for o in objs:
        p = subprocess.run(["nm", o], capture_output=True, text=True)
        for line in p.stdout.splitlines():
            f = line.split()
            if undefined and len(f) == 2 and f[0] == "U":
                out.add(f[1])
            elif not undefined and len(f) == 3 and f[1] in "TDBR":
                out.add(f[2])
    return out


def arch_upward_calls(build=None):
    """What arch/i386's objects take from kernel/'s, in the seed kernel's
    build, against the list docs/architecture.md shows ("The calls up")."""
    import glob
    build = build or os.path.abspath(os.environ.get("SPINDLE_BUILD", os.path.join(ROOT, "build")))
    seed = os.path.join(build, "seed")
    arch = glob.glob(os.path.join(seed, "arch", "i386", "*.o"))
    kern = glob.glob(os.path.join(seed, "kernel", "**", "*.o"), recursive=True)
    if not arch or not kern:
        return [(UPWARD_NAME, "no seed kernel objects under %s (make seed)" % seed, None)]
    found = nm_symbols(arch, True) & nm_symbols(kern, False)
    text = open(os.path.join(ROOT, "docs", "architecture.md")).read()
    m = re.search(r"<!-- arch-upward-calls -->(.*?)<!-- /arch-upward-calls -->", text, re.S)
    if not m:
        return [(UPWARD_NAME, "docs/architecture.md has no arch-upward-calls list", None)]
    listed = set(re.findall(r"`(\w+)`", m.group(1)))
    bad = ["arch/i386 calls %s, which docs/architecture.md does not list" % s
           for s in sorted(found - listed)]
    bad += ["docs/architecture.md lists %s, which arch/i386 does not call" % s
            for s in sorted(listed - found)]
    return [(UPWARD_NAME, "; ".join(bad[:4]) if bad else None, "\n".join(bad) or None)]


if __name__ == "__main__":
    broken = rules_work()
    if broken:
        print("tests/arch_boundary.py: " + broken)
        sys.exit(1)
    bad = violations()
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)
