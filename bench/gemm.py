#!/usr/bin/env python3
"""GEMM benchmark and large-shape check: cakec's gemm kernels against torch.matmul (cuBLAS),
side by side in one run, on the GPU machine.

C[M, N] = A[M, K] . B[N, K]^T, A and B K-major, fp32 accumulation. For each shape and input
dtype every gemm kernel of the generated folder whose dtypes match is checked against an
fp32 reference (torch.matmul of the fp32-converted inputs with TF32 off) and timed; the
fastest is cakec's answer for the shape (the launch-time choice a library makes between
tile configurations), and all of them are in the log. Times: CUDA graph replays of many
launches (bench/bandwidth.py's Timer: no host gaps between small kernels; --eager for
plain loops), median of several repetitions, each launch on the next of several copies of
A, B and C that together span at least 256 MiB, so that a decode-sized GEMM reads B from
HBM as it does in a model (one copy of B of 32 MiB would otherwise stay in the 50 MiB
L2); inputs are random (never zeros) and outputs are filled with NaN before the checked
launch.

The shapes are the GEMM issue's set (issue 13): M in {1, 8, ..., 8192} times six (N, K) pairs
of LLM layers, 4096^3, 6144^3, 8192^3 and ten ragged shapes (odd M and N, K not a multiple
of 64). Each row gives TFLOP/s, and for M <= 64 also the share of copy bandwidth the
time reaches (the bytes of A, B and C over the time, against a device-to-device copy of
1 GiB measured in the same run): decode-sized GEMMs are bound by reading B once.

Usage (from the repo root, on the GPU machine, with build/gen/gemm built):
    python3 bench/gemm.py [--build build] [--out gemm.md] [--quick] [--check-only]
                          [--entry-only] [--kernels K1,K2] [--dtypes bf16:bf16,f16]
                          [--min-m M] [--max-m M]
--entry-only times only the entry point (what a user calls) beside cuBLAS, not each
instance; --kernels keeps the instances named (comma list); --dtypes keeps the input
dtypes (or input:output pairs) named; --min-m and --max-m drop the shapes with a smaller
or larger M. An instance whose launcher refuses a shape for its strides (gemm_ts: N a
multiple of 8) is skipped there with a line saying so.
Exit status 1 if any checked result is over the error threshold.
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

# issue 13's set: M x (N, K) (M = 8192 with (8192, 8192) is 8192^3), the cubes, ragged ones
LAYERS = ((2560, 8192), (8192, 8192), (28672, 8192), (8192, 28672), (4096, 4096), (11008, 4096))
MS = (1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192)
RAGGED = [(1, 4097, 4104), (7, 11009, 4104), (17, 11008, 4096), (33, 2561, 8200),
          (127, 8191, 2056), (255, 28673, 1032), (1000, 999, 1032), (3001, 4095, 4104),
          (4000, 3000, 1000), (5119, 7167, 2120)]
SHAPES = [(m, n, k) for m in MS for (n, k) in LAYERS] + [(6144, 6144, 6144)] + RAGGED
# (4096^3 and 8192^3 are among the M x (N, K) shapes: 83 shapes in all)
QUICK_SHAPES = [(1, 4096, 4096), (16, 11008, 4096), (4096, 4096, 4096), (2048, 2560, 8192),
                (8192, 8192, 8192), (1000, 999, 1032)]
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
    ap.add_argument("--entry-only", action="store_true",
                    help="time the entry point and cuBLAS only, not every instance")
    ap.add_argument("--dtypes", help="comma list of input dtypes (bf16) or input:output pairs "
                    "(bf16:bf16) to run (default: all)")
    ap.add_argument("--max-m", type=int, help="skip the shapes with a larger M")
    ap.add_argument("--min-m", type=int, help="skip the shapes with a smaller M")
    ap.add_argument("--eager", action="store_true",
                    help="time plain loops of launches instead of CUDA graph replays")
    ap.add_argument("--kernels", help="comma list of instances to time (beside the entry "
                    "point and cuBLAS; default: every instance)")
    return ap.parse_args()


def copy_bandwidth(torch, dev):
    """Device-to-device copy of 1 GiB (read + write), GB/s: the floor a GEMM that reads
    its operands once can reach."""
    src = torch.empty(1 << 28, dtype=torch.float32, device=dev).uniform_()
    dst = torch.empty_like(src)
    t = timeit(torch, lambda: dst.copy_(src), 5)
    nbytes = 2 * src.numel() * 4
    del src, dst
    return nbytes / t / 1e9


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
    keep = set(a.dtypes.split(",")) if a.dtypes else None
    entry_types = set()
    workspace = set()       # kernels that take ws and sync too (gemm_stk: stream-K)
    for k in sorted(runnable, key=lambda e: e["kernel"]):
        if k.get("entry_instances"):
            continue
        name = k["kernel"]
        # the tensors only: the manifest lists the launcher's symbols (M, K, N) and tensor
        # maps (ta, tb) among the parameters too
        ps = {p["name"]: p for p in k["params"] if p.get("kind", "tensor") == "tensor"}
        if set(ps) == {"a", "b", "c", "ws", "sync"}:
            workspace.add(name)
        elif set(ps) != {"a", "b", "c"}:
            continue        # gemm_scaled's take scales too: bench/gemm_fp8.py
        if keep and ps["a"]["dtype"] not in keep and "%s:%s" % (ps["a"]["dtype"], ps["c"]["dtype"]) not in keep:
            continue
        if a.kernels and name not in a.kernels.split(","):
            continue
        if entry and name in next(e for e in runnable if e["kernel"] == entry)["entry_instances"]:
            entry_types.add((ps["a"]["dtype"], ps["c"]["dtype"]))
        groups.setdefault((ps["a"]["dtype"], ps["c"]["dtype"]), []).append(name)
    if a.entry_only:
        if not entry:
            print("FAIL: --entry-only, but %s/gen/gemm has no entry point 'gemm'" % a.build)
            return 1
        groups = {t: ns for t, ns in groups.items() if t in entry_types}
    if not groups:
        print("FAIL: no gemm kernels (tensors a, b, c) for %s in %s/gen/gemm" % (arch, a.build))
        return 1
    print("gemm kernels: %s" % ", ".join("%s->%s: %s" % (i, o, " ".join(ks))
                                          for (i, o), ks in sorted(groups.items())))
    failures = 0
    lines = []
    torch.manual_seed(0)

    # stream-K's workspace, one slot per SM, made once: sync is zero between calls
    slots = props.multi_processor_count
    ws = torch.empty(slots, 128, 256, dtype=torch.float32, device=dev) if workspace else None
    sync = torch.zeros(2 + 256 * slots, dtype=torch.int32, device=dev) if workspace else None

    def run(name, A, B, C):
        if name in workspace:
            lib.kernels[name](a=A, b=B, c=C, ws=ws, sync=sync)
        else:
            lib.kernels[name](a=A, b=B, c=C)

    def check(name, A, B, ref, odt):
        """(relative error, NaN left), or None where the launcher refuses the shape with
        CAKE_ERR_STRIDE (gemm_ts stores C by TMA: N must be a multiple of 8)."""
        C = torch.full((A.shape[0], B.shape[0]), float("nan"), dtype=odt, device=dev)
        try:
            run(name, A, B, C)
        except cakec_torch.CakeError as e:
            if e.status_name != "CAKE_ERR_STRIDE" or name == entry:
                raise
            print("n/a  %s %dx%dx%d: %s" % (name, A.shape[0], B.shape[0], A.shape[1], e), flush=True)
            return None
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
                res = check(name, A, B, ref, tdt[odt])
                if res is None:
                    continue
                err, nan = res
                ok = err <= THRESHOLD and not nan
                failures += not ok
                print("%s check %-14s %5dx%5dx%5d  rel err %.2e%s" % (
                    "ok  " if ok else "FAIL", name, m, n, k, err, "  NaN left" if nan else ""),
                    flush=True)

    # ---- the benchmark shapes: check, then time against cuBLAS ----
    shapes = QUICK_SHAPES if a.quick else SHAPES
    if a.max_m:
        shapes = [s for s in shapes if s[0] <= a.max_m]
    if a.min_m:
        shapes = [s for s in shapes if s[0] >= a.min_m]
    reps = 3 if a.quick else a.reps
    copy_gbs = None if a.check_only else copy_bandwidth(torch, dev)
    if copy_gbs:
        print("copy bandwidth (1 GiB, read + write): %.0f GB/s" % copy_gbs)
    timer = Timer(torch, reps, 0.005 if a.quick else 0.02, a.eager)
    bws = {}
    ratios = {}
    entry_ratios = {}
    rows = []
    for (idt, odt), names in sorted(groups.items()):
        for (m, n, k) in shapes:
            A = torch.randn(m, k, device=dev).to(tdt[idt])
            B = torch.randn(n, k, device=dev).to(tdt[idt])
            ref = A.float() @ B.float().t()
            # copies of A, B and C spanning >= 256 MiB: each launch reads its B from HBM
            per_set = (m * k + n * k) * A.element_size() + m * n * 4
            nrot = max(1, min(64, int(math.ceil(256 * 2**20 / per_set))))
            sets = [(A if i == 0 else A.clone(), B if i == 0 else B.clone(),
                     torch.empty(m, n, dtype=tdt[odt], device=dev)) for i in range(nrot)]

            def on(i, f):
                x = sets[i % nrot]
                f(*x)
            best = None
            per = []
            for name in ([entry] if a.entry_only else names):
                res = check(name, A, B, ref, tdt[odt])
                if res is None:
                    continue
                err, nan = res
                ok = err <= THRESHOLD and not nan
                failures += not ok
                if not ok:
                    print("FAIL check %s %dx%dx%d: rel err %.2e%s" % (
                        name, m, n, k, err, " NaN left" if nan else ""), flush=True)
                if a.check_only:
                    continue
                t = timer(lambda i: on(i, lambda x, y, z: run(name, x, y, z)))
                per.append((name, t, err))
                if best is None or t < best[1]:
                    best = (name, t, err)
            del ref
            if a.check_only:
                continue
            if entry and not a.entry_only:
                t_entry = timer(lambda i: on(i, lambda x, y, z: run(entry, x, y, z)))
                per.append((entry, t_entry, 0.0))
                entry_ratios.setdefault((idt, odt), []).append(t_entry / best[1])
            if tdt[odt] == tdt[idt]:
                t_ref = timer(lambda i: on(i, lambda x, y, z: torch.matmul(x, y.t(), out=z)))
            else:
                t_ref = timer(lambda i: on(i, lambda x, y, z: z.copy_(torch.matmul(x, y.t()))))
            flop = 2.0 * m * n * k
            ratio = t_ref / best[1]
            ratios.setdefault((idt, odt), []).append(((m, n, k), ratio))
            detail = " ".join("%s=%.0f" % (nm, flop / t / 1e12) for nm, t, _ in per)
            # bytes of A and B read once and C written once, against the copy bandwidth
            nbytes = (m * k + n * k) * A.element_size() + m * n * torch.empty(
                0, dtype=tdt[odt]).element_size()
            bw = (nbytes / best[1] / 1e9 / copy_gbs) if m <= 64 else None
            bw_ref = (nbytes / t_ref / 1e9 / copy_gbs) if m <= 64 else None
            if bw is not None:
                bws.setdefault((idt, odt), []).append(((m, n, k), bw))
            rows.append((idt, odt, m, n, k, best[0], flop / best[1] / 1e12,
                         flop / t_ref / 1e12, ratio, best[2],
                         "%.0f%%" % (100 * bw) if bw is not None else "-",
                         "%.0f%%" % (100 * bw_ref) if bw_ref is not None else "-", detail))
            print("%s->%s %5dx%5dx%5d  cakec %6.1f TFLOP/s (%s)  cuBLAS %6.1f TFLOP/s  "
                  "ratio %.3f%s  [%s]" % (idt, odt, m, n, k, flop / best[1] / 1e12, best[0],
                                         flop / t_ref / 1e12, ratio,
                                         "  copy bw %.0f%% (cuBLAS %.0f%%)" % (100 * bw, 100 * bw_ref)
                                         if bw is not None else "", detail), flush=True)
            del A, B, sets
            torch.cuda.empty_cache()

    summary = []
    for (idt, odt), rs in sorted(entry_ratios.items()):
        summary.append("- %s in, %s out: the entry point '%s' takes %.3f of the time of the instance it picks (median over %d shapes)"
                       % (idt, odt, entry, statistics.median(rs), len(rs)))
        print(summary[-1])
    for (idt, odt), rs in sorted(ratios.items()):
        med = statistics.median(r for _, r in rs)
        at8k = [r for s, r in rs if s == (8192, 8192, 8192)]
        low = min(rs, key=lambda x: x[1])
        summary.append("- %s in, %s out: median ratio to cuBLAS over %d shapes %.3f; lowest %.3f "
                       "(%dx%dx%d); below 0.85: %d; at 8192^3 %s"
                       % (idt, odt, len(rs), med, low[1], low[0][0], low[0][1], low[0][2],
                          sum(r < 0.85 for _, r in rs), "%.3f" % at8k[0] if at8k else "-"))
        print(summary[-1])
    for (idt, odt), bs in sorted(bws.items()):
        small = [(s, b) for s, b in bs if s[0] <= 16 and s[1] >= 4096 and s[2] >= 4096]
        if small:
            low = min(small, key=lambda x: x[1])
            summary.append("- %s in, %s out: M <= 16 with N, K >= 4096: lowest share of copy "
                           "bandwidth %.0f%% (%dx%dx%d) over %d shapes"
                           % (idt, odt, 100 * low[1], low[0][0], low[0][1], low[0][2], len(small)))
            print(summary[-1])
    if a.out:
        with open(a.out, "w") as f:
            f.write("# cakec GEMM benchmark\n\n- date: %s\n- GPU: %s (%d SMs)\n- torch %s\n"
                    "- commit: %s\n- command: `python3 bench/gemm.py %s`\n\n" % (
                        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), props.name,
                        props.multi_processor_count, torch.__version__,
                        git_rev(a.build),
                        " ".join(sys.argv[1:])))
            if copy_gbs:
                f.write("- copy bandwidth (1 GiB device-to-device, read + write): %.0f GB/s; "
                        "copy bw = (bytes of A + B + C) / time / that, for M <= 64\n"
                        "- timing: %s, median of %d; A, B and C rotated over >= 256 MiB\n\n"
                        % (copy_gbs, "plain loops" if a.eager else "CUDA graph replays", reps))
            f.write("| in | out | M | N | K | kernel | cakec TFLOP/s | cuBLAS TFLOP/s | ratio | rel err | copy bw | cuBLAS copy bw |\n")
            f.write("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|\n")
            for r in rows:
                f.write("| %s | %s | %d | %d | %d | %s | %.1f | %.1f | %.3f | %.1e | %s | %s |\n" % r[:12])
            f.write("\n" + "\n".join(summary) + "\n")
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
