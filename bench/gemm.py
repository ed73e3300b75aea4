#!/usr/bin/env python3
"""GEMM benchmark and large-shape check: cakec's gemm kernels against torch.matmul (cuBLAS),
side by side in one run, on the GPU machine.

C[M, N] = A[M, K] . B[N, K]^T, A and B K-major, fp32 accumulation. For each shape and input
dtype every gemm kernel of the generated folder whose dtypes match is checked against an
fp32 reference (torch.matmul of the fp32-converted inputs with TF32 off) and timed; the
fastest is cakec's answer for the shape (the launch-time choice a library makes between
tile configurations), and all of them are in the log. Times: CUDA events around many
back-to-back launches after warm-up, median of several repetitions; inputs are random
(never zeros) and outputs are filled with NaN before the checked launch.

Usage (from the repo root, on the GPU machine, with build/gen/gemm built):
    python3 bench/gemm.py [--build build] [--out gemm.md] [--quick] [--check-only]
Exit status 1 if any checked result is over the error threshold.
"""
import argparse
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))

# 4096^3, 8192^3 and M x (N, K): 13 distinct shapes (M = 8192 with (8192, 8192) is 8192^3)
SHAPES = [(4096, 4096, 4096)] + [
    (m, n, k) for m in (512, 2048, 8192)
    for (n, k) in ((2560, 8192), (8192, 8192), (28672, 8192), (8192, 28672))]
CHECK_SHAPES = [(1, 1, 16), (1, 8, 16), (7, 13, 24), (64, 64, 64), (127, 255, 72),
                (129, 257, 4104), (300, 500, 1000), (1000, 999, 136), (2048, 2560, 8192)]
THRESHOLD = 1e-2   # max |c - ref| / max |ref|, for bf16/fp16 inputs and outputs


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", help="write the report as markdown here")
    ap.add_argument("--quick", action="store_true", help="fewer shapes and repetitions")
    ap.add_argument("--check-only", action="store_true", help="correctness only, no timing")
    ap.add_argument("--reps", type=int, default=5)
    return ap.parse_args()


def timeit(torch, fn, reps, min_s=0.05):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    one = max(start.elapsed_time(end) / 1e3, 1e-6)
    iters = max(3, min(200, int(min_s / one)))
    times = []
    for _ in range(reps):
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3 / iters)
    return statistics.median(times)


