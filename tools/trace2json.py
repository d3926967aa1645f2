#!/usr/bin/env python3
"""tools/trace2json.py LOG [JSON [SVG]] - a `trace` boot's console log to a
Chrome trace-event file and an SVG timeline (docs/tracing.md).
tools/trace2json.py --list LOG - the events as text, one a line, in time
order: microseconds, CPU, kind, fields.

The kernel (kernel/trace.c, trace_dump) prints its per-CPU event rings
when init exits, between the lines

    --- trace begin: v1 cpus N tsc_hz HZ ring EVENTS ---
    CPU TS LETTER AUX A B C D E        (all in hex but CPU)
    D CPU DROPPED                      (one a CPU: events lost to a full ring)
    --- trace end: events N dropped N ---

This reads them and writes:
  - JSON (default build/trace.json): the JSON object form of the Chrome
    trace-event format, which Perfetto (ui.perfetto.dev) and
    chrome://tracing open. One process, "Spindle"; one track a CPU (tid =
    CPU number, named by "M" thread_name events); an "X" box for each run
    of a task between two switches; an "i" mark for every other event;
    a flow arrow ("s" to "f") from each clone to the child's first run.
    otherData has the totals: events, dropped, and a count by kind.
  - SVG (default build/trace.svg): one lane a CPU, a box a task run
    (coloured by thread id, the idle task left blank), a mark per event,
    a legend; open it in a browser (hover a box or a mark for its text).

It prints one summary line, and exits 1 if the log has no complete trace.
"""
import json
import os
import re
import sys
from xml.sax.saxutils import escape

# kernel/trace_events.h enum trace_type, by the letter the dump prints.
KINDS = {
    "S": "switch", "C": "clone", "X": "exit", "P": "park", "F": "free",
    "R": "reuse", "W": "futex_wait", "K": "futex_wake", "M": "migrate",
    "I": "ipi_send", "J": "ipi_recv",
}
# lib/abi.h: the seed's clone bits, which a clone event carries (a Linux
# program's flags translated into them: kernel/clone_flags.h).
CLONE_BITS = [(0x100, "VM"), (0x200, "FS"), (0x400, "FILES"), (0x800, "SIGHAND"),
              (0x10000, "THREAD"), (0x80000, "SETTLS"), (0x100000, "SETTID"),
              (0x200000, "DETACHED"), (0x400000, "RELEASE_VM")]
# arch/i386/lapic.h: the IPI vectors.
VECTORS = {0xFC: "reschedule", 0xFD: "tlb", 0xFE: "stop"}
# The SVG's mark colours, one a kind (switches are the boxes themselves).
MARK_COLOURS = {
    "clone": "#1f77b4", "exit": "#d62728", "park": "#9467bd", "free": "#8c564b",
    "reuse": "#2ca02c", "futex_wait": "#e377c2", "futex_wake": "#ff7f0e",
    "migrate": "#17becf", "ipi_send": "#7f7f7f", "ipi_recv": "#bcbd22",
}

BEGIN = re.compile(r"^--- trace begin: v1 cpus (\d+) tsc_hz (\d+) ring (\d+) ---$")
END = re.compile(r"^--- trace end: events (\d+) dropped (\d+) ---$")
EVENT = re.compile(r"^(\d+) ([0-9a-f]+) ([A-Z]) ([0-9a-f]+)((?: [0-9a-f]+){5})$")
DROPS = re.compile(r"^D (\d+) (\d+)$")


class TraceError(Exception):
    pass


