"""tests/trace_check.py - make check's trace/ group (docs/tracing.md).

  trace/start_detached.*   what `make trace` does: /bin/start-detached 1000
                           booted with `trace` at -smp 4 under -icount,
                           its dump turned by tools/trace2json.py into
                           JSON and SVG (build/trace-test.json, .svg), then
      .format              the JSON checked against the Chrome trace-event
                           format (chrome_problems below)
      .counts              the events match the program: 1,000 clones of
                           detached RELEASE_VM threads, 1,000 exits of them,
                           1,000 parks (or fewer by the threads still
                           between exit and park when init exited),
                           and every parked task freed, reused
                           or still parked at the end; nothing dropped
      .svg                 the SVG is well-formed XML with a lane a CPU
  trace/overflow_reported  start-detached 3000 at -smp 1 overfills cpu0's
                           ring: the dump, the JSON and the summary line
                           say how many events were dropped
  trace/checker_rejects    chrome_problems finds each fault planted in a
                           good trace (so .format can fail)
  trace/t_trace_on         /tests/t_trace on, booted with `trace`: the
                           hooks record (smpN/t_trace, without the word,
                           checks that they record nothing)
"""
import copy
import json
import os
import sys
import xml.dom.minidom

from machine import BUILD, ICOUNT, ROOT, qemu_code, qemu_kernel_cmd, run_qemu

sys.path.insert(0, os.path.join(ROOT, "tools"))
import trace2json  # noqa: E402  (tools/trace2json.py)

NTHREADS = 1000
# What /bin/start-detached asks for, as tools/trace2json.py names the bits.
START_DETACHED_FLAGS = {"VM", "FS", "FILES", "SIGHAND", "THREAD", "DETACHED", "RELEASE_VM"}

PHASES = {"B", "E", "X", "i", "I", "M", "C", "b", "e", "n", "s", "t", "f", "P", "O", "N", "D"}


def chrome_problems(obj):
    """What is wrong with obj as a Chrome trace-event file in its JSON
    object form (the "Trace Event Format" document): a list, empty if
    nothing. Checks the keys and types every event needs, the phases,
    "dur" on X events and "s" on instants, nondecreasing ts on each track
    (pid, tid) in file order, B/E pairs matching on each track, and each
    flow's end ("f") after a start ("s") of the same id."""
    bad = []
    if not isinstance(obj, dict) or not isinstance(obj.get("traceEvents"), list):
        return ["not an object with a traceEvents array"]
    last, open_b, flows = {}, {}, set()
    for i, ev in enumerate(obj["traceEvents"]):
        where = "event %d" % i
        if not isinstance(ev, dict):
            bad.append(where + ": not an object")
            continue
        ph = ev.get("ph")
        if ph not in PHASES:
            bad.append("%s: ph %r is not a phase" % (where, ph))
            continue
        for key, types in (("name", str), ("pid", int), ("tid", int)):
            if not isinstance(ev.get(key), types) or isinstance(ev.get(key), bool):
                bad.append("%s: %s missing or not %s" % (where, key, types.__name__))
        if "args" in ev and not isinstance(ev["args"], dict):
            bad.append(where + ": args is not an object")
        if ph == "M":
            if not isinstance(ev.get("args"), dict):
                bad.append(where + ": a metadata event without args")
            continue
        ts = ev.get("ts")
        if not isinstance(ts, (int, float)) or isinstance(ts, bool) or ts < 0:
            bad.append("%s: ts %r is not a time in microseconds" % (where, ts))
            continue
        track = (ev.get("pid"), ev.get("tid"))
        if track in last and ts < last[track]:
            bad.append("%s: ts %s before %s on track %s" % (where, ts, last[track], track))
        last[track] = ts
        if ph == "X":
            dur = ev.get("dur")
            if not isinstance(dur, (int, float)) or isinstance(dur, bool) or dur < 0:
                bad.append("%s: an X event with dur %r" % (where, dur))
        if ph in ("i", "I") and ev.get("s", "t") not in ("g", "p", "t"):
            bad.append("%s: instant scope %r" % (where, ev.get("s")))
        if ph in ("s", "f") and not isinstance(ev.get("id"), (int, str)):
            bad.append("%s: a flow event without an id" % where)
        if ph == "s":
            flows.add(ev.get("id"))
        if ph == "f" and ev.get("id") not in flows:
            bad.append("%s: flow %r ends before it starts" % (where, ev.get("id")))
        if ph == "B":
            open_b.setdefault(track, []).append(ev.get("name"))
        if ph == "E":
            if not open_b.get(track):
                bad.append("%s: E without a B on track %s" % (where, track))
            else:
                open_b[track].pop()
    for track, names in open_b.items():
        if names:
            bad.append("B without an E on track %s: %s" % (track, names))
    return bad


