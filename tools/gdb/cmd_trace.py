"""tools/gdb/cmd_trace.py - `spindle trace`: the scheduler tracer's rings
(kernel/trace.c, docs/tracing.md) read from GDB, decoded as
`tools/trace2json.py --list` decodes the console dump (its event_args)."""
import os
import sys

import gdb

import kdata
from kdata import SpindleError

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)
import trace2json  # noqa: E402  (tools/trace2json.py)


def kinds():
    """enum trace_type's values -> the kind names of trace2json (TR_SWITCH
    -> switch)."""
    out = {}
    for f in gdb.lookup_type("enum trace_type").fields():
        if f.name != "TR_NTYPES":
            out[int(f.enumval)] = f.name[len("TR_"):].lower()
    return out


class SpindleTrace(gdb.Command):
    """Print the last events of the scheduler tracer's rings.

Usage: spindle trace [N]

The kernel records events only when booted with `trace` (make qemu-gdb
APPEND="trace ..."): each CPU into its own ring (rings[cpu] in
kernel/trace.c). This prints the last N (default 10) of all CPUs, oldest
first, as `tools/trace2json.py --list` does: microseconds since the first
event, the CPU, the kind and its fields (docs/tracing.md lists them)."""

    def __init__(self):
        super().__init__("spindle trace", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        words = arg.split()
        if len(words) > 1 or (words and not words[0].isdigit()):
            raise SpindleError("usage: spindle trace [N] (the last N events, default 10)")
        n = int(words[0]) if words else 10
        try:
            self.show(n)
        except gdb.MemoryError as e:
            raise SpindleError("cannot read the rings (%s): is paging on yet? "
                               "(break kmain, continue)" % e)

    def show(self, n):
        rings = kdata.static("rings")
        cpus = range(kdata.ncpus())
        if not any(int(rings[c]["buf"]) for c in cpus):
            print("tracing is off: boot with `trace` on the command line "
                  "(make qemu-gdb APPEND=\"trace ...\")")
            return
        names = kinds()
        hz = int(kdata.static("tsc_hz")) or 1
        # The first event of all (time 0, as in --list), then the last n
        # of each CPU: the last n of all are among them.
        firsts, events = [], []
        for cpu in cpus:
            r = rings[cpu]
            head = int(r["head"])
            if not int(r["buf"]) or not head:
                continue
            firsts.append(int(r["buf"][0]["ts"]))
            for i in range(max(0, head - n), head):
                ev = r["buf"][i]
                events.append((int(ev["ts"]), cpu, i, names.get(int(ev["type"]), "?"),
                               int(ev["aux"]), [int(ev["arg"][j]) & 0xffffffff
                                                for j in range(5)]))
        total = sum(int(rings[c]["head"]) for c in cpus)
        dropped = sum(int(rings[c]["dropped"]) for c in cpus)
        events.sort()
        events = events[-n:] if n else []
        t0 = min(firsts) if firsts else 0
        print("%d events, %d dropped; the last %d:" % (total, dropped, len(events)))
        for ts, cpu, _, kind, aux, a in events:
            when = "%12.3f cpu%d" % ((ts - t0) * 1e6 / hz, cpu)
            if kind == "?":
                print(when + " unknown event")
                continue
            args = trace2json.event_args(kind, aux, a)
            if kind == "switch":
                args["tls"] = ",".join(t or "-" for t in args["tls"])
            print("%s %-10s %s" % (when, kind, " ".join("%s=%s" % kv for kv in args.items())))


def register():
    SpindleTrace()