def parse(text):
    """The dump in text: a dict with cpus, tsc_hz, ring, events (a list of
    (cpu, ts, kind, aux, args)), dropped (by CPU) and the end line's totals.
    Console lines that are not the tracer's (another CPU printing) are
    skipped."""
    head = None
    out = {"events": [], "dropped": {}}
    for line in text.replace("\r", "").split("\n"):
        if head is None:
            m = BEGIN.match(line)
            if m:
                head = m
                out.update(cpus=int(m.group(1)), tsc_hz=int(m.group(2)),
                           ring=int(m.group(3)))
            continue
        m = EVENT.match(line)
        if m:
            args = [int(x, 16) for x in m.group(5).split()]
            out["events"].append((int(m.group(1)), int(m.group(2), 16),
                                  KINDS[m.group(3)], int(m.group(4), 16), args))
            continue
        m = DROPS.match(line)
        if m:
            out["dropped"][int(m.group(1))] = int(m.group(2))
            continue
        m = END.match(line)
        if m:
            out["total"] = int(m.group(1))
            out["total_dropped"] = int(m.group(2))
            if out["total"] != len(out["events"]):
                raise TraceError("the end line says %d events, %d were read"
                                 % (out["total"], len(out["events"])))
            return out
    raise TraceError("no trace in the log" if head is None else
                     "the trace has no end line (the run stopped while dumping?)")


def s32(v):
    return v - (1 << 32) if v & 0x80000000 else v


def event_args(kind, aux, a):
    """The named fields of one event (docs/tracing.md lists them)."""
    if kind == "switch":
        return {"prev": s32(a[0]), "next": s32(a[1]),
                "tls": ["0x%08x" % a[2 + i] if aux & (1 << i) else None for i in range(3)]}
    if kind == "clone":
        return {"parent": s32(a[0]), "child": s32(a[1]), "tgid": s32(a[4]),
                "flags": "|".join(n for bit, n in CLONE_BITS if a[2] & bit),
                "task": "0x%08x" % a[3]}
    if kind == "exit":
        return {"tid": s32(a[0]), "tgid": s32(a[1]), "status": s32(a[2]),
                "self_reap": bool(a[3])}
    if kind == "park":
        return {"tid": s32(a[0]), "task": "0x%08x" % a[1]}
    if kind in ("free", "reuse"):
        return {"task": "0x%08x" % a[0]}
    if kind == "futex_wait":
        return {"tid": s32(a[0]), "uaddr": "0x%08x" % a[1]}
    if kind == "futex_wake":
        return {"tid": s32(a[0]), "uaddr": "0x%08x" % a[1], "woken": s32(a[2])}
    if kind == "migrate":
        return {"tid": s32(a[0]), "from": a[1], "to": a[2]}
    if kind == "ipi_send":
        return {"to": a[0], "vector": VECTORS.get(a[1], "0x%x" % a[1])}
    if kind == "ipi_recv":
        return {"vector": VECTORS.get(a[0], "0x%x" % a[0])}
    raise TraceError("unknown kind " + kind)


def task_name(tid):
    return "idle" if tid == 0 else "tid %d" % tid