def count_problems(obj, out):
    """The events against what start-detached did (its console is out)."""
    bad = []
    other = obj["otherData"]
    inst = [e for e in obj["traceEvents"] if e["ph"] == "i"]
    if other["dropped"]:
        bad.append("%d events dropped (a ring was full)" % other["dropped"])
    if "started up %d threads!" % NTHREADS not in out or \
            "stack end after all threads exited: 0x00000000." not in out:
        bad.append("start-detached did not start and end its %d threads" % NTHREADS)
    clones = [e["args"] for e in inst if e["name"] == "clone"]
    threads = {c["child"] for c in clones
               if c["tgid"] == 1 and set(c["flags"].split("|")) == START_DETACHED_FLAGS}
    if len(clones) != NTHREADS or len(threads) != NTHREADS:
        bad.append("%d clones, %d of them start-detached's threads; want %d"
                   % (len(clones), len(threads), NTHREADS))
    exits = [e["args"] for e in inst if e["name"] == "exit" and e["args"]["tid"] in threads]
    if len(exits) != NTHREADS or not all(x["self_reap"] for x in exits):
        bad.append("%d exits of those threads (all self-reaping?), want %d"
                   % (len(exits), NTHREADS))
    parks = [e["args"] for e in inst if e["name"] == "park"]
    parked_threads = {p["tid"] for p in parks} & threads
    n = {k: sum(1 for e in inst if e["name"] == k) for k in ("free", "reuse")}
    # Every park puts a task in a CPU's one slot; it leaves by a free (the
    # next park on that CPU) or a reuse (clone), or is still there at the
    # end: at most one a CPU.
    left = len(parks) - n["free"] - n["reuse"]
    # The rings are dumped when init exits: a thread on another CPU may
    # then be between its exit event and its park (its RELEASE_VM word,
    # which start-detached waits for, is 0 earlier, in exit_mm). Such a
    # thread is in flight: at most one on each CPU but init's.
    in_flight = {x["tid"] for x in exits} - parked_threads
    if len(parks) + len(in_flight) != NTHREADS or \
            len(parked_threads) + len(in_flight) != NTHREADS or \
            len(in_flight) > max(other["cpus"] - 1, 0):
        bad.append("%d parks (%d of the threads), %d exited and not yet parked, want %d"
                   % (len(parks), len(parked_threads), len(in_flight), NTHREADS))
    if not 0 <= left <= other["cpus"]:
        bad.append("parks %d, frees %d, reuses %d: %d left parked, want 0..%d"
                   % (len(parks), n["free"], n["reuse"], left, other["cpus"]))
    switches = sum(1 for e in obj["traceEvents"] if e["ph"] == "X")
    if switches < NTHREADS:
        bad.append("%d task runs, fewer than the threads" % switches)
    return bad


def svg_problems(path, cpus):
    try:
        doc = xml.dom.minidom.parse(path)
    except Exception as e:          # expat's errors, and any other
        return ["not well-formed XML: %s" % e]
    root = doc.documentElement
    if root.tagName != "svg" or root.getAttribute("xmlns") != "http://www.w3.org/2000/svg":
        return ["the root is <%s>, not an SVG <svg>" % root.tagName]
    lanes = [t for t in doc.getElementsByTagName("text")
             if t.firstChild and t.firstChild.data.startswith("cpu")]
    if len(lanes) != cpus:
        return ["%d CPU lanes, want %d" % (len(lanes), cpus)]
    return []


