#!/usr/bin/env python3
"""FP8 GEMM benchmark: cakec's gemm_scaled (e4m3 in, bf16 out, per-tensor scales) against
torch._scaled_mm (cuBLASLt), side by side in one run on the same tensors, on the GPU machine.

C[M, N] = scale_a * scale_b * (A[M, K] . B[N, K]^T), A and B e4m3 and K-major (B is handed
to torch._scaled_mm as B.t(), the column-major operand it wants), scales one-element f32
tensors on the device. torch._scaled_mm runs twice: with use_fast_accum=True (the
tensor cores accumulate alone, as gemm_scaled does; the like-for-like anchor) and with
its default use_fast_accum=False (cuBLAS adds partial sums into f32 every few K blocks:
slower, more accurate). The error of each is max |C - ref| / max |ref| against an f32
reference of the same e4m3 values (torch.matmul of the f32-converted inputs, TF32 off).

The shapes are bench/gemm.py's (issue 13's set); --min-m keeps M >= that (issue 13's FP8
acceptance counts M >= 512). Shapes torch._scaled_mm refuses (it needs M, N and K
multiples of 16 in some versions) show '-' there. Times: CUDA graph replays (bench/
bandwidth.py's Timer), median of --reps, each launch on the next of several copies of A,
B and C spanning >= 256 MiB.

Usage (from the repo root, on the GPU machine, with build/gen/gemm built):
    python3 bench/gemm_fp8.py [--build build] [--out fp8.md] [--min-m 512] [--quick]
Exit status 1 if gemm_scaled's error is over THRESHOLD on any shape.
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
from bandwidth import Timer, git_rev  # noqa: E402
from gemm import SHAPES, QUICK_SHAPES  # noqa: E402

# max |c - ref| / max |ref| of an e4m3 GEMM into bf16: the output's rounding (2^-8) and the
# fp8 accumulation (kernels_src/gemm/gemm_scaled.cake states its bound), with room
THRESHOLD = 2e-2


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", help="write the report as markdown here")
    ap.add_argument("--quick", action="store_true", help="fewer shapes and repetitions")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--min-m", type=int, default=1, help="skip the shapes with a smaller M")
    ap.add_argument("--kernel", default="gemm_scaled",
                    help="the kernel or entry point to time (a comma list: each, and the fastest is the answer)")
    ap.add_argument("--gen", help="the generated folder (default BUILD/gen/gemm)")
    return ap.parse_args()


def main():
    a = parse_args()
    import torch
    import cakec_torch

    if not torch.cuda.is_available():
        print("SKIPPED: gemm_fp8: no CUDA device visible to torch")
        return 0
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda", 0)
    props = torch.cuda.get_device_properties(dev)
    lib = cakec_torch.load(a.gen or os.path.join(a.build, "gen", "gemm"))
    names = a.kernel.split(",")
    f8 = torch.float8_e4m3fn
    shapes = [s for s in (QUICK_SHAPES if a.quick else SHAPES) if s[0] >= a.min_m]
    reps = 3 if a.quick else a.reps
    timer = Timer(torch, reps, 0.005 if a.quick else 0.02)
    torch.manual_seed(0)
    rows, fast_ratios, def_ratios = [], [], []
    failures = 0
    for (m, n, k) in shapes:
        if k % 16:
            # e4m3 rows of a multiple of 16 bytes, as TMA (and cuBLASLt) need
            print("skip %5dx%5dx%5d: K is not a multiple of 16" % (m, n, k))
            continue
        A = torch.randn(m, k, device=dev).to(f8)
        B = torch.randn(n, k, device=dev).to(f8)
        sa = torch.tensor([0.75], device=dev)
        sb = torch.tensor([1.25], device=dev)
        ref = (A.float() @ B.float().t()) * (0.75 * 1.25)
        rmax = ref.abs().max().clamp(min=1e-30)

        def err_of(C):
            return ((C.float() - ref).abs().max() / rmax).item()

        per_set = 2 * (m * k + n * k) + 2 * m * n
        nrot = max(1, min(64, int(math.ceil(256 * 2**20 / per_set))))
        sets = [(A if i == 0 else A.clone(), B if i == 0 else B.clone(),
                 torch.empty(m, n, dtype=torch.bfloat16, device=dev)) for i in range(nrot)]
        per = []
        for name in names:
            kern = lib.kernels[name]
            C = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device=dev)
            try:
                kern(a=A, b=B, c=C, scale_a=sa, scale_b=sb)
            except cakec_torch.CakeError as ex:
                # gemm_scaled_ts stores C by TMA (N a multiple of 8): another kernel of the list runs it
                if ex.status_name != "CAKE_ERR_STRIDE" or len(names) == 1:
                    raise
                print("n/a  %s %dx%dx%d: %s" % (name, m, n, k, ex), flush=True)
                continue
            torch.cuda.synchronize()
            e = err_of(C)
            ok = e <= THRESHOLD and not bool(torch.isnan(C).any().item())
            failures += not ok
            if not ok:
                print("FAIL %s %dx%dx%d: rel err %.1e" % (name, m, n, k, e))
            t = timer(lambda i: kern(a=sets[i % nrot][0], b=sets[i % nrot][1], c=sets[i % nrot][2],
                                     scale_a=sa, scale_b=sb))
            per.append((t, name, e))
        t_ck, best, err = min(per)
        sa0, sb0 = sa.reshape(()), sb.reshape(())
        res = {}
        for fast in (True, False):
            try:
                Ct = torch._scaled_mm(A, B.t(), scale_a=sa0, scale_b=sb0, out_dtype=torch.bfloat16,
                                      use_fast_accum=fast)
                e = err_of(Ct)
                t = timer(lambda i: torch._scaled_mm(sets[i % nrot][0], sets[i % nrot][1].t(), scale_a=sa0,
                                                     scale_b=sb0, out_dtype=torch.bfloat16,
                                                     use_fast_accum=fast, out=sets[i % nrot][2]))
                res[fast] = (t, e)
            except RuntimeError as ex:
                res[fast] = None
                print("  torch._scaled_mm refused %dx%dx%d (fast %s): %s" % (m, n, k, fast, str(ex).split("\n")[0]))
        flop = 2.0 * m * n * k
        tf = lambda t: flop / t / 1e12  # noqa: E731
        rf = res[True][0] / t_ck if res[True] else None
        rd = res[False][0] / t_ck if res[False] else None
        if rf is not None:
            fast_ratios.append(((m, n, k), rf))
        if rd is not None:
            def_ratios.append(((m, n, k), rd))
        row = (m, n, k, best, tf(t_ck), "%.1f" % tf(res[True][0]) if res[True] else "-",
               "%.3f" % rf if rf is not None else "-", "%.1f" % tf(res[False][0]) if res[False] else "-",
               "%.3f" % rd if rd is not None else "-", err,
               "%.1e" % res[True][1] if res[True] else "-", "%.1e" % res[False][1] if res[False] else "-",
               " ".join("%s=%.0f" % (nm, tf(t)) for t, nm, _ in per))
        rows.append(row)
        print("%5dx%5dx%5d  cakec (%s) %7.1f TFLOP/s  fast %s (ratio %s)  default %s (ratio %s)  err %.1e "
              "(torch %s, %s)  [%s]" % row, flush=True)
        del A, B, sets, ref
        torch.cuda.empty_cache()
    summary = []
    for name, rs in (("use_fast_accum=True", fast_ratios), ("use_fast_accum=False", def_ratios)):
        if rs:
            low = min(rs, key=lambda x: x[1])
            summary.append("- against torch._scaled_mm %s: median ratio %.3f over %d shapes, lowest %.3f (%dx%dx%d)"
                           % (name, statistics.median(r for _, r in rs), len(rs), low[1], *low[0]))
            print(summary[-1])
    if a.out:
        with open(a.out, "w") as f:
            f.write("# cakec FP8 GEMM benchmark\n\n- date: %s\n- GPU: %s (%d SMs)\n- torch %s\n"
                    "- commit: %s\n- command: `python3 bench/gemm_fp8.py %s`\n- timing: CUDA graph "
                    "replays, median of %d; A, B and C rotated over >= 256 MiB\n\n" % (
                        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), props.name,
                        props.multi_processor_count, torch.__version__,
                        git_rev(a.build), " ".join(sys.argv[1:]), reps))
            f.write("| M | N | K | kernel | cakec TFLOP/s | fast TFLOP/s | ratio | default TFLOP/s | ratio | "
                    "err | fast err | default err | each |\n|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
            for r in rows:
                f.write("| %d | %d | %d | %s | %.1f | %s | %s | %s | %s | %.1e | %s | %s | %s |\n" % r)
            f.write("\n" + "\n".join(summary) + "\n")
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