def build(tr):
    """(the JSON object, the runs and marks the SVG draws)."""
    evs = tr["events"]
    t0 = min((e[1] for e in evs), default=0)
    t_end = max((e[1] for e in evs), default=0)
    hz = tr["tsc_hz"] or 1

    def us(ts):
        return round((ts - t0) * 1e6 / hz, 3)

    counts = {k: 0 for k in KINDS.values()}
    per_cpu = {}
    for e in evs:
        per_cpu.setdefault(e[0], []).append(e)
        counts[e[2]] += 1
    cpus = max(tr["cpus"], max(per_cpu, default=-1) + 1)
    trace_events = [{"ph": "M", "name": "process_name", "pid": 0, "tid": 0,
                     "args": {"name": "Spindle (%d CPUs)" % cpus}}]
    runs, marks, tracks = [], [], {}
    for cpu in range(cpus):
        trace_events.append({"ph": "M", "name": "thread_name", "pid": 0, "tid": cpu,
                             "args": {"name": "cpu%d" % cpu}})
        trace_events.append({"ph": "M", "name": "thread_sort_index", "pid": 0,
                             "tid": cpu, "args": {"sort_index": cpu}})
        track = tracks[cpu] = []
        running = None          # (tid, start ts, switch args)
        for (_, ts, kind, aux, a) in per_cpu.get(cpu, []):
            args = event_args(kind, aux, a)
            if kind == "switch":
                if running:
                    runs.append((cpu,) + running + (ts,))
                running = (args["next"], ts, args)
            else:
                track.append({"ph": "i", "s": "t", "name": kind, "cat": "spindle",
                              "pid": 0, "tid": cpu, "ts": us(ts), "args": args})
                marks.append((cpu, ts, kind, args))
        if running:
            runs.append((cpu,) + running + (t_end,))
    for (cpu, tid, start, args, end) in runs:
        if tid != 0:
            tracks[cpu].append({"ph": "X", "name": task_name(tid), "cat": "run",
                                "pid": 0, "tid": cpu, "ts": us(start),
                                "dur": round(us(end) - us(start), 3),
                                "args": {"tid": tid, "prev": args["prev"], "tls": args["tls"]}})
    # A flow arrow from each clone to its child's first run, which may be
    # on another CPU: id = the child's tid (unique within one trace unless
    # tids wrap, which 32,767 clones would need).
    first_run = {}
    for (cpu, tid, start, _, _) in sorted(runs, key=lambda r: r[2]):
        first_run.setdefault(tid, (cpu, start))
    for (cpu, ts, kind, args) in marks:
        if kind == "clone" and args["child"] in first_run and first_run[args["child"]][1] >= ts:
            rcpu, rts = first_run[args["child"]]
            tracks[cpu].append({"ph": "s", "id": args["child"], "name": "clone", "cat": "flow",
                                "pid": 0, "tid": cpu, "ts": us(ts)})
            tracks[rcpu].append({"ph": "f", "bp": "e", "id": args["child"], "name": "clone",
                                 "cat": "flow", "pid": 0, "tid": rcpu, "ts": us(rts)})
    for cpu in range(cpus):
        # Sorted by time on each track (the file's order is the viewer's).
        tracks[cpu].sort(key=lambda ev: ev["ts"])
        trace_events.extend(tracks[cpu])
    obj = {
        "traceEvents": trace_events,
        "displayTimeUnit": "ns",
        "otherData": {
            "source": "Spindle kernel/trace.c (docs/tracing.md)",
            "cpus": cpus, "tsc_hz": hz, "ring_events": tr["ring"],
            "events": len(evs), "dropped": tr["total_dropped"],
            "dropped_by_cpu": {str(c): n for c, n in sorted(tr["dropped"].items())},
            "counts": counts,
        },
    }
    return obj, runs, marks, (t0, t_end, hz, cpus)


def colour(tid):
    """A stable colour for a thread id (golden-angle hue steps)."""
    return "hsl(%d,60%%,70%%)" % ((tid * 137) % 360)


