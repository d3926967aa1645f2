"""tools/gdb/cmd_sched.py - spindle current, tasks, runq, futex, cache:
the scheduler's view (kernel/sched.c), the task list (/proc/tasks'
source), futex queues (kernel/futex.c) and clone-detached-2.5.31-A1's
per-CPU task cache (kernel/exit.c)."""
import gdb

import kdata
from kdata import SpindleError


class SpindleCurrent(gdb.Command):
    """Print the current task (the kernel's `current`) of a CPU.

Usage: spindle current [CPU]

Without CPU: the selected CPU's task, found as the kernel finds it, from
the thread_info at the bottom of the kernel stack ($esp & ~8191); in
user mode, from the CPU's run queue. With CPU: that CPU's run queue's
curr. The expression $current() gives the same task as a value:
p *$current(), p $current()->comm, p $current(1)->tid; and `p current`
works too (the .gdbinit defines the macro as $current())."""

    def __init__(self):
        super().__init__("spindle current", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cpu = kdata.cpu_arg(arg) if arg.strip() else None
        t = kdata.current_task(cpu)
        c = kdata.selected_cpu() if cpu is None else cpu
        print("cpu%d: %s" % (c, kdata.task_name(t)))
        if int(t):
            print(kdata.TASK_HEADER)
            print(kdata.task_line(t))
        curr = kdata.static("rqs")[c]["curr"]
        if int(curr) != int(t):
            print("(switching: its run queue's curr is already %s)" % kdata.task_name(curr))


class CurrentFunction(gdb.Function):
    """$current([CPU]): the struct task * running on a CPU (spindle current)."""

    def __init__(self):
        super().__init__("current")

    def invoke(self, cpu=None):
        return kdata.current_task(None if cpu is None else int(cpu))


class SpindleTasks(gdb.Command):
    """List every task, as /proc/tasks and ps do.

Usage: spindle tasks

Walks all_tasks (kernel/task.c) and prints, per task: TID, TGID (the
process), PPID, STATE (R running or runnable, S asleep, D asleep and not
interruptible, Z zombie, X dead), CPU (the run queue it is on), EXITSIG
(17 = SIGCHLD; -1: a CLONE_DETACHED thread that reaps itself), COMM and
the base of each of its three TLS descriptors (GDT entries 6, 7, 8)."""

    def __init__(self):
        super().__init__("spindle tasks", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if arg.strip():
            raise SpindleError("usage: spindle tasks (no arguments)")
        print(kdata.TASK_HEADER)
        for t in kdata.tasks():
            print(kdata.task_line(t))


class SpindleRunq(gdb.Command):
    """Print the run queues (kernel/sched.c's struct rq), one per CPU.

Usage: spindle runq [CPU]

For each CPU (or the one given): the task running (curr), the one being
switched away from (prev, during a switch), the idle task, the number of
switches so far, and the runnable tasks waiting, in the order schedule()
will pick them."""

    def __init__(self):
        super().__init__("spindle runq", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cpus = [kdata.cpu_arg(arg)] if arg.strip() else range(kdata.ncpus())
        rqs = kdata.static("rqs")
        for c in cpus:
            rq = rqs[c]
            waiting = list(kdata.list_entries(rq["queue"], "struct task", "run_link"))
            print("cpu%d: curr %s, %d switches, %d queued" % (
                c, kdata.task_name(rq["curr"]), int(rq["switches"]), len(waiting)))
            if int(rq["prev"]):
                print("  prev %s (switching away)" % kdata.task_name(rq["prev"]))
            print("  idle %s" % kdata.task_name(rq["idle"]))
            for i, t in enumerate(waiting):
                print("  %2d %s" % (i, kdata.task_name(t)))


class SpindleFutex(gdb.Command):
    """Print the futex wait queues (kernel/futex.c) and their waiters.

Usage: spindle futex

Every non-empty hash bucket with each waiter: the task, the key (space:
the struct mm for a private word, 0 for a MAP_SHARED page, whose key is
its physical address; addr: the word's address) and whether a WAKE has
already dequeued it."""

    def __init__(self):
        super().__init__("spindle futex", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if arg.strip():
            raise SpindleError("usage: spindle futex (no arguments)")
        buckets = kdata.static("buckets")
        n = buckets.type.range()[1] + 1
        total = 0
        for i in range(n):
            ws = list(kdata.list_entries(buckets[i]["waiters"], "struct futex_waiter", "link"))
            if not ws:
                continue
            print("bucket %d: %d waiter%s" % (i, len(ws), "" if len(ws) == 1 else "s"))
            for w in ws:
                k = w["key"]
                space = int(k["space"])
                print("  %s  key %s addr %#010x%s" % (
                    kdata.task_name(w["task"]),
                    "mm %#x" % space if space else "shared (physical)",
                    int(k["addr"]), "  (woken)" if int(w["woken"]) else ""))
            total += len(ws)
        print("%d waiter%s in %d buckets" % (total, "" if total == 1 else "s", n))


class SpindleCache(gdb.Command):
    """Print the per-CPU task cache of clone-detached-2.5.31-A1.

Usage: spindle cache

A CLONE_DETACHED thread that exits cannot free the stack it runs on: it
parks itself in its CPU's slot (task_cache[cpu], kernel/exit.c) and frees
the task parked there before; clone reuses a parked task. Shows each
CPU's slot and the counters: parked, freed by the next exit, reused by
clone."""

    def __init__(self):
        super().__init__("spindle cache", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if arg.strip():
            raise SpindleError("usage: spindle cache (no arguments)")
        cache = kdata.static("task_cache")
        stats = kdata.static("cache_stats")
        per_cpu = stats.type.strip_typedefs().code == gdb.TYPE_CODE_ARRAY
        total = [0, 0, 0]
        for c in range(kdata.ncpus()):
            t = cache[c]
            line = "cpu%d: %s" % (c, "empty" if not int(t) else
                                  "parked %s" % kdata.task_name(t))
            if per_cpu:
                n = [int(stats[c][f]) for f in ("parked", "freed", "reused")]
                total = [a + b for a, b in zip(total, n)]
                line += "  (parked %d, freed %d, reused %d)" % tuple(n)
            print(line)
        if not per_cpu:
            total = [int(stats[f]) for f in ("parked", "freed", "reused")]
        print("parked %d, freed %d, reused %d" % tuple(total))


def register():
    SpindleCurrent()
    CurrentFunction()
    SpindleTasks()
    SpindleRunq()
    SpindleFutex()
    SpindleCache()
