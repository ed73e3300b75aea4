#!/usr/bin/env python3
"""Session 51: several builds of ssd side by side in CUDA graphs (bench/ssd_builds.py's
inputs and shapes: bf16, G 1, D, dt bias, softplus, chunk 256, final state; the split's
workspace made once, outside the graph). Per shape and build: 10 calls captured in a graph,
7 replays interleaved across builds, the median, in us; each build's ratio to the first
and whether its y and final state are bit for bit the first's.
Usage: ssd_ab.py GEN...   (each GEN a build/gen/ssd folder)"""
import os, sys
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "python")); sys.path.insert(0, os.path.join(ROOT, "bench"))
import torch, cakec_torch
from ssd_builds import inputs, label, SHAPES, workspace

gens = sys.argv[1:]
libs = [cakec_torch.load(g) for g in gens]
dev = torch.device("cuda", 0)
print(torch.cuda.get_device_name(0), "SMs", torch.cuda.get_device_properties(0).multi_processor_count)
for (B, L, H, N) in SHAPES:
    a = inputs(torch, dev, B, L, H, N)
    graphs, outs = [], []
    st = torch.cuda.Stream()
    for lib in libs:
        y = torch.full_like(a["x"], float("nan"))
        fin = torch.full((B, H, 64, N), float("nan"), device=dev)
        ws = workspace(lib, torch, dev, B, H, N)
        f = lambda lib=lib, y=y, fin=fin, ws=ws: lib.ssd(y=y, final=fin, softplus=1, chunk=256, **a, **ws)
        g = torch.cuda.CUDAGraph()
        # the inputs, outputs and workspace were written on the default stream: st waits for
        # them (without it, the eager call below raced their fills; section 54)
        st.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(st):
            f(); torch.cuda.synchronize()
            outs.append((y.clone(), fin.clone()))
            with torch.cuda.graph(g, stream=st):
                for _ in range(10):
                    f()
        graphs.append(g)
    times = [[] for _ in libs]
    for _ in range(7):
        for i, g in enumerate(graphs):
            s, e = torch.cuda.Event(True), torch.cuda.Event(True)
            s.record(); g.replay(); e.record(); torch.cuda.synchronize()
            times[i].append(s.elapsed_time(e) / 10 * 1e3)
    med = [sorted(t)[3] for t in times]
    cols = []
    for i, gdir in enumerate(gens):
        same = torch.equal(outs[0][0], outs[i][0]) and torch.equal(outs[0][1], outs[i][1])
        cols.append("%s %.1f (%.3f%s)" % (label(gdir), med[i], med[0] / med[i], "" if same else " diff"))
    print("B%d L%d H%d N%d: %s" % (B, L, H, N, "  ".join(cols)), flush=True)
