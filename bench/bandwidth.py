#!/usr/bin/env python3
"""Memory bandwidth of the cakec kernels against copies and PyTorch, side by side.

    python3 bench/bandwidth.py [--build build] [--out results.md] [--quick]

Runs on a GPU machine with PyTorch; the kernels come from the build folder's generated
launchers (build/gen/<family>/, loaded with python/cakec_torch.py: the library prebuilt
there, or compiled with cc if the prebuilt one is missing). In one run it measures

- device-to-device copy bandwidth: torch's copy_ of a 1 GiB buffer and cuMemcpyDtoDAsync
  of the same buffers (bytes read + written);
- axpby (f32) and silu_mul (bf16) at 1 GiB per tensor, in GB/s counting the bytes the
  operation must read and write, as a share of the best copy bandwidth, against PyTorch's
  nearest equivalents (y.lerp_(x, 0.5), which is a 0.5 x + 0.5 y in one kernel, and
  silu(gate) * up);
- rmsnorm (bf16) and softmax (f32) against torch.nn.functional.rms_norm and
  torch.softmax for M in {4096, 16384} x N in {1024, 4096, 8192}, with the ratio of
  times (above 1: cakec is faster). Both cakec variants are timed, one block per row
  (rmsnorm, softmax) and one warp per row (rmsnorm_rows, softmax_rows); the faster one
  is cakec's row for the shape, the other's time is shown beside it.

Timing: after warm-up, a loop of launches (calibrated to >= 20 ms) is captured into a CUDA
graph, and CUDA events time its replays: the median of several repetitions, per launch. The
graph keeps Python and launch overheads out (--eager times the plain loop instead). The
row-wise kernels rotate over several copies of their tensors (>= 256 MiB in all), so
that no iteration finds its inputs in the 50-60 MB L2 left by the previous one. Each
kernel's output is compared with PyTorch's once before timing.
Prints a table and writes it, with the date, GPU, driver and versions, as markdown.
"""

import argparse
import ctypes
import datetime
import math
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "python"))

GiB = 1 << 30


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build folder holding gen/<family>/ (default: build)")
    ap.add_argument("--out", help="write the markdown report here")
    ap.add_argument("--quick", action="store_true",
                    help="fewer shapes and repetitions (a smoke test, not a measurement)")
    ap.add_argument("--reps", type=int, default=7, help="repetitions; the median is reported")
    ap.add_argument("--eager", action="store_true",
                    help="time plain loops of launches instead of CUDA graph replays")
    return ap.parse_args()


class Timer(object):
    """Median GPU seconds per call of fn(i). By default the calls are captured into a CUDA
    graph and the graph is replayed, so that Python and launch overheads (several us per
    call, as long as a small kernel) leave no gaps between kernels; eager=True times a
    plain loop of calls instead."""

    def __init__(self, torch, reps, min_s, eager=False):
        self.torch = torch
        self.reps = reps
        self.min_s = min_s
        self.eager = eager

    def _time(self, run):
        torch = self.torch
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / 1e3

    def _runner(self, fn, iters):
        torch = self.torch
        if self.eager:
            return lambda: [fn(i) for i in range(iters)], None
        g = torch.cuda.CUDAGraph()
        # torch.cuda.graph makes its capture stream current: the launchers follow it
        with torch.cuda.graph(g):
            for i in range(iters):
                fn(i)
        return g.replay, g

    def __call__(self, fn):
        torch = self.torch
        for i in range(3):          # warm-up: module loads, JIT, allocator
            fn(i)
        torch.cuda.synchronize()
        per_call = self._time(lambda: [fn(i) for i in range(10)]) / 10
        iters = int(min(2000, max(10, math.ceil(self.min_s / max(per_call, 1e-7)))))
        run, g = self._runner(fn, iters)
        run()
        t = self._time(run)
        if t < self.min_s / 2 and iters < 2000:
            # eager timing overestimated the per-call time: lengthen the loop once
            iters = int(min(2000, math.ceil(iters * self.min_s / max(t, 1e-7))))
            del run, g
            run, g = self._runner(fn, iters)
            run()
        times = [self._time(run) / iters for _ in range(self.reps)]
        del run, g
        torch.cuda.synchronize()
        return statistics.median(times)


