#!/usr/bin/env python3
"""Session 51: one shape's ssd calls for ncu (B L H N on the command line, bench/ssd_builds.py's
inputs, chunk 256): two calls, so that --launch-skip 1 profiles a warm one.
Usage: ssd_once.py GEN B L H N"""
import os, sys
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "python")); sys.path.insert(0, os.path.join(ROOT, "bench"))
import torch, cakec_torch
from ssd_builds import inputs, workspace

lib = cakec_torch.load(sys.argv[1])
B, L, H, N = (int(v) for v in sys.argv[2:6])
dev = torch.device("cuda", 0)
a = inputs(torch, dev, B, L, H, N)
y = torch.full_like(a["x"], float("nan"))
fin = torch.full((B, H, 64, N), float("nan"), device=dev)
for _ in range(2):
    lib.ssd(y=y, final=fin, softplus=1, chunk=256, **a, **workspace(lib, torch, dev, B, H, N))
torch.cuda.synchronize()
print("ssd B%d L%d H%d N%d done, y finite: %s" % (B, L, H, N, bool(torch.isfinite(y.float()).all())))
