#!/usr/bin/env python3
"""Session 56: run one gemm kernel (or cuBLAS) on one shape a few times, for ncu.

    python3 gemm_prof.py BUILD KERNEL|cublas M N K [REPS]
A and B rotate over 8 copies (cold L2, as bench/gemm.py times them)."""
import os, sys
import torch
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "python"))
import cakec_torch

build, name, m, n, k = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
reps = int(sys.argv[6]) if len(sys.argv) > 6 else 6
dev = torch.device("cuda", 0)
torch.manual_seed(0)
A = [torch.randn(m, k, device=dev).to(torch.bfloat16) for _ in range(8)]
B = [torch.randn(n, k, device=dev).to(torch.bfloat16) for _ in range(8)]
C = [torch.full((m, n), float("nan"), device=dev, dtype=torch.bfloat16) for _ in range(8)]
lib = None if name == "cublas" else cakec_torch.load(os.path.join(build, "gen", "gemm"))
for i in range(reps):
    j = i % 8
    if lib is None:
        torch.matmul(A[j], B[j].t(), out=C[j])
    else:
        lib.kernels[name](a=A[j], b=B[j], c=C[j])
torch.cuda.synchronize()
ref = A[(reps - 1) % 8].float() @ B[(reps - 1) % 8].float().t()
err = ((C[(reps - 1) % 8].float() - ref).abs().max() / ref.abs().max()).item()
print("%s %dx%dx%d rel err %.2e" % (name, m, n, k, err))