def driver_version():
    try:
        cu = ctypes.CDLL("libcuda.so.1")
        v = ctypes.c_int()
        cu.cuDriverGetVersion(ctypes.byref(v))
        return "%d.%d" % (v.value // 1000, v.value % 1000 // 10)
    except OSError:
        return "?"


def git_rev(build=None):
    """The commit a report names: CAKEC_COMMIT if set; else, for a build folder of a bundle
    (bench/make_bundle.sh: NAME/build beside NAME/COMMIT), the bundle's commit, which built
    the kernels; else the repository's HEAD (on the GPU machine a copy of the tree whose
    .git may be older than the kernels it runs)."""
    if os.environ.get("CAKEC_COMMIT"):
        return os.environ["CAKEC_COMMIT"]
    stamp = os.path.join(os.path.abspath(build), os.pardir, "COMMIT") if build else None
    if stamp and os.path.isfile(stamp):
        with open(stamp) as f:
            return f.read().strip() + " (bundle)"
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              check=True).stdout.decode().strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def max_rel(got, ref, floor):
    got, ref = got.double(), ref.double()
    return ((got - ref).abs() / ref.abs().clamp(min=floor)).max().item()


def copy_bandwidth(torch, timer, size, dev, notes, eager=False):
    """The device's copy bandwidth, the reference of every "% copy" and memory floor
    (bench/gdp.py, bench/cp_fixup.py use it too): a size-byte buffer copied by torch's
    copy_, by cuMemcpyDtoDAsync and by a torch kernel (x * 1 on f32, the same bytes read
    and written), and with eager also by copy_ timed without a graph. copy_ and
    cuMemcpyDtoD of contiguous buffers may go to the copy engines, which move less than the
    SMs can, so the best of them all is the reference and a share of it is never flattered
    by a slow copy. Returns (best bytes/s read + written, "name N GB/s, ..."); a copy that
    could not be measured is noted in notes."""
    src = torch.randint(0, 255, (size,), dtype=torch.uint8, device=dev)
    dst = torch.empty_like(src)
    times = {"torch_copy": timer(lambda i: dst.copy_(src))}
    try:
        cu = ctypes.CDLL("libcuda.so.1")
        fn = cu.cuMemcpyDtoDAsync_v2
        fn.argtypes = [ctypes.c_uint64, ctypes.c_uint64, ctypes.c_size_t, ctypes.c_void_p]
        fn.restype = ctypes.c_int

        def memcpy(i):
            r = fn(dst.data_ptr(), src.data_ptr(), size, torch.cuda.current_stream().cuda_stream)
            if r != 0:
                raise RuntimeError("cuMemcpyDtoDAsync failed: %d" % r)
        times["memcpy"] = timer(memcpy)
    except (OSError, AttributeError) as e:
        notes.append("cuMemcpyDtoDAsync not measured: %s" % e)
    srcf, dstf = src.view(torch.float32), dst.view(torch.float32)
    times["sm_copy"] = timer(lambda i: torch.mul(srcf, 1.0, out=dstf))
    if eager:
        times["eager_copy"] = Timer(torch, timer.reps, timer.min_s, True)(lambda i: dst.copy_(src))
    del src, dst, srcf, dstf
    best = 2 * size / min(times.values())
    return best, ", ".join("%s %.0f GB/s" % (k, 2 * size / t / 1e9) for k, t in times.items())


