"""tools/gdb/kdata.py - reading Spindle's kernel structures from GDB: the
per-CPU data, the task list, the thread_info at the bottom of a kernel
stack. Shared by the spindle commands; every name here is the kernel's
(kernel/task.h, arch/i386/cpu.h, kernel/sched.c, kernel/exit.c)."""
import gdb

import desc

KSTACK_SIZE = 8192          # arch/i386/mmu.h: 8 KiB, 8 KiB aligned
THREAD_INFO_MAGIC = 0x5350494e
STATE_LETTERS = {0: "R", 1: "S", 2: "D", 3: "Z"}     # as /proc/tasks prints


class SpindleError(gdb.GdbError):
    """An error the user caused (bad argument, no such task): printed
    without a Python traceback."""


def value(expr):
    return gdb.parse_and_eval(expr)


def static(name):
    """A file-static variable of the kernel (rqs, task_cache, buckets)."""
    sym = gdb.lookup_static_symbol(name)
    if sym is None:
        raise SpindleError("no symbol %s: is build/debug/kernel.elf loaded?" % name)
    return sym.value()


def offset_of(type_name, field):
    for f in gdb.lookup_type(type_name).fields():
        if f.name == field:
            return f.bitpos // 8
    raise SpindleError("%s has no field %s" % (type_name, field))


def list_entries(head, type_name, member):
    """The elements of an intrusive struct list (lib/list.h): head is a
    struct list value, each element a type_name * (container_of)."""
    ptr_t = gdb.lookup_type(type_name).pointer()
    off = offset_of(type_name, member)
    head_addr = int(head.address)
    node = head["next"]
    seen = 0
    while int(node) != head_addr:
        yield gdb.Value(int(node) - off).cast(ptr_t)
        node = node["next"]
        seen += 1
        if seen > 1000000:
            raise SpindleError("list at %#x does not come back to its head" % head_addr)


def cstr(arr):
    """A char[N] as a Python string, up to its NUL."""
    n = arr.type.sizeof
    raw = bytes(int(arr[i]) & 0xff for i in range(n))
    return raw.split(b"\0", 1)[0].decode("ascii", "replace")


def ncpus():
    return int(value("ncpus"))


def cpu_arg(arg):
    """A CPU number from the user, checked against ncpus."""
    try:
        c = int(value(arg))
    except gdb.error as e:
        raise SpindleError("CPU: %s" % e)
    if not 0 <= c < ncpus():
        raise SpindleError("CPU %d: this machine has CPUs 0..%d" % (c, ncpus() - 1))
    return c


def tasks():
    """Every task, in all_tasks order (what /proc/tasks lists)."""
    return list(list_entries(value("all_tasks"), "struct task", "all_link"))


def task_by_tid(tid):
    for t in tasks():
        if int(t["tid"]) == tid:
            return t
    raise SpindleError("no task with tid %d (spindle tasks lists them)" % tid)


def tid_arg(arg):
    try:
        return task_by_tid(int(value(arg)))
    except gdb.error as e:
        raise SpindleError("TID: %s" % e)


def stack_thread_info():
    """The thread_info at the bottom of the kernel stack the selected CPU
    is on ($esp & ~8191, cast), or None if it is not on a kernel stack
    (user mode, or before the boot stack is set up)."""
    esp = int(value("$esp")) & 0xffffffff
    if int(value("$cs")) & 3:
        return None
    ti = gdb.Value(esp & ~(KSTACK_SIZE - 1)).cast(
        gdb.lookup_type("struct thread_info").pointer())
    try:
        if int(ti["magic"]) != THREAD_INFO_MAGIC:
            return None
    except gdb.MemoryError:
        return None
    return ti


def selected_cpu():
    """The CPU GDB has selected: QEMU shows each CPU as a thread, thread
    N being CPU N-1. The thread_info on its stack says the same, when it
    is on a kernel stack."""
    ti = stack_thread_info()
    if ti is not None:
        return int(ti["cpu"])
    th = gdb.selected_thread()
    return th.num - 1 if th else 0


def current_task(cpu=None):
    """The task running on a CPU. For the selected CPU in kernel mode,
    the thread_info on its stack (the macro current); otherwise its run
    queue's curr (during switch_to, curr is already next)."""
    if cpu is None:
        ti = stack_thread_info()
        if ti is not None:
            return ti["task"]
        cpu = selected_cpu()
    return static("rqs")[cpu]["curr"]


def tls_desc(t, i):
    d = t["thread"]["tls_array"][i]
    return int(d["a"]) & 0xffffffff, int(d["b"]) & 0xffffffff


def gdt_desc(cpu, entry):
    d = value("cpus")[cpu]["gdt"][entry]
    return int(d["a"]) & 0xffffffff, int(d["b"]) & 0xffffffff


def task_line(t):
    bases = " ".join("%#010x" % desc.base(*tls_desc(t, i))
                     for i in range(desc.GDT_ENTRY_TLS_ENTRIES))
    parent = t["parent"]
    ppid = int(parent["tgid"]) if int(parent) else 0
    return "%4d %4d %4d %-5s %3d %7d %-15s %s" % (
        int(t["tid"]), int(t["tgid"]), ppid, STATE_LETTERS.get(int(t["state"]), "X"),
        int(t["cpu"]), int(t["exit_signal"]), cstr(t["comm"]), bases)


TASK_HEADER = " TID TGID PPID STATE CPU EXITSIG COMM            TLS6       TLS7       TLS8"


def task_name(t):
    if not int(t):
        return "(none)"
    return "%s (tid %d, task %#x)" % (cstr(t["comm"]), int(t["tid"]), int(t))
