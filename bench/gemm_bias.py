#!/usr/bin/env python3
"""Fused GEMM epilogue benchmark: cakec's gemm_bias (C = A B^T + bias + res in one kernel)
against torch (torch.addmm(bias, A, B^T) then .add_(res): cuBLAS with its bias epilogue,
and a second pass for the residual) and against cakec's plain gemm (the same product
without the epilogue), side by side in one run on the same tensors, on the GPU machine.

Shapes: a transformer's output projection and down projection at prefill sizes (the
residual add is the residual stream). Times: CUDA graph replays (bench/bandwidth.py's
Timer), median of --reps, inputs rotated over >= 256 MiB. Error: max |C - ref| / max |ref|
against the f32 product plus bias plus res of the same bf16 values.

Usage (from the repo root, on the GPU machine):
    python3 bench/gemm_bias.py [--build build] [--out bias.md] [--reps 5]
Exit status 1 if gemm_bias's error is over 1e-2 on any shape.
"""
import argparse
import math
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from bandwidth import Timer  # noqa: E402

SHAPES = [(2048, 4096, 4096), (8192, 4096, 4096), (2048, 8192, 8192), (4096, 8192, 8192),
          (8192, 8192, 28672), (4096, 4096, 11008), (1000, 999, 1032)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out")
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    import torch
    import cakec_torch

    if not torch.cuda.is_available():
        print("SKIPPED: gemm_bias: no CUDA device visible to torch")
        return 0
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda", 0)
    props = torch.cuda.get_device_properties(dev)
    lib = cakec_torch.load(os.path.join(a.build, "gen", "gemm"))
    fused, plain = lib.kernels["gemm_bias"], lib.kernels["gemm"]
    timer = Timer(torch, a.reps, 0.02)
    torch.manual_seed(0)
    rows, failures, ratios = [], 0, []
    for (m, n, k) in SHAPES:
        bf = torch.bfloat16
        A, B = torch.randn(m, k, device=dev).to(bf), torch.randn(n, k, device=dev).to(bf)
        bias, res = torch.randn(n, device=dev).to(bf), torch.randn(m, n, device=dev).to(bf)
        ref = A.float() @ B.float().t() + bias.float() + res.float()
        C = torch.full((m, n), float("nan"), dtype=bf, device=dev)
        fused(a=A, b=B, c=C, bias=bias, res=res)
        torch.cuda.synchronize()
        err = ((C.float() - ref).abs().max() / ref.abs().max()).item()
        ok = err <= 1e-2 and not bool(torch.isnan(C).any().item())
        failures += not ok
        per = 2 * (m * k + n * k + 2 * m * n + n)
        nrot = max(1, min(32, int(math.ceil(256 * 2**20 / per))))
        sets = [(A.clone(), B.clone(), bias.clone(), res.clone(), torch.empty(m, n, dtype=bf, device=dev))
                for _ in range(nrot)]
        t_f = timer(lambda i: fused(a=sets[i % nrot][0], b=sets[i % nrot][1], c=sets[i % nrot][4],
                                    bias=sets[i % nrot][2], res=sets[i % nrot][3]))
        t_p = timer(lambda i: plain(a=sets[i % nrot][0], b=sets[i % nrot][1], c=sets[i % nrot][4]))

        def torch_fn(i):
            x = sets[i % nrot]
            torch.addmm(x[2], x[0], x[1].t(), out=x[4]).add_(x[3])
        t_t = timer(torch_fn)
        fl = 2.0 * m * n * k
        ratios.append(t_t / t_f)
        rows.append((m, n, k, t_f * 1e6, t_p * 1e6, t_t * 1e6, t_t / t_f, t_f / t_p, fl / t_f / 1e12, err))
        print("%s %5dx%5dx%5d  gemm_bias %8.1f us  gemm %8.1f us  torch addmm+add %8.1f us  torch/fused %.3f  "
              "fused/plain %.3f  %.0f TFLOP/s  err %.1e" % ((("ok  " if ok else "FAIL"),) + rows[-1][:9] + (err,)),
              flush=True)
        del A, B, bias, res, ref, C, sets
        torch.cuda.empty_cache()
    summary = "- median torch (addmm + add) / gemm_bias over %d shapes: %.3f (lowest %.3f)" % (
        len(ratios), statistics.median(ratios), min(ratios))
    print(summary)
    if a.out:
        with open(a.out, "w") as f:
            f.write("# gemm_bias\n\n- date: %s\n- GPU: %s\n- torch %s\n- command: `python3 bench/gemm_bias.py %s`\n\n"
                    % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), props.name, torch.__version__,
                       " ".join(sys.argv[1:])))
            f.write("| M | N | K | gemm_bias us | gemm us | torch us | torch / gemm_bias | gemm_bias / gemm | "
                    "TFLOP/s | err |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
            for r in rows:
                f.write("| %d | %d | %d | %.1f | %.1f | %.1f | %.3f | %.3f | %.0f | %.1e |\n" % r)
            f.write("\n" + summary + "\n")
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
