#!/usr/bin/env python3
"""prof.py BUILD PART: one shape's entry-point call, three times, for ncu (call4.sh).
PART: ssd (B4 L4096 H80 N128, bench/ssd.py's inputs) or gemm:M,N,K (bf16)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))


def main():
    import torch
    import cakec_torch

    build, part = sys.argv[1], sys.argv[2]
    dev = torch.device("cuda", 0)
    if part == "ssd":
        import ssd_builds
        B, L, H, N = 4, 4096, 80, 128
        lib = cakec_torch.load(os.path.join(build, "gen", "ssd"))
        a = ssd_builds.inputs(torch, dev, B, L, H, N)
        y = torch.empty_like(a["x"])
        fin = torch.empty((B, H, 64, N), device=dev)
        ws = ssd_builds.workspace(lib, torch, dev, B, H, N)
        for _ in range(3):
            lib.ssd(y=y, final=fin, softplus=1, chunk=256, **a, **ws)
    else:
        M, Nn, K = (int(v) for v in part.split(":")[1].split(","))
        lib = cakec_torch.load(os.path.join(build, "gen", "gemm"))
        A = torch.randn(M, K, device=dev).to(torch.bfloat16)
        Bm = torch.randn(Nn, K, device=dev).to(torch.bfloat16)
        C = torch.empty(M, Nn, device=dev, dtype=torch.bfloat16)
        for _ in range(3):
            lib.gemm(a=A, b=Bm, c=C)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
