#!/usr/bin/env python3
"""GEMM tile-configuration experiment: times gemm_bf16 and gemm_f16 built with different
-D constants side by side with cuBLAS on a few shapes (bench/RESULTS.md section 3 quotes
its BN = 128 figures). Build the variants here first, then run on the GPU machine:

    for v in "g16:-D GROUP_M=16" "g4:-D GROUP_M=4" "s3:-D STAGES=3" "bn128:-D BN=128"; do
      build/cakec ${v#*:} --emit=ptx,host -o build/gen-var/${v%%:*} \
        kernels_src/gemm/gemm_bf16.cake kernels_src/gemm/gemm_f16.cake
    done
    python3 python/cakec_torch.py build build/gen-var/*
    python3 bench/gemm_variants.py        # carry build/gen/gemm and build/gen-var

The ncu figures in RESULTS.md came from one launch of gemm_bf16 at 8192^3 under
`ncu --clock-control none -k regex:gemm_bf16 -c 1 --section SpeedOfLight
--section MemoryWorkloadAnalysis --section Occupancy`.
"""
import os
import sys

import torch
sys.path.insert(0, "python"); sys.path.insert(0, "bench")
import cakec_torch
from gemm import timeit
torch.backends.cuda.matmul.allow_tf32 = False
dirs = ["build/gen/gemm"] + sorted("build/gen-var/" + d for d in os.listdir("build/gen-var"))
libs = {d: cakec_torch.load(d) for d in dirs}
shapes = [(8192, 8192, 8192), (4096, 4096, 4096), (512, 2560, 8192), (2048, 2560, 8192), (512, 28672, 8192)]
for dt, name in ((torch.bfloat16, "gemm_bf16"), (torch.float16, "gemm_f16")):
    for (m, n, k) in shapes:
        A = torch.randn(m, k, device="cuda").to(dt); B = torch.randn(n, k, device="cuda").to(dt)
        C = torch.empty(m, n, device="cuda", dtype=dt)
        ref = (A.float() @ B.float().t())
        f = 2.0 * m * n * k
        tr = timeit(torch, lambda: torch.matmul(A, B.t(), out=C), 5)
        out = []
        for d in dirs:
            kern = libs[d].kernels[name]
            C.fill_(float("nan")); kern(a=A, b=B, c=C); torch.cuda.synchronize()
            err = ((C.float() - ref).abs().max() / ref.abs().max()).item()
            t = timeit(torch, lambda: kern(a=A, b=B, c=C), 5)
            out.append("%s=%.0f(%.3f%s)" % (os.path.basename(d), f / t / 1e12, tr / t, "" if err < 1e-2 else " BAD %.1e" % err))
        print("%s %dx%dx%d cuBLAS %.0f | %s" % (name, m, n, k, f / tr / 1e12, " ".join(out)), flush=True)
