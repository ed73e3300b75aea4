#!/usr/bin/env python3
"""Session 55: gdp kernels from several build folders side by side in CUDA graphs, at one
token and step (bench/gdp.py's inputs, no L2 norm, HV 64). Per shape: each kernel's 10
calls captured in a graph on one rotation of input sets (>= 256 MiB, as gdp.py), 9 rounds
of replays interleaved over the kernels, the median in us, the share of copy bandwidth
(torch's device-to-device copy of 1 GiB, best of 9) and whether o and the state after one
call are bit for bit those of the first kernel of the same design.
Usage: gdp_ab.py [--heads 32768,4096] LABEL=KERNEL_DIR ...  (a folder cakec -o wrote)"""
import argparse, json, math, os, sys
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "python")); sys.path.insert(0, os.path.join(ROOT, "bench"))
import torch, cakec_torch
from gdp import make_inputs

ap = argparse.ArgumentParser()
ap.add_argument("--heads", default="32768,4096")
ap.add_argument("--rounds", type=int, default=9)
ap.add_argument("kernels", nargs="+")
a = ap.parse_args()
dev = torch.device("cuda", 0)
print(torch.cuda.get_device_name(0), flush=True)


class Shape:
    def __init__(self, B, HV):
        self.B, self.T, self.NH, self.HQK, self.HV, self.K, self.V = B, 1, 1, HV // 2, HV, 128, 128

    def bytes(self):
        s = self.B * self.HV * self.K * self.V * 4
        return 2 * s + self.B * (self.HQK * self.K * 4 + self.HV * (self.V * 4 + 6))


def fn_of(spec):
    label, d = spec.split("=", 1)
    lib = cakec_torch.load(d)
    name = os.path.basename(d.rstrip("/"))
    if not hasattr(lib, name):
        man = json.load(open(os.path.join(d, "manifest.json")))
        name = [m["kernel"] for m in man if "kernel" in m][0]
    return label, getattr(lib, name)


def timed(g, n):
    s, e = torch.cuda.Event(True), torch.cuda.Event(True)
    s.record(); g.replay(); e.record(); torch.cuda.synchronize()
    return s.elapsed_time(e) / n * 1e3


x = torch.empty(1 << 28, device=dev); y = torch.empty_like(x)
cg = torch.cuda.CUDAGraph()
with torch.cuda.graph(cg):
    y.copy_(x)
copy_bw = max(2 * x.numel() * 4 / (timed(cg, 1) * 1e-6) for _ in range(9))
del x, y, cg
print("copy %.0f GB/s" % (copy_bw / 1e9), flush=True)
fns = [fn_of(s) for s in a.kernels]
for heads in [int(h) for h in a.heads.split(",")]:
    sh = Shape(heads // 64, 64)
    per = sh.bytes()
    nrot = max(1, min(64, math.ceil((256 << 20) / per)))
    sets = [make_inputs(torch, sh, False, dev, 1000 + i) for i in range(nrot)]
    s0 = sets[0]["s"].clone()
    scale = 128 ** -0.5
    graphs, outs = [], []
    st = torch.cuda.Stream()
    st.wait_stream(torch.cuda.current_stream())
    for label, fn in fns:
        def call(i, fn=fn):
            z = sets[i % nrot]
            fn(q=z["q"], k=z["k"], v=z["v"], g=z["g"], beta=z["beta"], s=z["s"], o=z["o"],
               inter=z["inter"], scale=scale)
        with torch.cuda.stream(st):
            sets[0]["s"].copy_(s0); sets[0]["o"].fill_(float("nan"))
            call(0); torch.cuda.synchronize()
            outs.append((sets[0]["o"].clone(), sets[0]["s"].clone()))
            n = max(10, nrot)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g, stream=st):
                for i in range(n):
                    call(i)
        graphs.append((g, n))
    times = [[] for _ in fns]
    for _ in range(a.rounds):
        for i, (g, n) in enumerate(graphs):
            times[i].append(timed(g, n))
    cols = []
    for i, (label, _) in enumerate(fns):
        med = sorted(times[i])[len(times[i]) // 2]
        j = [k for k, (l, _) in enumerate(fns) if l.split(".")[0] == label.split(".")[0]][0]
        same = torch.equal(outs[j][0], outs[i][0]) and torch.equal(outs[j][1], outs[i][1])
        cols.append("%-8s %8.1f us %5.1f%%%s" % (label, med, 100 * per / (med * 1e-6) / copy_bw,
                                                "" if same else " (differs from %s)" % fns[j][0]))
    print("heads %d (B %d HV 64), %d sets:" % (heads, sh.B, nrot))
    for c in cols:
        print("  " + c, flush=True)
    del sets, s0, graphs, outs
    torch.cuda.empty_cache()