def svg(runs, marks, span, counts, dropped):
    t0, t_end, hz, cpus = span
    left, width, lane, top = 70, 1400, 44, 40
    legend_h = 24 * ((len(MARK_COLOURS) + 4) // 5) + 10
    height = top + lane * cpus + 54 + legend_h
    length = max(t_end - t0, 1)

    def x(ts):
        return left + (ts - t0) * width / length

    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (left + width + 20, height),
           '<title>Spindle scheduler trace</title>',
           '<text x="%d" y="20" font-size="14">Spindle scheduler trace: %d CPUs, %.1f ms, '
           '%d events, %d dropped (hover a box or a mark)</text>'
           % (left, cpus, (t_end - t0) * 1e3 / hz, sum(counts.values()), dropped)]
    for cpu in range(cpus):
        y = top + cpu * lane
        out.append('<text x="8" y="%d">cpu%d</text>' % (y + lane // 2 + 4, cpu))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#f4f4f4" stroke="#ccc"/>'
                   % (left, y, width, lane - 8))
    for (cpu, tid, start, args, end) in runs:
        if tid == 0:
            continue
        y = top + cpu * lane
        w = max(x(end) - x(start), 0.5)
        tip = "%s on cpu%d, %.1f us; tls %s" % (task_name(tid), cpu, (end - start) * 1e6 / hz,
                                              ", ".join(t or "-" for t in args["tls"]))
        out.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s">'
                   '<title>%s</title></rect>' % (x(start), y + 10, w, lane - 18,
                                                 colour(tid), escape(tip)))
    for (cpu, ts, kind, args) in marks:
        y = top + cpu * lane
        tip = "%s on cpu%d at %.1f us: %s" % (kind, cpu, (ts - t0) * 1e6 / hz,
                                              json.dumps(args, sort_keys=True))
        # Three rows of marks above the boxes, so kinds at one moment
        # stay apart.
        row = list(MARK_COLOURS).index(kind) % 3
        out.append('<rect x="%.2f" y="%d" width="1.5" height="3" fill="%s">'
                   '<title>%s</title></rect>' % (x(ts), y + 1 + 3 * row, MARK_COLOURS[kind],
                                                escape(tip)))
    # A time axis under the lanes: microseconds since the first event.
    y = top + cpus * lane
    for i in range(6):
        ts = t0 + length * i // 5
        out.append('<line x1="%.2f" y1="%d" x2="%.2f" y2="%d" stroke="#888"/>'
                   % (x(ts), y - 4, x(ts), y + 2))
        out.append('<text x="%.2f" y="%d" text-anchor="middle" font-size="10">%.1f us</text>'
                   % (x(ts), y + 13, (ts - t0) * 1e6 / hz))
    y += 34
    out.append('<text x="%d" y="%d">Boxes: a task running (colour by thread id; blank: '
               'the idle task). Marks, above the boxes:</text>' % (left, y))
    for i, (kind, c) in enumerate(MARK_COLOURS.items()):
        lx, ly = left + (i % 5) * 200, y + 14 + 24 * (i // 5)
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/>' % (lx, ly, c))
        out.append('<text x="%d" y="%d">%s (%d)</text>' % (lx + 14, ly + 10, kind, counts[kind]))
    out.append('</svg>')
    return "\n".join(out) + "\n"


def listing(tr):
    """The events as text lines, in time order (a CPU's own order kept)."""
    evs = sorted(enumerate(tr["events"]), key=lambda ie: (ie[1][1], ie[0]))
    t0 = evs[0][1][1] if evs else 0
    hz = tr["tsc_hz"] or 1
    out = []
    for _, (cpu, ts, kind, aux, a) in evs:
        args = event_args(kind, aux, a)
        if kind == "switch":
            args["tls"] = ",".join(t or "-" for t in args["tls"])
        out.append("%12.3f cpu%d %-10s %s" % ((ts - t0) * 1e6 / hz, cpu, kind,
                                             " ".join("%s=%s" % kv for kv in args.items())))
    return out


def main(argv):
    if len(argv) == 3 and argv[1] == "--list":
        try:
            with open(argv[2], encoding="utf-8", errors="replace") as f:
                tr = parse(f.read())
        except (OSError, TraceError) as e:
            sys.stderr.write("trace2json: %s: %s\n" % (argv[2], e))
            return 1
        print("\n".join(listing(tr)))
        return 0
    if len(argv) < 2 or len(argv) > 4 or argv[1].startswith("-"):
        sys.stderr.write("usage: tools/trace2json.py LOG [JSON [SVG]]\n"
                         "       tools/trace2json.py --list LOG\n")
        return 2
    log = argv[1]
    out_json = argv[2] if len(argv) > 2 else "build/trace.json"
    out_svg = argv[3] if len(argv) > 3 else os.path.splitext(out_json)[0] + ".svg"
    with open(log, encoding="utf-8", errors="replace") as f:
        text = f.read()
    try:
        tr = parse(text)
    except TraceError as e:
        sys.stderr.write("trace2json: %s: %s\n" % (log, e))
        return 1
    obj, runs, marks, span = build(tr)
    with open(out_json, "w") as f:
        json.dump(obj, f, separators=(",", ":"))
    counts = obj["otherData"]["counts"]
    with open(out_svg, "w") as f:
        f.write(svg(runs, marks, span, counts, tr["total_dropped"]))
    print("trace: %d events, %d dropped%s; %s -> %s, %s" % (
        len(tr["events"]), tr["total_dropped"],
        " (A RING WAS FULL: the trace misses its last events)" if tr["total_dropped"] else "",
        " ".join("%s %d" % kv for kv in counts.items()), out_json, out_svg))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
