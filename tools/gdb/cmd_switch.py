"""tools/gdb/cmd_switch.py - spindle break-switch: stop in switch_to
(arch/i386/process.c) just before load_TLS and just after it, and show
GDT slot 6 both times: the seed's TLS switch, seen happening."""
import gdb

import desc
import kdata
from kdata import SpindleError

SLOT = desc.GDT_ENTRY_TLS_MIN

# The breakpoints of the last `spindle break-switch`, and per CPU the
# switch (prev, next) whose "before" stop was taken, so that the "after"
# one is taken too.
_breakpoints = []
_armed = {}


def hex64(a, b):
    return "%08x%08x" % (b, a)


def in_load_tls(pc):
    """Whether the instruction at pc belongs to load_TLS inlined."""
    b = gdb.block_for_pc(pc)
    while b is not None and not b.is_global:
        if b.function is not None and b.function.name == "load_TLS":
            return True
        b = b.superblock
    return False


def load_tls_range():
    """(first instruction of load_TLS inlined in switch_to, first one
    after it), found from the debug information's inline blocks, not
    written down: addresses and lines move when the code is edited."""
    sym = gdb.lookup_global_symbol("switch_to")
    if sym is None:
        raise SpindleError("no symbol switch_to: is the kernel's ELF loaded?")
    start = int(sym.value().address)
    block = gdb.block_for_pc(start)
    while block.function is None or block.function.name != "switch_to":
        block = block.superblock
    # Read the code from the ELF file: before the kernel has paged itself
    # to 0xc0000000 (QEMU stopped at reset) the target cannot show it.
    trust = gdb.parameter("trust-readonly-sections")
    gdb.execute("set trust-readonly-sections on")
    try:
        insns = gdb.selected_inferior().architecture().disassemble(start, block.end - 1)
    finally:
        gdb.execute("set trust-readonly-sections %s" % ("on" if trust else "off"))
    inside = [i for i, insn in enumerate(insns) if in_load_tls(insn["addr"])]
    if not inside:
        raise SpindleError("switch_to has no inlined load_TLS in the debug information")
    last = inside[-1]
    if last + 1 >= len(insns):
        raise SpindleError("load_TLS ends switch_to: nowhere to stop after it")
    return insns[inside[0]]["addr"], insns[last + 1]["addr"]


def switching():
    """(cpu, prev, next) for the CPU that hit the breakpoint: schedule()
    has set its run queue's prev and curr before calling switch_to, and
    we are still on prev's stack, whose thread_info names the CPU."""
    ti = kdata.stack_thread_info()
    if ti is None:
        raise SpindleError("not on a kernel stack")
    cpu = int(ti["cpu"])
    rq = kdata.static("rqs")[cpu]
    return cpu, rq["prev"], rq["curr"]


def show_slot(cpu, what):
    a, b = kdata.gdt_desc(cpu, SLOT)
    print("  %-20s %s  %s" % (what, hex64(a, b), desc.describe(a, b)))
    return a, b


