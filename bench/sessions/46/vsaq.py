#!/usr/bin/env python3
"""Session 46: vsa instances side by side (B4 H16 S8192 D128 bf16, bench/vsa.py's random masks,
compact lists: as many slots as the longest list), outputs compared with the first instance's,
then REPS rounds of timing taking the instances in turn.
Usage: vsaq.py GEN DENSITIES INSTANCES BLK REPS"""
import os, sys
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "python")); sys.path.insert(0, os.path.join(ROOT, "bench"))
import torch, cakec_torch
import vsa as V
from vsa_alone import time_instance

gen, dens_s, insts_s, blk, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
insts = insts_s.split(",")
B, H, S, D = 4, 16, 8192, 128
lib = cakec_torch.load(gen)
dev = torch.device("cuda", 0)
g = torch.Generator(device="cpu").manual_seed(1)
q, k, v = (torch.randn((B, H, S, D), generator=g).to(dev, torch.bfloat16) for _ in range(3))
work = torch.zeros(2, device=dev, dtype=torch.int32)
for dens in (float(x) for x in dens_s.split(",")):
    num, idx = V.make_mask(torch, B, H, S, blk, dens, False, 5)
    num, idx = num.to(dev), idx.to(dev)
    idx = idx[..., :max(int(num.max()), 1)].contiguous()
    pairs = float(num.sum()) * blk * blk
    outs = []
    for inst in insts:
        o = torch.full_like(q, float("nan")); lse = torch.full((B, H, S), float("nan"), device=dev)
        getattr(lib, inst)(q=q, k=k, v=v, kv_num=num, kv_idx=idx, o=o, lse=lse, work=work, scale=D ** -0.5, causal=0)
        torch.cuda.synchronize()
        outs.append((o.float(), lse))
        print("%s density %g: o max|diff| vs %s %.3g, lse %.3g, nan %d" % (inst, dens, insts[0],
              (o.float() - outs[0][0]).abs().max().item(), (lse - outs[0][1]).abs().max().item(),
              int(torch.isnan(o.float()).sum().item())), flush=True)
    best = {}
    for _ in range(reps):
        for inst in insts:
            o = torch.empty_like(q); lse = torch.empty((B, H, S), device=dev)
            t = time_instance(torch, getattr(lib, inst), dict(q=q, k=k, v=v, kv_num=num, kv_idx=idx, o=o, lse=lse,
                              work=work, scale=D ** -0.5, causal=0))
            best[inst] = min(best.get(inst, 1e9), t)
            print("%s density %g: %.1f us, %.0f TFLOP/s" % (inst, dens, t * 1e3, 4 * D * pairs / t / 1e9), flush=True)
    print("density %g best: %s" % (dens, ", ".join("%s %.0f TFLOP/s" % (i, 4 * D * pairs / best[i] / 1e9) for i in insts)), flush=True)
