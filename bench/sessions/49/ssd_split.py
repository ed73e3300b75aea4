#!/usr/bin/env python3
"""Session 49: ssd with the two-segment split (gen/new: with its workspace, and with empty
workspace tensors, where every head runs whole) against the ssd before it (gen/base), on
the same tensors (bench/ssd_builds.py's inputs: bf16, G 1, D, dt bias, softplus, chunk 256,
final state). Every variant's y and final state must be bit for bit base's. 10 calls in a
CUDA graph, 7 replays, the median; ratios base / variant.
Usage: ssd_split.py GEN (holding base/ and new/)"""
import os, sys
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "python")); sys.path.insert(0, os.path.join(ROOT, "bench"))
import torch, cakec_torch
from ssd_builds import inputs

gen = sys.argv[1]
SHAPES = [(1, 8192, 128, 128), (4, 4096, 80, 128), (2, 4096, 80, 128), (2, 8192, 96, 128),
          (16, 384, 64, 128), (8, 2048, 64, 64), (4, 2048, 48, 128), (3, 4096, 64, 128)]
dev = torch.device("cuda", 0)
base, new = cakec_torch.load(os.path.join(gen, "base")), cakec_torch.load(os.path.join(gen, "new"))
sms = torch.cuda.get_device_properties(0).multi_processor_count
print(torch.cuda.get_device_name(0), "SMs", sms)
for (B, L, H, N) in SHAPES:
    a = inputs(torch, dev, B, L, H, N)
    sync = torch.zeros(2 + 128 * B * H, device=dev, dtype=torch.int32)
    hand = torch.empty((B, H, 64, N), device=dev, dtype=torch.float32)
    none_sync = torch.empty(0, device=dev, dtype=torch.int32)
    none_hand = torch.empty((0, H, 64, N), device=dev, dtype=torch.float32)
    calls, outs, names = [], [], []
    for v in ("base", "whole", "split"):
        y = torch.full_like(a["x"], float("nan"))
        fin = torch.full((B, H, 64, N), float("nan"), device=dev)
        if v == "base":
            f = lambda y=y, fin=fin: base.ssd(y=y, final=fin, softplus=1, chunk=256, **a)
        else:
            s_, h_ = (sync, hand) if v == "split" else (none_sync, none_hand)
            f = lambda y=y, fin=fin, s_=s_, h_=h_: new.ssd(y=y, final=fin, softplus=1, chunk=256,
                                                           sync=s_, hand=h_, **a)
        f(); torch.cuda.synchronize()
        outs.append((y.clone(), fin.clone())); calls.append(f); names.append(v)
    # each variant's 10 calls captured into a CUDA graph (no host time in the figure)
    graphs = []
    st = torch.cuda.Stream()
    for f in calls:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.stream(st):
            f(); torch.cuda.synchronize()
            with torch.cuda.graph(g, stream=st):
                for _ in range(10):
                    f()
        graphs.append(g)
    times = [[] for _ in calls]
    for _ in range(7):
        for i, g in enumerate(graphs):
            s, e = torch.cuda.Event(True), torch.cuda.Event(True)
            s.record()
            g.replay()
            e.record(); torch.cuda.synchronize()
            times[i].append(s.elapsed_time(e) / 10 * 1e3)
    same = ["=" if torch.equal(outs[0][0], o[0]) and torch.equal(outs[0][1], o[1]) else "DIFF" for o in outs]
    med = [sorted(t)[3] for t in times]
    bh = B * H
    split = L > 448 and -(-bh // sms) >= 2 and 2 * -(-bh // sms) > -(-2 * bh // sms)
    cols = ["%s %.1f us %s (%.3f)" % (n, m, s, med[0] / m) for n, m, s in zip(names, med, same)]
    print("B%d L%d H%d N%d (%d heads, %s): %s  sync zero: %s" % (B, L, H, N, bh, "split" if split else "whole",
          "  ".join(cols), int(sync.abs().sum().item()) == 0))
