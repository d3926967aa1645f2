"""tools/gdb/cmd_segments.py - spindle desc, gdt, tls, ldt: descriptors
decoded (Intel SDM Vol. 3A 3.4.5), with the seed's names for the GDT
entries (arch/i386/segment.h)."""
import gdb

import desc
import kdata
from kdata import SpindleError


def print_desc(label, a, b, note=""):
    print("%-36s %08x%08x  %s%s" % (label, b, a, desc.describe(a, b), note))


class SpindleDesc(gdb.Command):
    """Decode one segment descriptor.

Usage: spindle desc EXPR
       spindle desc N

EXPR is any expression for a struct desc (cpus[0].gdt[6],
next->thread.tls_array[0], *(struct desc *)0xc0144030) or a 64-bit value
(0x00cff2000000ffff). A plain small number N (0..23) is entry N of the
selected CPU's GDT. Prints the two words as one 64-bit number (high word
first, as x/gx shows it), then base, limit (and the size it means: G=1
counts 4 KiB pages), G, D/B, DPL, S, P, the type and, for code and data,
the Accessed bit the CPU sets when it loads the selector."""

    def __init__(self):
        super().__init__("spindle desc", gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        arg = arg.strip()
        if not arg:
            raise SpindleError("usage: spindle desc EXPR|N (help spindle desc)")
        try:
            v = kdata.value(arg)
        except gdb.error as e:
            raise SpindleError(str(e))
        if v.type.strip_typedefs().code == gdb.TYPE_CODE_STRUCT:
            a, b = int(v["a"]) & 0xffffffff, int(v["b"]) & 0xffffffff
            print_desc(arg, a, b)
            return
        n = int(v)
        if 0 <= n < desc.GDT_ENTRIES and arg.isdigit():
            cpu = kdata.selected_cpu()
            a, b = kdata.gdt_desc(cpu, n)
            print_desc("cpu%d gdt[%d] sel %#04x" % (cpu, n, desc.selector(n)), a, b)
            return
        a, b = desc.split(n & 0xffffffffffffffff)
        print_desc(arg, a, b)


class SpindleGdt(gdb.Command):
    """Print a CPU's 24-entry GDT, decoded, with the seed's names.

Usage: spindle gdt [CPU]

CPU defaults to the CPU GDB has selected (info threads: thread N is CPU
N-1). Each entry shows its selector, its name in the tls-2.5.31-D9 layout
(arch/i386/segment.h), the raw 64-bit value and the decoded fields.
Empty reserved entries are left out. Entries 6-8 are the running task's
TLS slots, copied in by load_TLS at every switch."""

    def __init__(self):
        super().__init__("spindle gdt", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cpu = kdata.cpu_arg(arg) if arg.strip() else kdata.selected_cpu()
        gdt = kdata.value("cpus")[cpu]["gdt"]
        print("cpu%d GDT at %#x, %d entries (tls-2.5.31-D9 layout)"
              % (cpu, int(gdt.address), desc.GDT_ENTRIES))
        for i in range(desc.GDT_ENTRIES):
            a, b = kdata.gdt_desc(cpu, i)
            if i not in desc.GDT_NAMES and a == 0 and b == 0:
                continue
            label = "%2d sel %#04x %-23s" % (i, desc.selector(i), desc.GDT_NAMES.get(i, "reserved"))
            print_desc(label, a, b)


def tls_slot_notes(t, i, a, b):
    """What sits at a TLS base: the TCB's self-pointer (user/lib's
    pthreads and glibc both put the TCB's own address at %gs:0)."""
    if a == 0 and b == 0:
        return ""
    base = desc.base(a, b)
    try:
        word = int(gdb.selected_inferior().read_memory(base, 4).tobytes()[::-1].hex(), 16)
    except gdb.MemoryError:
        return "\n%39s(%#x is not mapped in the address space this CPU has loaded)" % ("", base)
    ok = "the TCB's self-pointer" if word == base else "not a self-pointer"
    return "\n%39sat base: %#010x (%s)" % ("", word, ok)


class SpindleTls(gdb.Command):
    """Print a task's three TLS slots (GDT entries 6, 7, 8), decoded.

Usage: spindle tls TID

These are the task's thread.tls_array, which set_thread_area fills and
load_TLS copies into the CPU's GDT at every switch to it. For each
non-empty slot it also reads the first word at the base: a thread's TCB
begins with a pointer to itself, so %gs:0 is the thread pointer. (The
read uses the address space this CPU has loaded: a task of another
process shows as not mapped.)"""

    def __init__(self):
        super().__init__("spindle tls", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise SpindleError("usage: spindle tls TID (spindle tasks lists them)")
        t = kdata.tid_arg(arg)
        print("%s" % kdata.task_name(t))
        for i in range(desc.GDT_ENTRY_TLS_ENTRIES):
            e = desc.GDT_ENTRY_TLS_MIN + i
            a, b = kdata.tls_desc(t, i)
            print_desc("  tls_array[%d] entry %d sel %#04x" % (i, e, desc.selector(e)),
                       a, b, tls_slot_notes(t, i, a, b))


class SpindleLdt(gdb.Command):
    """Print a task's LDT (modify_ldt), decoded.

Usage: spindle ldt [TID]

TID defaults to the current task. The LDT belongs to the address space
(struct mm: ldt, ldt_entries), so the threads of a process share it;
switch_to, through switch_mm, points GDT entry 15 at it (ldt_load) when
the address space changes. Selectors into the LDT have the TI bit: index * 8 + 4 + 3."""

    def __init__(self):
        super().__init__("spindle ldt", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        t = kdata.tid_arg(arg) if arg.strip() else kdata.current_task()
        print(kdata.task_name(t))
        mm = t["mm"]
        if not int(mm):
            print("  no address space (a kernel thread): no LDT")
            return
        ldt, n = mm["ldt"], int(mm["ldt_entries"])
        if not int(ldt):
            print("  mm %#x has no LDT (modify_ldt was never called)" % int(mm))
            return
        print("  mm %#x: LDT at %#x, %d entries" % (int(mm), int(ldt), n))
        for i in range(n):
            a, b = int(ldt[i]["a"]) & 0xffffffff, int(ldt[i]["b"]) & 0xffffffff
            if a or b:
                print_desc("  %3d sel %#06x" % (i, i * 8 + 7), a, b)


def register():
    SpindleDesc()
    SpindleGdt()
    SpindleTls()
    SpindleLdt()
