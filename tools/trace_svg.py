#!/usr/bin/env python3
"""Renders a Chrome Trace Event JSON file (as cakec-run --trace writes it) into an SVG
timeline: one row per track (process, then thread, in their sort order), its spans as
rectangles (a span inside another one level lower), labelled where they are wide enough;
counters as step plots under the tracks of their process. Standard library only.

    trace_svg.py TRACE.json [-o OUT.svg] [--width PX] [--pid N] [--title TEXT]

--pid N draws only process N (a block); the default draws every process in the file."""
import argparse
import html
import json
import sys

ROW = 18            # height of one nesting level of a track
LABEL_W = 190       # the track names' column
COUNTER_H = 34
AXIS_H = 28

# span colours by the name's first word
COLOURS = [
    ("role", "#d9e4f2"), ("wait", "#e8877a"), ("barrier", "#b7b7b7"), ("cluster", "#9e9e9e"),
    ("TMA", "#5b8fd1"), ("wgmma", "#6cbf6a"), ("cp.async", "#f0a84a"),
]


def colour(name):
    for prefix, c in COLOURS:
        if name.startswith(prefix):
            return c
    return "#c9a0dc"


def load(path):
    with open(path) as f:
        doc = json.load(f)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def collect(events, only_pid):
    procs, threads, psort, tsort = {}, {}, {}, {}
    spans, counters = {}, {}
    for e in events:
        pid, tid, ph = e.get("pid", 0), e.get("tid", 0), e.get("ph")
        if only_pid is not None and pid != only_pid:
            continue
        args = e.get("args", {})
        if ph == "M":
            if e["name"] == "process_name":
                procs[pid] = args.get("name", str(pid))
            elif e["name"] == "thread_name":
                threads[(pid, tid)] = args.get("name", str(tid))
            elif e["name"] == "process_sort_index":
                psort[pid] = args.get("sort_index", pid)
            elif e["name"] == "thread_sort_index":
                tsort[(pid, tid)] = args.get("sort_index", tid)
        elif ph == "X":
            spans.setdefault((pid, tid), []).append((e["ts"], e["ts"] + e.get("dur", 0), e["name"], args))
        elif ph == "C":
            for k, v in sorted(args.items()):
                series = e["name"] if len(args) == 1 else "%s %s" % (e["name"], k)
                counters.setdefault((pid, series), []).append((e["ts"], v))
    return procs, threads, psort, tsort, spans, counters


def depths(track):
    """(span, depth) with depth the nesting level (spans of one track nest)."""
    out, stack = [], []
    for s in sorted(track, key=lambda s: (s[0], -s[1])):
        while stack and stack[-1] <= s[0]:
            stack.pop()
        out.append((s, len(stack)))
        stack.append(s[1])
    return out


def render(events, width, only_pid, title):
    procs, threads, psort, tsort, spans, counters = collect(events, only_pid)
    t_end = max([s[1] for tr in spans.values() for s in tr] + [c[0] for cs in counters.values() for c in cs] + [1])
    plot_w = width - LABEL_W - 10
    scale = plot_w / float(t_end)

    def x(t):
        return LABEL_W + t * scale

    pids = sorted(set([p for p, _ in spans] + [p for p, _ in counters] + list(procs)),
                  key=lambda p: (psort.get(p, p), p))
    body, y = [], (24 if title else 4) + AXIS_H
    for pid in pids:
        body.append('<text x="4" y="%d" class="proc">%s</text>' % (y + 13, html.escape(procs.get(pid, "pid %d" % pid))))
        y += 20
        tids = sorted([t for p, t in spans if p == pid], key=lambda t: (tsort.get((pid, t), t), t))
        for i, tid in enumerate(tids):
            laid = depths(spans[(pid, tid)])
            levels = 1 + max(d for _, d in laid)
            h = levels * ROW
            if i % 2 == 0:
                body.append('<rect x="0" y="%d" width="%d" height="%d" fill="#f6f6f6"/>' % (y, width, h))
            body.append('<text x="8" y="%d" class="track">%s</text>' % (
                y + 13, html.escape(threads.get((pid, tid), "tid %d" % tid))))
            for (t0, t1, name, args), d in laid:
                x0, w = x(t0), max((t1 - t0) * scale, 1.0)
                tip = name + (" @ " + args["loc"] if "loc" in args else "")
                body.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>' % (
                    x0, y + d * ROW + 1, w, ROW - 2, colour(name), html.escape(tip)))
                if w > 6 * len(name) + 6:
                    body.append('<text x="%.1f" y="%d" class="span">%s</text>' % (x0 + 3, y + d * ROW + 13, html.escape(name)))
            y += h
        for (p, series), pts in sorted(counters.items()):
            if p != pid:
                continue
            pts.sort(key=lambda c: c[0])
            top = max([v for _, v in pts] + [1])
            path, last = [], 0
            for t, v in pts:
                path.append("%.1f,%.1f %.1f,%.1f" % (x(t), y + COUNTER_H - 2 - last / top * (COUNTER_H - 6),
                                                      x(t), y + COUNTER_H - 2 - v / top * (COUNTER_H - 6)))
                last = v
            path.append("%.1f,%.1f" % (x(t_end), y + COUNTER_H - 2 - last / top * (COUNTER_H - 6)))
            body.append('<text x="8" y="%d" class="track">%s</text>' % (y + 13, html.escape(series)))
            body.append('<text x="8" y="%d" class="note">max %s</text>' % (y + 26, top))
            body.append('<polyline points="%s" fill="none" stroke="#8a5a9e" stroke-width="1.5"/>' % " ".join(path))
            y += COUNTER_H
        y += 6
    # the time axis: about 10 ticks at a round step
    step = 1
    while t_end / step > 10:
        for m in (2, 5, 10):
            if t_end / (step * m) <= 10:
                step *= m
                break
        else:
            step *= 10
    ax_y = (24 if title else 4) + AXIS_H - 8
    axis = ['<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#444"/>' % (LABEL_W, ax_y, width - 10, ax_y)]
    t = 0
    while t <= t_end:
        axis.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (x(t), ax_y, x(t), y))
        axis.append('<text x="%.1f" y="%d" class="tick">%d</text>' % (x(t) + 2, ax_y - 4, t))
        t += step
    axis.append('<text x="4" y="%d" class="tick">interpreter steps</text>' % (ax_y - 4))
    head = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">' % (width, y + 4),
            '<style>.proc{font-size:13px;font-weight:bold}.track{font-size:11px}.span{font-size:10px}'
            '.tick{font-size:10px;fill:#444}.note{font-size:9px;fill:#777}.title{font-size:14px;font-weight:bold}</style>',
            '<rect width="100%" height="100%" fill="white"/>']
    if title:
        head.append('<text x="4" y="17" class="title">%s</text>' % html.escape(title))
    return "\n".join(head + axis + body + ["</svg>", ""])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace")
    ap.add_argument("-o", "--output", help="the SVG file (default: stdout)")
    ap.add_argument("--width", type=int, default=1200)
    ap.add_argument("--pid", type=int, help="draw only this process (block)")
    ap.add_argument("--title")
    a = ap.parse_args()
    try:
        svg = render(load(a.trace), a.width, a.pid, a.title)
    except (OSError, ValueError, KeyError, TypeError) as err:
        print("trace_svg: error: %s: %s" % (a.trace, err), file=sys.stderr)
        return 1
    if a.output:
        with open(a.output, "w") as f:
            f.write(svg)
    else:
        sys.stdout.write(svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
