"""tools/gdb/spindle.py - Spindle's GDB commands. The .gdbinit that
`make qemu-gdb` writes sources this file; `help spindle` lists them.

Each command is a gdb.Command named "spindle NAME" whose docstring is its
help text, in a module of this directory that has a register() function;
MODULES lists the modules; a new command goes in a module of its own,
added to MODULES."""
import os
import sys

import gdb

sys.dont_write_bytecode = True      # no __pycache__ in the tree

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

MODULES = ["cmd_segments", "cmd_sched", "cmd_switch", "cmd_fpu", "cmd_trace"]


class Spindle(gdb.Command):
    """Spindle's kernel commands: decoded descriptors, tasks, the switch.

  spindle desc EXPR|N        one descriptor decoded (N: GDT entry N)
  spindle gdt [CPU]          a CPU's GDT, decoded, with the seed's names
  spindle current [CPU]      the task running on a CPU ($current() too)
  spindle tasks              every task, as /proc/tasks and ps list them
  spindle tls TID            a task's three TLS slots and its TCB
  spindle ldt [TID]          a task's LDT (modify_ldt)
  spindle runq [CPU]         the run queues
  spindle futex              futex wait queues and waiters
  spindle cache              the per-CPU task cache and its counters
  spindle fpu TID            a task's x87/SSE state, decoded
  spindle trace [N]          the last N events of the tracer's rings
  spindle break-switch [--tls-differs]
                             stop in switch_to around load_TLS

`help spindle NAME` explains each one (docs/debugging.md shows them in use)."""

    def __init__(self):
        super().__init__("spindle", gdb.COMMAND_USER, prefix=True)


Spindle()
for _name in MODULES:
    __import__(_name).register()