def main():
    a = parse_args()
    import torch
    import torch.nn.functional as F
    import cakec_torch

    if not torch.cuda.is_available():
        print("SKIPPED: bandwidth: no CUDA device visible to torch")
        return 0
    dev = torch.device("cuda", 0)
    torch.cuda.set_device(dev)
    props = torch.cuda.get_device_properties(dev)
    gen = os.path.join(a.build, "gen")
    built = cakec_torch.targets(os.path.join(gen, "elementwise"))
    if "sm_%d%da" % (props.major, props.minor) not in built:
        print("SKIPPED: bandwidth: %s is sm_%d%d; the kernels are built for %s"
              % (props.name, props.major, props.minor, ", ".join(built)))
        return 0
    ew = cakec_torch.load(os.path.join(gen, "elementwise"))
    red = cakec_torch.load(os.path.join(gen, "reduction"))
    timer = Timer(torch, 3 if a.quick else a.reps, 0.005 if a.quick else 0.02, a.eager)
    rows = []
    notes = []
    torch.manual_seed(0)

    def row(op, shape, nbytes, t_cake, t_torch, torch_name, check, others=""):
        rows.append(dict(op=op, shape=shape, bytes=nbytes, t_cake=t_cake, t_torch=t_torch,
                         torch_name=torch_name, check=check, others=others))
        print("%-9s %-14s cakec %9.1f us %7.0f GB/s | %-22s %9s us %7s GB/s | check %s" % (
            op, shape, t_cake * 1e6, nbytes / t_cake / 1e9, torch_name,
            "%.1f" % (t_torch * 1e6) if t_torch else "-",
            "%.0f" % (nbytes / t_torch / 1e9) if t_torch else "-", check) +
              (" | %s" % others if others else ""), flush=True)

    # ---- copies ----
    size = (64 << 20) if a.quick else GiB
    best_copy, copy_desc = copy_bandwidth(torch, timer, size, dev, notes, eager=True)
    print("copy %d MiB (read + write): %s; reference %.0f GB/s" % (
        size >> 20, copy_desc, best_copy / 1e9), flush=True)
    torch.cuda.empty_cache()

    # ---- elementwise at 1 GiB per tensor ----
    n = size // 4
    x = torch.rand(n, device=dev) * 2 - 1
    y = torch.rand(n, device=dev) * 2 - 1
    y_ref = 0.5 * x + 0.5 * y
    ew.axpby(x=x, y=y, a=0.5, b=0.5)
    check = "%.1e" % max_rel(y, y_ref, 1.0)
    del y_ref
    t_cake = timer(lambda i: ew.axpby(x=x, y=y, a=0.5, b=0.5))
    t_torch = timer(lambda i: y.lerp_(x, 0.5))
    row("axpby", "n=%d" % n, 3 * 4 * n, t_cake, t_torch, "y.lerp_(x, 0.5)", check)
    del x, y
    torch.cuda.empty_cache()

    n = size // 2
    gate = (torch.rand(n, device=dev) * 12 - 6).bfloat16()
    up = (torch.rand(n, device=dev) * 4 - 2).bfloat16()
    out = torch.empty_like(gate)
    ew.silu_mul(gate=gate, up=up, out=out)
    check = "%.1e" % max_rel(out, F.silu(gate.float()) * up.float(), 1e-6)
    t_cake = timer(lambda i: ew.silu_mul(gate=gate, up=up, out=out))
    t_torch = timer(lambda i: torch.mul(F.silu(gate), up, out=out))
    row("silu_mul", "n=%d" % n, 3 * 2 * n, t_cake, t_torch, "silu(gate) * up", check)
    del gate, up, out
    torch.cuda.empty_cache()

    # ---- rmsnorm and softmax ----
    has_rms_norm = hasattr(F, "rms_norm")
    if not has_rms_norm:
        notes.append("torch %s has no F.rms_norm: compared with x * rsqrt(mean(x^2) + eps) * w"
                     % torch.__version__)

    def torch_rms(x, w, eps):
        if has_rms_norm:
            return F.rms_norm(x, (x.shape[-1],), w, eps)
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * w.float()).to(x.dtype)

    ms = (4096,) if a.quick else (4096, 16384)
    ns = (1024, 4096) if a.quick else (1024, 4096, 8192)
    for op in ("rmsnorm", "softmax"):
        # the block-per-row kernel and, where built, the warp-per-row one: both are timed
        # and the faster is cakec's answer for the shape (both times are in the report)
        variants = [v for v in (op, op + "_rows") if v in red.kernels]
        for m in ms:
            for nn in ns:
                elem = 2 if op == "rmsnorm" else 4
                set_bytes = 2 * m * nn * elem
                k = max(1, min(16, math.ceil((256 << 20) / set_bytes)))
                times, checks = {}, {}
                if op == "rmsnorm":
                    xs = [(torch.rand(m, nn, device=dev) * 4 - 2).bfloat16() for _ in range(k)]
                    ws = (torch.rand(nn, device=dev) + 0.5).bfloat16()
                    ys = [torch.empty_like(xs[0]) for _ in range(k)]
                    ref = torch_rms(xs[0].float(), ws.float(), 1e-5)
                    for v in variants:
                        kern = red.kernels[v]
                        ys[0].fill_(float("nan"))
                        kern(x=xs[0], w=ws, y=ys[0], eps=1e-5)
                        checks[v] = max_rel(ys[0], ref, 1e-6)
                        times[v] = timer(lambda i: kern(x=xs[i % k], w=ws, y=ys[i % k], eps=1e-5))
                    t_torch = timer(lambda i: torch_rms(xs[i % k], ws, 1e-5))
                    nbytes = 2 * m * nn * 2 + nn * 2
                    tname = "F.rms_norm" if has_rms_norm else "rms_norm (composite)"
                else:
                    xs = [torch.rand(m, nn, device=dev) * 16 - 8 for _ in range(k)]
                    ys = [torch.empty_like(xs[0]) for _ in range(k)]
                    ref = torch.softmax(xs[0].double(), -1)
                    for v in variants:
                        kern = red.kernels[v]
                        ys[0].fill_(float("nan"))
                        kern(x=xs[0], y=ys[0])
                        checks[v] = max_rel(ys[0], ref, 1e-15)
                        times[v] = timer(lambda i: kern(x=xs[i % k], y=ys[i % k]))
                    t_torch = timer(lambda i: torch.softmax(xs[i % k], -1))
                    nbytes = 2 * m * nn * 4
                    tname = "torch.softmax"
                best = min(times, key=times.get)
                others = ", ".join("%s %.1f us" % (v, times[v] * 1e6) for v in variants if v != best)
                row(best, "%dx%d" % (m, nn), nbytes, times[best], t_torch, tname,
                    "%.1e" % checks[best], others)
                del xs, ys, ref
                torch.cuda.empty_cache()

    # ---- the report ----
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = [
        "# cakec bandwidth benchmark",
        "",
        "- date: %s" % now,
        "- GPU: %s (sm_%d%d, %d SMs, %.0f GiB)" % (props.name, props.major, props.minor,
                                                  props.multi_processor_count,
                                                  props.total_memory / GiB),
        "- driver: %s; torch %s (CUDA %s); cakec %s" % (driver_version(), torch.__version__,
                                                         torch.version.cuda, git_rev(a.build)),
        "- command: `python3 bench/bandwidth.py %s`" % " ".join(sys.argv[1:]),
        "- copy bandwidth (%d MiB, read + write): %s; reference (best) %.0f GB/s"
        % (size >> 20, copy_desc, best_copy / 1e9),
        "- method: CUDA events around %s of >= 20 ms of back-to-back launches after warm-up, "
        "median of %d repetitions; GB/s = bytes the operation must read and write / time (1 GB = 1e9 B); "
        "%% copy = share of the best copy bandwidth; speedup = torch time / cakec time; check = "
        "max relative difference from a reference (torch) on the first launch; other variant = "
        "the time of the cakec kernel not chosen for the shape"
        % ("plain loops" if a.eager else "CUDA graph replays", timer.reps),
    ]
    for note in notes:
        head.append("- note: %s" % note)
    table = [
        "",
        "| cakec kernel | shape | MB moved | cakec us | cakec GB/s | % copy | torch op | torch us | torch GB/s | speedup | check | other variant |",
        "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        gbs = r["bytes"] / r["t_cake"] / 1e9
        tg = r["bytes"] / r["t_torch"] / 1e9 if r["t_torch"] else None
        table.append("| %s | %s | %.0f | %.1f | %.0f | %.0f%% | %s | %s | %s | %s | %s | %s |" % (
            r["op"], r["shape"], r["bytes"] / 1e6, r["t_cake"] * 1e6, gbs,
            100 * r["bytes"] / r["t_cake"] / best_copy, r["torch_name"],
            "%.1f" % (r["t_torch"] * 1e6) if r["t_torch"] else "-",
            "%.0f" % tg if tg else "-",
            "%.2fx" % (r["t_torch"] / r["t_cake"]) if r["t_torch"] else "-", r["check"],
            r["others"] or "-"))
    text = "\n".join(head + table) + "\n"
    print()
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
        print("bandwidth: wrote %s" % a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