def main():
    a = parse_args()
    import torch
    import cakec_torch

    if not torch.cuda.is_available():
        print("SKIPPED: gemm: no CUDA device visible to torch")
        return 0
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    dev = torch.device("cuda", 0)
    props = torch.cuda.get_device_properties(dev)
    lib = cakec_torch.load(os.path.join(a.build, "gen", "gemm"))
    tdt = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}

    # gemm kernels built for this device (gemm_sm100_* are Blackwell's): tensors a, b, c;
    # group them by (input dtype, output dtype)
    arch = "sm_%d%da" % (props.major, props.minor)
    runnable = [e for e in lib.manifest if arch in e.get("targets", [])]
    groups = {}
    # the entry point (kernels_src/gemm/gemm.cake's generic kernel): it picks the instance
    # from the tensors' dtypes in C; it is timed beside the instance it picks
    entry = next((e["kernel"] for e in runnable if e.get("entry_instances") and e["kernel"] == "gemm"), None)
    for k in sorted(runnable, key=lambda e: e["kernel"]):
        if k.get("entry_instances"):
            continue
        name = k["kernel"]
        ps = {p["name"]: p for p in k["params"]}
        if not all(x in ps for x in ("a", "b", "c")):
            continue
        groups.setdefault((ps["a"]["dtype"], ps["c"]["dtype"]), []).append(name)
    if not groups:
        print("FAIL: no gemm kernels (tensors a, b, c) for %s in %s/gen/gemm" % (arch, a.build))
        return 1
    print("gemm kernels: %s" % ", ".join("%s->%s: %s" % (i, o, " ".join(ks))
                                          for (i, o), ks in sorted(groups.items())))
    failures = 0
    lines = []
    torch.manual_seed(0)

    def run(name, A, B, C):
        lib.kernels[name](a=A, b=B, c=C)

    def check(name, A, B, ref, odt):
        C = torch.full((A.shape[0], B.shape[0]), float("nan"), dtype=odt, device=dev)
        run(name, A, B, C)
        torch.cuda.synchronize()
        err = ((C.float() - ref).abs().max() / ref.abs().max().clamp(min=1e-30)).item()
        nan = bool(torch.isnan(C).any().item())
        return err, nan

    # ---- correctness on small and ragged shapes ----
    for (idt, odt), names in sorted(groups.items()):
        for (m, n, k) in CHECK_SHAPES:
            A = torch.randn(m, k, device=dev).to(tdt[idt])
            B = torch.randn(n, k, device=dev).to(tdt[idt])
            ref = A.float() @ B.float().t()
            for name in names + ([entry] if entry else []):
                err, nan = check(name, A, B, ref, tdt[odt])
                ok = err <= THRESHOLD and not nan
                failures += not ok
                print("%s check %-14s %5dx%5dx%5d  rel err %.2e%s" % (
                    "ok  " if ok else "FAIL", name, m, n, k, err, "  NaN left" if nan else ""),
                    flush=True)

    # ---- the benchmark shapes: check, then time against cuBLAS ----
    shapes = SHAPES[:3] if a.quick else SHAPES
    reps = 3 if a.quick else a.reps
    ratios = {}
    entry_ratios = {}
    rows = []
    for (idt, odt), names in sorted(groups.items()):
        for (m, n, k) in shapes:
            A = torch.randn(m, k, device=dev).to(tdt[idt])
            B = torch.randn(n, k, device=dev).to(tdt[idt])
            ref = A.float() @ B.float().t()
            best = None
            per = []
            for name in names:
                err, nan = check(name, A, B, ref, tdt[odt])
                ok = err <= THRESHOLD and not nan
                failures += not ok
                if not ok:
                    print("FAIL check %s %dx%dx%d: rel err %.2e%s" % (
                        name, m, n, k, err, " NaN left" if nan else ""), flush=True)
                if a.check_only:
                    continue
                C = torch.empty(m, n, dtype=tdt[odt], device=dev)
                t = timeit(torch, lambda: run(name, A, B, C), reps)
                per.append((name, t, err))
                if best is None or t < best[1]:
                    best = (name, t, err)
            del ref
            if a.check_only:
                continue
            if entry:
                C = torch.empty(m, n, dtype=tdt[odt], device=dev)
                t_entry = timeit(torch, lambda: run(entry, A, B, C), reps)
                per.append((entry, t_entry, 0.0))
                entry_ratios.setdefault((idt, odt), []).append(t_entry / best[1])
            Cr = torch.empty(m, n, dtype=tdt[odt], device=dev)
            if tdt[odt] == tdt[idt]:
                t_ref = timeit(torch, lambda: torch.matmul(A, B.t(), out=Cr), reps)
            else:
                t_ref = timeit(torch, lambda: torch.matmul(A, B.t()).to(tdt[odt]), reps)
            flop = 2.0 * m * n * k
            ratio = t_ref / best[1]
            ratios.setdefault((idt, odt), []).append(((m, n, k), ratio))
            detail = " ".join("%s=%.0f" % (nm, flop / t / 1e12) for nm, t, _ in per)
            rows.append((idt, odt, m, n, k, best[0], flop / best[1] / 1e12,
                         flop / t_ref / 1e12, ratio, best[2], detail))
            print("%s->%s %5dx%5dx%5d  cakec %6.1f TFLOP/s (%s)  cuBLAS %6.1f TFLOP/s  "
                  "ratio %.3f  [%s]" % (idt, odt, m, n, k, flop / best[1] / 1e12, best[0],
                                       flop / t_ref / 1e12, ratio, detail), flush=True)
            del A, B
            torch.cuda.empty_cache()

    summary = []
    for (idt, odt), rs in sorted(entry_ratios.items()):
        summary.append("- %s in, %s out: the entry point '%s' takes %.3f of the time of the instance it picks (median over %d shapes)"
                       % (idt, odt, entry, statistics.median(rs), len(rs)))
        print(summary[-1])
    for (idt, odt), rs in sorted(ratios.items()):
        med = statistics.median(r for _, r in rs)
        at8k = [r for s, r in rs if s == (8192, 8192, 8192)]
        summary.append("- %s in, %s out: median ratio to cuBLAS over %d shapes %.3f; at 8192^3 %s"
                       % (idt, odt, len(rs), med, "%.3f" % at8k[0] if at8k else "-"))
        print(summary[-1])
    if a.out:
        with open(a.out, "w") as f:
            f.write("# cakec GEMM benchmark\n\n- date: %s\n- GPU: %s (%d SMs)\n- torch %s\n"
                    "- commit: %s\n- command: `python3 bench/gemm.py%s`\n\n" % (
                        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), props.name,
                        props.multi_processor_count, torch.__version__,
                        os.environ.get("CAKEC_COMMIT", "unknown"),
                        " --quick" if a.quick else ""))
            f.write("| in | out | M | N | K | kernel | cakec TFLOP/s | cuBLAS TFLOP/s | ratio | rel err |\n")
            f.write("|---|---|---:|---:|---:|---|---:|---:|---:|---:|\n")
            for r in rows:
                f.write("| %s | %s | %d | %d | %d | %s | %.1f | %.1f | %.3f | %.1e |\n" % r[:10])
            f.write("\n" + "\n".join(summary) + "\n")
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