class SwitchBreakpoint(gdb.Breakpoint):
    def __init__(self, spec, after, tls_differs):
        super().__init__(spec)
        self.after, self.tls_differs = after, tls_differs

    def stop(self):
        try:
            cpu, prev, nxt = switching()
            switch = (int(prev), int(nxt))
            if not self.after:
                # The same switch met again before its "after" stop: GDB
                # stepped off this breakpoint and QEMU reported the step
                # without running the instruction (seen on a loaded host),
                # so GDB came back here. It is not a new switch: go on.
                if _armed.get(cpu) == switch:
                    return False
                # Another CPU is between its two stops: `continue` resumed
                # every CPU, and this one reached the breakpoint first.
                # Pass its switch over, so that `continue` goes from a
                # "before" stop to the "after" stop of the same switch
                # (a CPU gets through load_TLS's three copies in a few
                # instructions, so it reaches "after" soon).
                if any(c != cpu for c in _armed):
                    return False
                p6, n6 = kdata.tls_desc(prev, 0), kdata.tls_desc(nxt, 0)
                if self.tls_differs and (p6 == n6 or p6 == (0, 0) or n6 == (0, 0)):
                    _armed.pop(cpu, None)
                    return False
                _armed[cpu] = switch
                print("spindle break-switch: cpu%d before load_TLS: %s -> %s" % (
                    cpu, kdata.task_name(prev), kdata.task_name(nxt)))
                show_slot(cpu, "slot 6 (sel 0x33):")
                for who, t in (("prev", prev), ("next", nxt)):
                    a, b = kdata.tls_desc(t, 0)
                    print("  %-20s %s  %s" % (who + " tls_array[0]:", hex64(a, b),
                                              desc.describe(a, b)))
                print("  (slot 6 may differ from prev's tls_array[0] in the Accessed "
                      "bit alone: the CPU sets it in the GDT when %gs is loaded)")
                return True
            if _armed.pop(cpu, None) != switch:
                return False
            print("spindle break-switch: cpu%d after load_TLS: %s -> %s" % (
                cpu, kdata.task_name(prev), kdata.task_name(nxt)))
            a, b = show_slot(cpu, "slot 6 (sel 0x33):")
            if (a, b) != (0, 0):
                base = desc.base(a, b)
                try:
                    word = int.from_bytes(gdb.selected_inferior().read_memory(base, 4).tobytes(),
                                          "little")
                    print("  %-20s %#010x (%s)" % ("at the base:", word,
                          "next's TCB self-pointer: its thread pointer" if word == base
                          else "not a self-pointer"))
                except gdb.MemoryError:
                    print("  %-20s not mapped yet (next's address space is loaded after "
                          "load_TLS)" % "at the base:")
            return True
        except (gdb.error, SpindleError) as e:
            print("spindle break-switch: %s" % e)
            return True


class SpindleBreakSwitch(gdb.Command):
    """Stop in switch_to before and after load_TLS, showing GDT slot 6.

Usage: spindle break-switch [--tls-differs]
       spindle break-switch --delete

Sets two breakpoints in switch_to (arch/i386/process.c): on the first
instruction of load_TLS (inlined there: three 8-byte copies into GDT
entries 6, 7, 8) and on the first instruction after it. At the first, it prints
who is switching (prev -> next), the CPU's GDT slot 6 (selector 0x33) as
it is (still prev's descriptor), and prev's and next's tls_array[0]. At
the second, slot 6 again (now next's) and the word at its base (next's
TCB self-pointer, i.e. its thread pointer). `continue` goes from one to
the other and on to the next switch. With several CPUs, `continue`
resumes them all; while one CPU is between its two stops, the others'
switches are passed over, so the "after" stop is always that CPU's.

--tls-differs stops only at switches between two tasks whose slot-6
descriptors are both set and differ: two threads of tls-demo, say, not
the idle task. --delete removes the two breakpoints."""

    def __init__(self):
        super().__init__("spindle break-switch", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        args = arg.split()
        bad = [a for a in args if a not in ("--tls-differs", "--delete")]
        if bad:
            raise SpindleError("unknown argument %s (help spindle break-switch)" % bad[0])
        for b in _breakpoints:
            if b.is_valid():
                b.delete()
        _breakpoints.clear()
        _armed.clear()
        if "--delete" in args:
            print("spindle break-switch: breakpoints deleted")
            return
        before, after = load_tls_range()
        differs = "--tls-differs" in args
        _breakpoints.append(SwitchBreakpoint("*%#x" % before, False, differs))
        _breakpoints.append(SwitchBreakpoint("*%#x" % after, True, differs))
        print("spindle break-switch: stops in switch_to at %#x (load_TLS) and %#x "
              "(after it)%s" % (before, after,
                                ", only between tasks whose slot 6 differs" if differs else ""))


def register():
    SpindleBreakSwitch()
