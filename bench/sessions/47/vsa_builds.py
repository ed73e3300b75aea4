#!/usr/bin/env python3
"""Session 47: two builds of the vsa family side by side (bench/vsa.py's random masks, padded
lists, B4 H16 S8192 D128 bf16, 64- and 128-token blocks), each build's entry point `vsa` on
the same tensors: o and lse compared bit for bit with the first build's, then ROUNDS rounds
timing the builds in turn (best of the rounds, bench/vsa_alone.py's timer).
Usage: vsa_builds.py GEN_A GEN_B [DENSITIES] [ROUNDS]   (GEN: a build's gen/vsa folder)"""
import os, sys
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "python")); sys.path.insert(0, os.path.join(ROOT, "bench"))
import torch, cakec_torch
import vsa as V
from vsa_alone import time_instance

gens = sys.argv[1:3]
dens_list = [float(x) for x in (sys.argv[3] if len(sys.argv) > 3 else "0.1,1.0").split(",")]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
libs = [cakec_torch.load(g) for g in gens]
names = [os.path.normpath(g).split(os.sep)[-4] if len(os.path.normpath(g).split(os.sep)) >= 4 else g for g in gens]
B, H, S, D = 4, 16, 8192, 128
dev = torch.device("cuda", 0)
g = torch.Generator(device="cpu").manual_seed(1)
q, k, v = (torch.randn((B, H, S, D), generator=g).to(dev, torch.bfloat16) for _ in range(3))
work = torch.zeros(2, device=dev, dtype=torch.int32)
for blk in (64, 128):
    for dens in dens_list:
        num, idx = V.make_mask(torch, B, H, S, blk, dens, False, 5)
        num, idx = num.to(dev), idx.to(dev)
        pairs = float(num.sum()) * blk * blk
        outs = []
        for lib in libs:
            o = torch.full_like(q, float("nan")); lse = torch.full((B, H, S), float("nan"), device=dev)
            lib.vsa(q=q, k=k, v=v, kv_num=num, kv_idx=idx, o=o, lse=lse, work=work, scale=D ** -0.5, causal=0)
            torch.cuda.synchronize()
            outs.append((o, lse))
        same = torch.equal(outs[0][0], outs[1][0]) and torch.equal(outs[0][1], outs[1][1])
        best = [1e9, 1e9]
        for _ in range(rounds):
            for i, lib in enumerate(libs):
                o = torch.empty_like(q); lse = torch.empty((B, H, S), device=dev)
                t = time_instance(torch, lib.vsa, dict(q=q, k=k, v=v, kv_num=num, kv_idx=idx, o=o, lse=lse,
                                  work=work, scale=D ** -0.5, causal=0))
                best[i] = min(best[i], t)
        print("blk %d density %g: %s %.1f us (%.0f TFLOP/s), %s %.1f us (%.0f TFLOP/s), b/a %.3f, %s" % (
            blk, dens, names[0], best[0] * 1e3, 4 * D * pairs / best[0] / 1e9, names[1], best[1] * 1e3,
            4 * D * pairs / best[1] / 1e9, best[1] / best[0], "bitwise-equal" if same else "OUTPUTS DIFFER"), flush=True)
