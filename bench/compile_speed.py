#!/usr/bin/env python3
"""Compile-speed benchmark: the median wall time of one `cakec` run from .cake to PTX, for
every kernel in kernels_src/, for one target (the first its targets(...) lists: sm_90a, or
sm_100a for the Blackwell GEMMs) and for every target the kernel lists (sm_90a, sm_100a and
sm_103a; sm_90a alone for the wgmma GEMMs) in one run, both at the default -O2; and, for
information (no budget), one target at -O3. The budget (issue 12: every kernel under 50 ms
per target) holds the one-target run and the all-targets run divided by its number of
targets (cakec generates the targets' code on threads of their own, so that run is less
than the sum of the targets' runs); a kernel over it in either is flagged. The runs go in
rounds over every kernel (each round compiles every kernel once in each way), so that a
short burst of other load on the machine reaches few samples of any one kernel.
What it measures is `cakec --emit=ptx`: .cake to PTX text only, with no launchers and no
ptxas. The budget is for cakec's own work; `--emit=host` also runs ptxas on each target's
PTX by default (to embed cubins), which takes ptxas's time on top (0.1-0.5 s per kernel
and target on a 2-core machine) and is not measured here (`--ptx-only` skips it).
Usage: python3 bench/compile_speed.py [--cakec build/cakec] [--runs 21] [--budget-ms 50] [--dir D]
(--dir: the folder of kernels instead of kernels_src, relative to the repository, repeatable:
--dir bench/naive times the plain-code corpus.)
Prints a table; exits 1 if any median is over the budget.
With --compare OLD_CAKEC it instead times OLD_CAKEC and --cakec side by side (runs
interleaved, so load on the machine hits both alike) at -O2 for every kernel's targets, and
prints each median and the ratio new/old (a refactor must not make compiles slower)."""
import argparse
import glob
import re
import os
import statistics
import subprocess
import sys
import tempfile
import time


