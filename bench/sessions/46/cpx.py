#!/usr/bin/env python3
"""Session 46: time variants of cp_fixup's MMA design (a gen folder made from a copy of
kernels_src/cp_fixup with ablation or design variants, every instance named cpx_<T>_<what>)
at one shape, beside the copy bandwidth floor; errors against float64.
Usage: cpx.py GEN [B,H,C,K,V] [ROUNDS]"""
import math, os, sys
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "python")); sys.path.insert(0, os.path.join(ROOT, "bench"))
import torch, cakec_torch
from bandwidth import Timer, copy_bandwidth

gen = sys.argv[1]
B, H, C, K, V = (int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "8,32,16,128,128").split(","))
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
dev = torch.device("cuda", 0)
lib = cakec_torch.load(gen)
names = sorted(n for n in dir(lib) if n.startswith("cpx_"))
timer = Timer(torch, 15, 0.02)
if os.environ.get("CPX_NCU"):
    bw, desc = 1.0, "-"
else:
    bw, desc = copy_bandwidth(torch, timer, 1 << 30, dev, [])
print("copy bandwidth %.0f GB/s (%s)" % (bw / 1e9, desc))
sets = {}
for dt in ("f32", "bf16"):
    mdt = torch.float32 if dt == "f32" else torch.bfloat16
    mb = 4 if dt == "f32" else 2
    nbytes = B * H * C * (K * V * 8 + K * K * mb)
    g = torch.Generator(device=dev)
    xs = []
    for r in range(max(1, min(16, math.ceil((256 << 20) / nbytes)))):
        g.manual_seed(1000 + r)
        l = torch.rand((B, H, C, K, V), device=dev, generator=g) * 2 - 1
        m = ((torch.rand((B, H, C, K, K), device=dev, generator=g) * 2 - 1) * (1.5 / math.sqrt(K))).to(mdt)
        xs.append((l, m, torch.empty_like(l)))
    l64 = xs[0][0].double().view(B * H, C, K, V); m64 = xs[0][1].double().view(B * H, C, K, K)
    ref = torch.empty_like(l64); ref[:, 0] = l64[:, 0]
    for c in range(1, C):
        ref[:, c] = torch.baddbmm(l64[:, c], m64[:, c], ref[:, c - 1])
    sets[dt] = (xs, ref.view(B, H, C, K, V), nbytes)
init = torch.empty((0, H, K, V), device=dev, dtype=torch.float32)
nvalid = torch.full((B,), C, device=dev, dtype=torch.int32)
if os.environ.get("CPX_NCU"):           # under ncu: a few plain calls of each, no timing
    for n in names:
        dt = "bf16" if "_bf16_" in n else "f32"
        xs = sets[dt][0]
        for i in range(3):
            getattr(lib, n)(l=xs[i % len(xs)][0], m=xs[i % len(xs)][1], init=init, nvalid=nvalid, s=xs[i % len(xs)][2])
    torch.cuda.synchronize()
    sys.exit(0)
res = {}
for rnd in range(rounds):
    for n in names:
        dt = "bf16" if "_bf16_" in n else "f32"
        xs, ref, nbytes = sets[dt]
        fn = getattr(lib, n)
        def call(i, fn=fn):
            l, m, s = xs[i % len(xs)]
            fn(l=l, m=m, init=init, nvalid=nvalid, s=s)
        xs[0][2].fill_(float("nan")); call(0); torch.cuda.synchronize()
        err = ((xs[0][2].double() - ref).abs() / ref.abs().clamp(min=0.5)).max().item()
        t = timer(call)
        res.setdefault(n, []).append(t)
        print("round %d %-24s %8.1f us  %5.1f%% of floor  err %.1e" % (rnd, n, t * 1e6, 100 * nbytes / bw / t, err), flush=True)
print("best of rounds:")
for n in names:
    dt = "bf16" if "_bf16_" in n else "f32"
    print("  %-24s %8.1f us  %5.1f%% of floor" % (n, min(res[n]) * 1e6, 100 * sets[dt][2] / bw / min(res[n])))
