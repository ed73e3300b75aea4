#!/usr/bin/env python3
"""Fused GEMM epilogue benchmark: cakec's entry point gemm_bias (C = A B^T + bias + res in
one kernel, either addend optional; it picks gemm_bias_ts at 256-, 192- or 128-wide tiles, or
gemm_bias) and its instances, against torch and against cakec's plain gemm (the same
product without the epilogue), side by side in one run on the same tensors, on the GPU
machine. torch: with both addends torch.addmm(bias, A, B^T) then .add_(res) (cuBLAS with
its bias epilogue, and a second pass for the residual); with the bias alone
torch.addmm(bias, A, B^T); with the residual alone torch.addmm(res, A, B^T).

Shapes: a transformer's output projection and down projection at prefill sizes (the
residual add is the residual stream), and a ragged one. Times: CUDA graph replays
(bench/bandwidth.py's Timer), median of --reps, inputs rotated over >= 256 MiB. Error: max
|C - ref| / max |ref| against the f32 product plus the addends of the same bf16 values.

Usage (from the repo root, on the GPU machine):
    python3 bench/gemm_bias.py [--build build] [--out bias.md] [--reps 5]
                               [--addends both,bias,res] [--instances]
--instances times each instance that takes the shape beside the entry point.
Exit status 1 if an error is over 1e-2 on any shape.
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

SHAPES = [(512, 4096, 4096), (2048, 4096, 4096), (8192, 4096, 4096), (2048, 8192, 8192),
          (4096, 8192, 8192), (8192, 8192, 28672), (4096, 4096, 11008), (1024, 4096, 11008),
          (1000, 999, 1032)]
INSTANCES = ["gemm_bias_ts_bf16", "gemm_bias_ts192_bf16", "gemm_bias_ts128_bf16", "gemm_bias_tr192_bf16", "gemm_bias_tr128_bf16",
             "gemm_bias_bf16"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--addends", default="both,bias,res",
                    help="comma list of both, bias, res: which addends each shape runs with")
    ap.add_argument("--instances", action="store_true", help="time every instance beside the entry point")
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
    insts = [(nm, lib.kernels[nm]) for nm in INSTANCES if a.instances]
    timer = Timer(torch, a.reps, 0.02)
    torch.manual_seed(0)
    rows, failures, ratios = [], 0, []
    bf = torch.bfloat16
    none1, none2 = torch.empty(0, dtype=bf, device=dev), torch.empty(0, 0, dtype=bf, device=dev)
    for (m, n, k) in SHAPES:
        A, B = torch.randn(m, k, device=dev).to(bf), torch.randn(n, k, device=dev).to(bf)
        bias, res = torch.randn(n, device=dev).to(bf), torch.randn(m, n, device=dev).to(bf)
        per = 2 * (m * k + n * k + 2 * m * n + n)
        nrot = max(1, min(32, int(math.ceil(256 * 2**20 / per))))
        sets = [(A.clone(), B.clone(), bias.clone(), res.clone(), torch.empty(m, n, dtype=bf, device=dev))
                for _ in range(nrot)]
        t_p = timer(lambda i: plain(a=sets[i % nrot][0], b=sets[i % nrot][1], c=sets[i % nrot][4]))
        for mode in a.addends.split(","):
            hb, hr = mode in ("both", "bias"), mode in ("both", "res")
            ref = A.float() @ B.float().t() + (bias.float() if hb else 0) + (res.float() if hr else 0)

            def run(fn, x):
                fn(a=x[0], b=x[1], c=x[4], bias=x[2] if hb else none1, res=x[3] if hr else none2)

            def torch_fn(i):
                x = sets[i % nrot]
                if mode == "both":
                    torch.addmm(x[2], x[0], x[1].t(), out=x[4]).add_(x[3])
                else:
                    torch.addmm(x[2] if hb else x[3], x[0], x[1].t(), out=x[4])
            chosen = fused.choose(a=A, b=B, c=sets[0][4], bias=bias if hb else none1, res=res if hr else none2)
            t_t = timer(torch_fn)
            fl = 2.0 * m * n * k
            for label, fn in [("gemm_bias", fused)] + insts:
                C = torch.full((m, n), float("nan"), dtype=bf, device=dev)
                try:
                    run(fn, (A, B, bias, res, C))
                except Exception as e:  # an instance that does not take the shape (N % 8)
                    print("     %5dx%5dx%5d %-4s %-22s refused: %s" % (m, n, k, mode, label, str(e).split("\n")[0]))
                    continue
                torch.cuda.synchronize()
                err = ((C.float() - ref).abs().max() / ref.abs().max()).item()
                ok = err <= 1e-2 and not bool(torch.isnan(C).any().item())
                failures += not ok
                t_f = timer(lambda i: run(fn, sets[i % nrot]))
                if label == "gemm_bias":
                    ratios.append(t_t / t_f)
                    label = "gemm_bias (%s)" % chosen
                rows.append((m, n, k, mode, label, t_f * 1e6, t_p * 1e6, t_t * 1e6, t_t / t_f, t_f / t_p,
                             fl / t_f / 1e12, err))
                print("%s %5dx%5dx%5d %-4s %-36s %8.1f us  gemm %8.1f us  torch %8.1f us  torch/fused %.3f  "
                      "fused/plain %.3f  %.0f TFLOP/s  err %.1e" % ((("ok  " if ok else "FAIL"),) + rows[-1][:12]),
                      flush=True)
        del A, B, bias, res, ref, sets
        torch.cuda.empty_cache()
    summary = "- median torch / gemm_bias (the entry point) over %d shape-addend pairs: %.3f (lowest %.3f)" % (
        len(ratios), statistics.median(ratios), min(ratios))
    print(summary)
    if a.out:
        with open(a.out, "w") as f:
            f.write("# gemm_bias\n\n- date: %s\n- GPU: %s\n- torch %s\n- command: `python3 bench/gemm_bias.py %s`\n\n"
                    % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), props.name, torch.__version__,
                       " ".join(sys.argv[1:])))
            f.write("| M | N | K | addends | kernel | us | gemm us | torch us | torch / fused | fused / gemm | "
                    "TFLOP/s | err |\n|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
            for r in rows:
                f.write("| %d | %d | %d | %s | %s | %.1f | %.1f | %.1f | %.3f | %.3f | %.0f | %.1e |\n" % r)
            f.write("\n" + summary + "\n")
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