def median_ms(cmd, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append((time.perf_counter() - t0) * 1e3)
        if r.returncode != 0:
            sys.exit(f"compile failed: {' '.join(cmd)}\n{r.stderr.decode()}")
    return statistics.median(times)


def compare(old, new, files, runs, root):
    """Interleaved medians of two compilers on every kernel file; prints ratios."""
    print(f"{'kernel file':44} {'old ms':>8} {'new ms':>8} {'new/old':>8}")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            t = {old: [], new: []}
            for _ in range(runs):
                for c in (old, new):
                    t[c].append(median_ms([c, "--emit=ptx", "-o", tmp, f], 1))
            o, n = statistics.median(t[old]), statistics.median(t[new])
            ratios.append(n / o)
            print(f"{os.path.relpath(f, root):44} {o:8.1f} {n:8.1f} {n / o:8.3f}")
    print(f"median of {runs} interleaved runs each; median ratio new/old {statistics.median(ratios):.3f}, "
          f"geometric mean {statistics.geometric_mean(ratios):.3f}")
    return 0


def instance_names(cakec, f, text):
    """The kernels of file f that are instances of a generic kernel, by the names cakec gives
    them: `as NAME` where the file says it, else (`instance K<1, 2>;`) the name cakec makes,
    read from `cakec --list-outputs` (NAME.TARGET.ptx) rather than made again here."""
    if not re.search(r"^instance\s", text, re.M):
        return []
    if not re.search(r"^instance \w+<.*?>\s*;", text, re.M):
        return re.findall(r"^instance \w+<.*?> as (\w+)\b", text, re.M)
    r = subprocess.run([cakec, "--list-outputs", "--emit=ptx", f], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"cakec --list-outputs failed on {f}:\n{r.stderr}")
    names = []
    for line in r.stdout.split():
        n = os.path.basename(line).split(".")[0]
        if line.endswith(".ptx") and n not in names:
            names.append(n)
    return names


def units(cakec, files):
    """(label, extra cakec arguments, file) per kernel: a generic kernel's instances one at a
    time with --kernel, since the budget is per kernel; and the first target the file's
    targets(...) lists, for the one-target column (sm_90a for most; the Blackwell GEMMs list
    only sm_100a and sm_103a)."""
    out = []
    for f in files:
        text = open(f).read()
        names = instance_names(cakec, f, text)
        m = re.search(r"^\s*targets\(\s*(\w+)", text, re.M)
        first = m.group(1) if m else "sm_90a"
        if not names:
            out.append((f, [], f, first))
        for n in names:
            out.append((f + ":" + n, ["--kernel", n], f, first))
    return out


def ntargets(cakec, extra, f):
    """How many targets a unit compiles for when no --target is given: its PTX files."""
    r = subprocess.run([cakec, "--list-outputs", "--emit=ptx"] + extra + [f], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"cakec --list-outputs failed on {f}:\n{r.stderr}")
    return max(1, sum(1 for w in r.stdout.split() if w.endswith(".ptx")))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--cakec", default=os.path.join(root, "build", "cakec"))
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--budget-ms", type=float, default=50.0)
    ap.add_argument("--compare", metavar="OLD_CAKEC", help="time OLD_CAKEC and --cakec side by side")
    ap.add_argument("--dir", action="append",
                    help="a folder of kernels, relative to the repository (repeatable; default kernels_src)")
    a = ap.parse_args()
    # a file without a kernel is a library the others import (kernels_src/gdp/gdp_math.cake)
    files = [f for d in (a.dir or ["kernels_src"])
             for f in sorted(glob.glob(os.path.join(root, d, "**", "*.cake"), recursive=True))
             if re.search(r"^kernel\s", open(f).read(), re.M)]
    if a.compare:
        return compare(a.compare, a.cakec, files, a.runs, root)
    over = 0
    print(f"{'kernel file (its first target)':64} {'one target ms':>14} {'fastest':>8} {'all targets ms':>15} "
          f"{'per target':>11} {'one target -O3 ms':>18}")
    with tempfile.TemporaryDirectory() as tmp:
        us = units(a.cakec, files)
        # three commands a unit: one target, every target the kernel lists (sm_90a only for
        # the wgmma GEMMs), one target at -O3
        cmds = [[[a.cakec, "--target", first, "--emit=ptx", "-o", tmp] + extra + [f],
                 [a.cakec, "--emit=ptx", "-o", tmp] + extra + [f],
                 [a.cakec, "-O3", "--target", first, "--emit=ptx", "-o", tmp] + extra + [f]]
                for _, extra, f, first in us]
        # rounds over every unit, not a unit's runs in a row: a burst of load on the machine
        # (a second or so of another process) then costs a few units one sample each, not one
        # unit the majority of its samples (which moved a median from 43 to 70 ms)
        times = [[[] for _ in c] for c in cmds]
        for r in range(a.runs):
            print(f"round {r + 1} of {a.runs}", file=sys.stderr, flush=True)
            for u, c in enumerate(cmds):
                for m, cmd in enumerate(c):
                    times[u][m].append(median_ms(cmd, 1))
        for (label, extra, f, first), t in zip(us, times):
            one, every, o3 = (statistics.median(x) for x in t)
            per = every / ntargets(a.cakec, extra, f)
            flag = "" if max(one, per) <= a.budget_ms else "  OVER BUDGET"
            over += max(one, per) > a.budget_ms
            print(f"{os.path.relpath(label, root) + ' (' + first + ')':64} {one:14.1f} {min(t[0]):8.1f} {every:15.1f} {per:11.1f} {o3:18.1f}{flag}")
    # the fastest run beside the median: what the compile costs when nothing else runs, so
    # that a median moved by load on the machine shows as such (the budget is the median's)
    print(f"median of {a.runs} runs each (fastest: the least of the one-target runs); budget "
          f"{a.budget_ms:.0f} ms per kernel and target to PTX at -O2 "
          f"(one target, and all targets over their number); {over} over budget")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
