"""Checks a Chrome Trace Event JSON file as cakec-run --trace writes it (stdlib only).

    check_trace.py TRACE [--expect NAME-SUBSTRING]... [--thread NAME-SUBSTRING]...

Structure: a JSON object with a traceEvents array; every event has the fields its ph needs
with the right types (name str, ph str, pid/tid int, ts number >= 0, dur >= 0 for X, args
an object); M events are process_name/thread_name (args.name str) or *_sort_index
(args.sort_index int); every (pid, tid) with an X or C event has a thread_name and every
pid a process_name; per (pid, tid) the X spans nest (no two overlap partially); C events' args
are numbers; every X event's args has a loc "file:line:col".
--expect S: some X event's name contains S. --thread S: some thread_name contains S.
Prints "trace ok: N events, M spans" or the first problem (exit 1)."""
import json
import re
import sys


def fail(msg):
    print("check_trace: error: " + msg)
    sys.exit(1)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return (isinstance(v, (int, float))) and not isinstance(v, bool)


def check_event(i, e):
    if not isinstance(e, dict):
        fail("event %d is not an object" % i)
    for key, typ in (("name", str), ("ph", str)):
        if not isinstance(e.get(key), typ):
            fail("event %d: '%s' missing or not a %s" % (i, key, typ.__name__))
    for key in ("pid", "tid"):
        if not is_int(e.get(key)):
            fail("event %d (%s): '%s' missing or not an integer" % (i, e["name"], key))
    if not is_num(e.get("ts")) or e["ts"] < 0:
        fail("event %d (%s): 'ts' missing, not a number or negative" % (i, e["name"]))
    if not isinstance(e.get("args"), dict):
        fail("event %d (%s): 'args' missing or not an object" % (i, e["name"]))
    ph = e["ph"]
    if ph == "X":
        if not is_num(e.get("dur")) or e["dur"] < 0:
            fail("event %d (%s): an X event needs 'dur' >= 0" % (i, e["name"]))
        if not re.match(r"^.+:\d+:\d+$", str(e["args"].get("loc", ""))):
            fail("event %d (%s): args has no 'loc' file:line:col" % (i, e["name"]))
    elif ph == "C":
        if not e["args"] or not all(is_num(v) for v in e["args"].values()):
            fail("event %d (%s): a counter's args must be numbers" % (i, e["name"]))
    elif ph == "M":
        if e["name"] in ("process_name", "thread_name"):
            if not isinstance(e["args"].get("name"), str):
                fail("event %d: %s without a string args.name" % (i, e["name"]))
        elif e["name"] in ("process_sort_index", "thread_sort_index"):
            if not is_int(e["args"].get("sort_index")):
                fail("event %d: %s without an integer args.sort_index" % (i, e["name"]))
        else:
            fail("event %d: unknown metadata '%s'" % (i, e["name"]))
    else:
        fail("event %d (%s): unexpected ph '%s'" % (i, e["name"], ph))


def check_nesting(spans):
    """spans: (ts, end, name) of one track: sorted by start, longest first, each must end
    before the next one that does not lie inside it starts."""
    spans.sort(key=lambda s: (s[0], -s[1]))
    stack = []
    for ts, end, name in spans:
        while stack and stack[-1][1] <= ts:
            stack.pop()
        if stack and end > stack[-1][1]:
            return "'%s' [%s, %s] overlaps '%s' [%s, %s] partially" % (
                name, ts, end, stack[-1][2], stack[-1][0], stack[-1][1])
        stack.append((ts, end, name))
    return None


def main():
    args = sys.argv[1:]
    if not args:
        fail("usage: check_trace.py TRACE [--expect S]... [--thread S]...")
    path, expect, threads = args[0], [], []
    i = 1
    while i < len(args):
        if args[i] in ("--expect", "--thread") and i + 1 < len(args):
            (expect if args[i] == "--expect" else threads).append(args[i + 1])
            i += 2
        else:
            fail("bad argument '%s'" % args[i])
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as err:
        fail("%s: not valid JSON: %s" % (path, err))
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no traceEvents array")
    events = doc["traceEvents"]
    tracks, thread_names, procs = {}, {}, set()
    for i, e in enumerate(events):
        check_event(i, e)
        key = (e["pid"], e["tid"])
        if e["ph"] == "M" and e["name"] == "thread_name":
            thread_names[key] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "process_name":
            procs.add(e["pid"])
        elif e["ph"] == "X":
            tracks.setdefault(key, []).append((e["ts"], e["ts"] + e["dur"], e["name"]))
        elif e["ph"] == "C":
            tracks.setdefault(key, [])
    for key, spans in sorted(tracks.items()):
        if key not in thread_names:
            fail("pid %d tid %d has events but no thread_name" % key)
        if key[0] not in procs:
            fail("pid %d has no process_name" % key[0])
        bad = check_nesting(spans)
        if bad:
            fail("pid %d tid %d (%s): %s" % (key[0], key[1], thread_names[key], bad))
    names = [e["name"] for e in events if e["ph"] == "X"]
    for s in expect:
        if not any(s in n for n in names):
            fail("no span named like '%s'" % s)
    for s in threads:
        if not any(s in n for n in thread_names.values()):
            fail("no thread named like '%s'" % s)
    print("trace ok: %d events, %d spans" % (len(events), len(names)))


if __name__ == "__main__":
    main()
