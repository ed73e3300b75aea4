#!/usr/bin/env python3
"""Session 47: one-target compile times (sm_90a, --kernel, to PTX) of two cakec binaries,
interleaved run by run (medians of 9), for the kernels listed in kernels.txt beside this
script (FILE KERNEL per line, FILE under kernels_src/).
Usage: python3 bench/sessions/47/compile_ab.py OLD_CAKEC NEW_CAKEC"""
import os
import subprocess, time, statistics, sys
old, new = sys.argv[1], sys.argv[2]
ks = [l.split() for l in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'kernels.txt')) if l.strip()]
def t(c, f, k):
    t0 = time.perf_counter(); subprocess.run([c, '--target', 'sm_90a', '--kernel', k, '--emit=ptx', '-o', '/tmp/compile_ab', os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))), 'kernels_src') + '/' + f], check=True); return (time.perf_counter() - t0) * 1e3
print(f"{'kernel':34} {'old ms':>7} {'new ms':>7} {'new/old':>7}")
for f, k in ks:
    a, b = [], []
    for _ in range(9):
        a.append(t(old, f, k)); b.append(t(new, f, k))
    print(f"{k:34} {statistics.median(a):7.1f} {statistics.median(b):7.1f} {statistics.median(b)/statistics.median(a):7.3f}")