def trace_start_detached(smp=4):
    names = ["trace/start_detached." + s for s in ("format", "counts", "svg")]
    b = run_qemu(qemu_kernel_cmd(smp, "trace init=/bin/start-detached -- %d" % NTHREADS)
                 + ICOUNT, timeout=300)
    bad = b.problem()
    if not bad and b.code != qemu_code(0):
        bad = "QEMU exit %d, want %d (status 0)" % (b.code, qemu_code(0))
    if not bad:
        try:
            tr = trace2json.parse(b.out)
        except trace2json.TraceError as e:
            bad = str(e)
    if bad:
        return [(n, bad, b.tail(20)) for n in names]
    obj, runs, marks, span = trace2json.build(tr)
    out_json = os.path.join(BUILD, "trace-test.json")
    out_svg = os.path.join(BUILD, "trace-test.svg")
    with open(out_json, "w") as f:
        json.dump(obj, f)
    with open(out_svg, "w") as f:
        f.write(trace2json.svg(runs, marks, span, obj["otherData"]["counts"],
                               tr["total_dropped"]))
    with open(out_json) as f:       # as a viewer would read it
        obj = json.load(f)
    res = []
    for name, problems in ((names[0], chrome_problems(obj)),
                           (names[1], count_problems(obj, b.out)),
                           (names[2], svg_problems(out_svg, obj["otherData"]["cpus"]))):
        res.append((name, problems[0] if problems else None,
                    "\n".join("    | " + p for p in problems[1:6]) or None))
    return res


def overflow_reported():
    name = "trace/overflow_reported"
    b = run_qemu(qemu_kernel_cmd(1, "trace init=/bin/start-detached -- 3000") + ICOUNT,
                 timeout=300)
    bad = b.problem()
    if not bad:
        try:
            tr = trace2json.parse(b.out)
        except trace2json.TraceError as e:
            bad = str(e)
    if bad:
        return [(name, bad, b.tail(20))]
    obj = trace2json.build(tr)[0]
    drops = tr["dropped"].get(0, 0)
    if len(tr["events"]) != tr["ring"] or drops <= 0:
        bad = "%d events kept of a %d-event ring, %d dropped: want a full ring and drops" % (
            len(tr["events"]), tr["ring"], drops)
    elif obj["otherData"]["dropped"] != drops or tr["total_dropped"] != drops:
        bad = "dropped: %d in the D line, %d at the end, %d in the JSON" % (
            drops, tr["total_dropped"], obj["otherData"]["dropped"])
    elif "started up 3000 threads!" not in b.out:
        bad = "start-detached did not start its 3000 threads"
    return [(name, bad, None)]


def checker_rejects():
    """Each fault planted in a small good trace is found."""
    good = {"traceEvents": [
        {"ph": "M", "name": "thread_name", "pid": 0, "tid": 0, "args": {"name": "cpu0"}},
        {"ph": "X", "name": "tid 1", "pid": 0, "tid": 0, "ts": 1.0, "dur": 2.0},
        {"ph": "B", "name": "b", "pid": 0, "tid": 1, "ts": 1.5},
        {"ph": "i", "s": "t", "name": "clone", "pid": 0, "tid": 0, "ts": 2.0, "args": {}},
        {"ph": "E", "name": "b", "pid": 0, "tid": 1, "ts": 3.0},
        {"ph": "s", "id": 7, "name": "clone", "pid": 0, "tid": 0, "ts": 3.0},
        {"ph": "f", "bp": "e", "id": 7, "name": "clone", "pid": 0, "tid": 1, "ts": 3.5},
    ]}
    if chrome_problems(good):
        return [("trace/checker_rejects", "a good trace is refused: %s"
                 % chrome_problems(good), None)]
    faults = {
        "no traceEvents": lambda o: o.pop("traceEvents"),
        "a bad phase": lambda o: o["traceEvents"][1].update(ph="Z"),
        "no pid": lambda o: o["traceEvents"][1].pop("pid"),
        "a string tid": lambda o: o["traceEvents"][3].update(tid="0"),
        "no ts": lambda o: o["traceEvents"][3].pop("ts"),
        "ts going back": lambda o: o["traceEvents"][3].update(ts=0.5),
        "X without dur": lambda o: o["traceEvents"][1].pop("dur"),
        "a bad instant scope": lambda o: o["traceEvents"][3].update(s="x"),
        "B without E": lambda o: o["traceEvents"].pop(4),
        "E without B": lambda o: o["traceEvents"].pop(2),
        "metadata without args": lambda o: o["traceEvents"][0].pop("args"),
        "a flow that ends unstarted": lambda o: o["traceEvents"].pop(5),
        "a flow without an id": lambda o: o["traceEvents"][6].pop("id"),
    }
    missed = []
    for what, plant in faults.items():
        o = copy.deepcopy(good)
        plant(o)
        if not chrome_problems(o):
            missed.append(what)
    return [("trace/checker_rejects", "not found: " + ", ".join(missed) if missed else None,
             None)]
