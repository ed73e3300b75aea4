#!/usr/bin/env python3
"""Mamba-2's chunked scan (kernels_src/ssd) against mamba_ssm's mamba_chunk_scan_combined.

    python3 bench/ssd.py [--build build] [--out ssd.md] [--quick] [--reps 7] [--eager]
                         [--shapes B,L,H,N,G;...] [--chunk 256] [--dtypes bf16] [--z]
                         [--mamba PATH] [--pythonpath DIR] [--cakec PATH]

Runs on a GPU machine with PyTorch and Triton. cakec's kernels are what the build wrote
into build/gen/ssd/ (the instances ssd_<type>_n<N> and the entry point ssd), loaded with
python/cakec_torch.py. The anchor is mamba_ssm's Triton implementation (five kernels:
chunk cumsum, chunk state, state passing, bmm, chunk scan), which the GPU machine does not
have installed: --mamba names a folder holding the `mamba_ssm` package of its source
distribution (`pip download --no-deps --no-binary :all: mamba-ssm`, or the sdist's URL from
https://pypi.org/pypi/mamba-ssm/json, unpacked; version 2.3.2.post1 was used). Only
mamba_ssm/ops/triton and mamba_ssm/utils are imported: the package's own __init__.py,
which loads its CUDA extension, is bypassed by registering an empty `mamba_ssm` package
whose path is the sdist's. It needs einops (and packaging): --pythonpath adds a folder (an
unpacked einops wheel) to sys.path where torch's environment lacks it.

The call, as a Mamba-2 layer makes it in prefill (its default rmsnorm gating takes z
outside the scan; --z passes z): y, final = mamba_chunk_scan_combined(x, dt, A, B, C,
chunk, D=D, z=None, dt_bias=dt_bias, dt_softplus=True, return_final_states=True), and
cakec's entry point ssd with the same tensors (final state f32 [B, H, 64, N]; no chunk
states). Inputs: x, B, C standard normal in the type; dt U(-4, -1) in the type (with
softplus and dt_bias U(-0.5, 0.5), dt' from 0.01 to 0.5); A = -U(1, 16); D U(-1, 1).
mamba_ssm's initial state and final state are f32 as cakec's.

Per shape it measures, in one run: cakec's time and mamba_ssm's (CUDA graph replays of a
calibrated loop, median of --reps; --eager: plain loops), tokens/s (B L / time), the ratio
(mamba time / cakec time: above 1 cakec is faster), and each against the bytes-and-FLOPs
floor: the bytes the operation must move (x, y, B, C, dt, z, the final state) at the
device's best copy bandwidth (bench/bandwidth.py's copy_bandwidth) plus the FLOPs of the
chunked algorithm at mamba's chunk (per chunk and group C B^T 2 Q^2 N, per chunk and head
the masked product with x Q^2 P, the chunk state 2 Q P N and the output's state term 2 Q N
P) at the tensor cores' dense peak (989.4 TFLOP/s bf16/f16 on H100/H200 SXM); the share is
floor / time. Also the first call of each: mamba_ssm's (autotuning and Triton's
compilation, with Triton's cache pointed at a new empty folder) on the wall clock, and
cakec's compile time (the cakec binary, --cakec or BUILD/../cakec or BUILD/cakec, on
kernels_src/ssd/ssd.cake for the instance, best of 3; "-" without one) and its first
launch (the module load).

Correctness, before timing: cakec's y and final state against a float32 sequential
recurrence in torch (one step at a time over L) and against mamba_ssm's; the normwise
relative error ||got - ref|| / ||ref|| over the whole tensor. A cakec error above 1e-2
against the recurrence marks the row WRONG and the exit status 1.

The acceptance the numbers are read against (issue 15): >= 3.0x mamba_chunk_scan_combined
on B1 L8192 H128 P64 N128 G1 and B4 L4096 H80 P64 N128 G1 (chunk 256, bf16), >= 2x on B16
L384 H64 P64 N128.

--quick: B1 L1000 H8 N128 G1 and B2 L384 H16 N64 G2, few reps. Prints the rows and the
report (markdown, with the date, GPU, driver, versions and commit), written to --out. Exit
status 1 when build/gen/ssd is missing, mamba_ssm cannot be loaded, or a row is WRONG;
0 otherwise (also without a GPU or on another architecture: SKIPPED).
"""

import argparse
import datetime
import os
import subprocess
import sys
import tempfile
import time
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from bandwidth import Timer, copy_bandwidth, driver_version, git_rev  # noqa: E402

P = 64
PEAK_TFLOPS = 989.4     # dense bf16/f16 tensor-core peak of the H100/H200 SXM
SHAPES = "1,8192,128,128,1;4,4096,80,128,1;16,384,64,128,1"
QUICK_SHAPES = "1,1000,8,128,1;2,384,16,64,2"
TOL = 1e-2


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build folder holding gen/ssd/ (default: build)")
    ap.add_argument("--out", help="write the markdown report here")
    ap.add_argument("--quick", action="store_true", help="a smoke test: small shapes, few reps")
    ap.add_argument("--reps", type=int, default=7, help="repetitions; the median is reported")
    ap.add_argument("--eager", action="store_true", help="time plain loops, not graph replays")
    ap.add_argument("--shapes", help="B,L,H,N,G;... with P = 64 (default: %s)" % SHAPES)
    ap.add_argument("--chunk", type=int, default=256, help="mamba_ssm's chunk size (64, 128, 256)")
    ap.add_argument("--dtypes", default="bf16", help="bf16, f16 (comma list)")
    ap.add_argument("--z", action="store_true", help="gate y with z inside the scan (silu)")
    ap.add_argument("--mamba", help="a folder holding mamba_ssm/ (its source distribution)")
    ap.add_argument("--pythonpath", action="append", default=[],
                    help="a folder to add to sys.path (einops), may repeat")
    ap.add_argument("--cakec", help="the cakec binary, for the compile time")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    a.shape_list = []
    for s in (a.shapes or (QUICK_SHAPES if a.quick else SHAPES)).split(";"):
        if s.strip():
            v = tuple(int(x) for x in s.split(","))
            if len(v) != 5 or min(v) <= 0 or v[2] % v[4]:
                ap.error("shape '%s' is not B,L,H,N,G with G dividing H" % s)
            a.shape_list.append(v)
    a.dtype_list = [x for x in a.dtypes.split(",") if x]
    if a.chunk not in (64, 128, 256):
        ap.error("--chunk is 64, 128 or 256")
    return a


def load_mamba(path):
    """mamba_chunk_scan_combined from the source distribution at path, without the
    package's __init__.py (it imports the CUDA extension); None and the reason if not."""
    if not path:
        return None, "no --mamba folder given"
    pkg = os.path.join(os.path.abspath(path), "mamba_ssm")
    if not os.path.isdir(pkg):
        return None, "%s has no mamba_ssm/ folder" % path
    mod = types.ModuleType("mamba_ssm")
    mod.__path__ = [pkg]
    sys.modules["mamba_ssm"] = mod
    try:
        from mamba_ssm.ops.triton.ssd_combined import mamba_chunk_scan_combined
    except Exception as e:      # noqa: BLE001 (a missing dependency, a Triton API change)
        return None, "importing mamba_ssm.ops.triton.ssd_combined failed: %s: %s" % (
            type(e).__name__, e)
    return mamba_chunk_scan_combined, None


def cold_triton_cache():
    d = tempfile.mkdtemp(prefix="ssd-bench-cache-")
    os.environ["TRITON_CACHE_DIR"] = os.path.join(d, "triton")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(d, "inductor")
    return d


def cakec_binary(a):
    for c in (a.cakec, os.path.join(a.build, "..", "cakec"), os.path.join(a.build, "cakec")):
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def compile_ms(cakec, inst):
    """cakec's time from ssd.cake to PTX for one instance, best of 3, in ms (None if not)."""
    if not cakec:
        return None
    best = None
    with tempfile.TemporaryDirectory() as d:
        for _ in range(3):
            t0 = time.perf_counter()
            r = subprocess.run([cakec, "--emit=ptx", "--kernel", inst, "-o", d,
                                os.path.join(ROOT, "kernels_src", "ssd", "ssd.cake")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            t = (time.perf_counter() - t0) * 1e3
            if r.returncode != 0:
                return None
            best = t if best is None else min(best, t)
    return best


def recurrence(torch, x, dt, A, Bm, Cm, D, dt_bias, z):
    """y and the final state by the sequential recurrence, float32, one step at a time."""
    Bn, L, H, _ = x.shape
    G, N = Bm.shape[2], Bm.shape[3]
    rep = H // G
    v = dt.float() + dt_bias.view(1, 1, H)
    v = torch.where(v <= 20.0, torch.nn.functional.softplus(v), v)
    decay = torch.exp(v * A.view(1, 1, H))
    s = torch.zeros((Bn, H, P, N), device=x.device, dtype=torch.float32)
    y = torch.empty((Bn, L, H, P), device=x.device, dtype=torch.float32)
    xf = x.float()
    bf = Bm.float().repeat_interleave(rep, dim=2)
    cf = Cm.float().repeat_interleave(rep, dim=2)
    for t in range(L):
        s = s * decay[:, t].view(Bn, H, 1, 1) + \
            (v[:, t].view(Bn, H, 1) * xf[:, t]).unsqueeze(-1) * bf[:, t].unsqueeze(2)
        y[:, t] = torch.einsum("bhpn,bhn->bhp", s, cf[:, t])
    y = y + D.view(1, 1, H, 1) * xf
    if z is not None:
        zf = z.float()
        y = y * zf * torch.sigmoid(zf)
    return y, s


def norm_err(got, ref):
    g, r = got.float(), ref.float()
    if not bool(g.isfinite().all()):
        return float("inf")
    return ((g - r).norm() / r.norm().clamp(min=1e-30)).item()


def floor_s(B, L, H, N, G, chunk, esize, z, copy_bw):
    """The bytes-and-FLOPs floor (see the top of the file), seconds."""
    nbytes = esize * (2 * B * L * H * P + 2 * B * L * G * N + B * L * H) + 4 * B * H * P * N
    if z:
        nbytes += esize * B * L * H * P
    nc = (L + chunk - 1) // chunk
    flops = B * nc * (G * 2 * chunk * chunk * N + H * (chunk * chunk * P + 4 * chunk * P * N))
    return nbytes / copy_bw + flops / (PEAK_TFLOPS * 1e12), nbytes, flops


def main(argv=None):
    a = parse_args(argv)
    cache = cold_triton_cache()         # before torch and Triton are imported
    for d in a.pythonpath:
        sys.path.insert(0, os.path.abspath(d))
    try:
        return run(a)
    finally:
        import shutil
        shutil.rmtree(cache, ignore_errors=True)


def run(a):
    import torch
    import cakec_torch

    if not torch.cuda.is_available():
        print("SKIPPED: ssd: no CUDA device visible to torch")
        return 0
    dev = torch.device("cuda", 0)
    torch.cuda.set_device(dev)
    props = torch.cuda.get_device_properties(dev)
    gen = os.path.join(a.build, "gen", "ssd")
    if not os.path.isfile(os.path.join(gen, "manifest.json")):
        print("FAIL: ssd: %s/manifest.json is missing (build the ssd family first)" % gen)
        return 1
    built = cakec_torch.targets(gen)
    if "sm_%d%da" % (props.major, props.minor) not in built:
        print("SKIPPED: ssd: %s is sm_%d%d; the kernels are built for %s"
              % (props.name, props.major, props.minor, ", ".join(built)))
        return 0
    mamba, why = load_mamba(a.mamba)
    if mamba is None:
        print("FAIL: ssd: mamba_ssm: %s (see --mamba in bench/ssd.py's help)" % why)
        return 1
    lib = cakec_torch.load(gen)
    import triton
    torch.backends.cuda.matmul.allow_tf32 = False
    timer = Timer(torch, 3 if a.quick else a.reps, 0.005 if a.quick else 0.02, a.eager)
    notes = []
    copy_bw, copy_desc = copy_bandwidth(torch, timer, 1 << 30, dev, notes, a.eager)
    cakec = cakec_binary(a)
    tdt = {"bf16": torch.bfloat16, "f16": torch.float16}
    rows, wrong = [], []
    for (B, L, H, N, G) in a.shape_list:
        for dtn in a.dtype_list:
            row = run_shape(torch, a, lib, mamba, timer, notes, cakec, tdt[dtn], dtn, B, L, H, N, G,
                            copy_bw)
            rows.append(row)
            if row["wrong"]:
                wrong.append(row["label"])
            torch.cuda.empty_cache()
    text = report(torch, triton, a, props, copy_desc, rows, notes)
    print()
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
        print("ssd: wrote %s" % a.out)
    if wrong:
        print("ssd: cakec's output is WRONG on: %s" % "; ".join(wrong))
        return 1
    return 0


def run_shape(torch, a, lib, mamba, timer, notes, cakec, dt_t, dtn, B, L, H, N, G, copy_bw):
    dev = torch.device("cuda", 0)
    label = "B%d L%d H%d P%d N%d G%d %s%s" % (B, L, H, P, N, G, dtn, " z" if a.z else "")
    g = torch.Generator(device=dev)
    g.manual_seed(a.seed)
    x = torch.randn((B, L, H, P), device=dev, generator=g).to(dt_t)
    dt = (torch.rand((B, L, H), device=dev, generator=g) * 3 - 4).to(dt_t)
    A = -(torch.rand((H,), device=dev, generator=g) * 15 + 1)
    Bm = torch.randn((B, L, G, N), device=dev, generator=g).to(dt_t)
    Cm = torch.randn((B, L, G, N), device=dev, generator=g).to(dt_t)
    D = torch.rand((H,), device=dev, generator=g) * 2 - 1
    dt_bias = torch.rand((H,), device=dev, generator=g) - 0.5
    z = torch.randn((B, L, H, P), device=dev, generator=g).to(dt_t) if a.z else None
    empty_z = torch.empty((0, L, H, P), device=dev, dtype=dt_t)
    empty_init = torch.empty((0, H, P, N), device=dev, dtype=torch.float32)
    empty_states = torch.empty((0, 1, H, P, N), device=dev, dtype=torch.float32)
    y = torch.empty_like(x)
    final = torch.empty((B, H, P, N), device=dev, dtype=torch.float32)
    # the workspace (docs/ssd.md): made once, as a layer would; sync zero, left zero by every call
    sync = torch.zeros(2 + 128 * B * H, device=dev, dtype=torch.int32)
    hand = torch.empty((B, H, P, N), device=dev, dtype=torch.float32)
    inst = "ssd_%s_n%d" % (dtn, N)
    row = {"label": label, "wrong": False, "inst": inst}

    def cake(i=0):
        lib.ssd(x=x, dt=dt, a=A, bm=Bm, cm=Cm, d=D, dt_bias=dt_bias, z=z if a.z else empty_z,
                init=empty_init, y=y, final=final, states=empty_states, softplus=1, chunk=a.chunk,
                sync=sync, hand=hand)

    def mam(i=0):
        return mamba(x, dt, A, Bm, Cm, a.chunk, D=D, z=z, dt_bias=dt_bias, dt_softplus=True,
                     return_final_states=True)

    # first calls: cakec's module load, mamba's autotuning and compilation
    y.fill_(float("nan"))
    final.fill_(float("nan"))
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    cake()
    torch.cuda.synchronize()
    row["cake_first"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    ym, fm = mam()
    torch.cuda.synchronize()
    row["mamba_first"] = time.perf_counter() - t0
    row["compile_ms"] = compile_ms(cakec, inst)

    yr, fr = recurrence(torch, x, dt, A, Bm, Cm, D, dt_bias, z)
    row["err"] = {"y_ref": norm_err(y, yr), "final_ref": norm_err(final, fr),
                  "mamba_y_ref": norm_err(ym, yr), "mamba_final_ref": norm_err(fm, fr),
                  "y_mamba": norm_err(y, ym)}
    row["wrong"] = not (row["err"]["y_ref"] <= TOL and row["err"]["final_ref"] <= TOL)
    del yr, fr, ym, fm

    row["t_cake"] = timer(cake)
    try:
        row["t_mamba"] = timer(mam)
    except Exception as e:      # noqa: BLE001 (a failed capture)
        torch.cuda.synchronize()
        notes.append("%s: mamba_ssm timed with plain loops (graph capture failed: %s)" % (label, e))
        row["t_mamba"] = Timer(torch, timer.reps, timer.min_s, True)(mam)
    row["floor"], row["bytes"], row["flops"] = floor_s(B, L, H, N, G, a.chunk, x.element_size(),
                                                       a.z, copy_bw)
    row["tokens"] = B * L
    e = row["err"]
    print("%-34s cakec %9.1f us (%5.1f M tok/s, %3.0f%% of floor) | mamba %9.1f us | x%.2f | "
          "err y %.1e final %.1e (mamba %.1e %.1e)%s" % (
              label, row["t_cake"] * 1e6, row["tokens"] / row["t_cake"] / 1e6,
              100 * row["floor"] / row["t_cake"], row["t_mamba"] * 1e6,
              row["t_mamba"] / row["t_cake"], e["y_ref"], e["final_ref"], e["mamba_y_ref"],
              e["mamba_final_ref"], " WRONG" if row["wrong"] else ""), flush=True)
    return row


def report(torch, triton, a, props, copy_desc, rows, notes):
    out = []
    out.append("## ssd: cakec against mamba_ssm's mamba_chunk_scan_combined, %s" %
               datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    out.append("")
    out.append("%s (%d SMs), driver %s, torch %s, Triton %s, cakec %s; mamba_ssm from %s; "
               "chunk %d; copy bandwidth: %s" % (props.name, props.multi_processor_count,
                                                driver_version(), torch.__version__,
                                                triton.__version__, git_rev(a.build), a.mamba, a.chunk,
                                                copy_desc))
    out.append("")
    out.append("    python3 bench/ssd.py %s" % " ".join(sys.argv[1:]))
    out.append("")
    out.append("| shape | cakec us | M tokens/s | % floor | mamba us | M tokens/s | % floor | "
               "mamba/cakec | floor us | err y, final (vs recurrence) | mamba err | "
               "cakec first call ms (compile ms) | mamba first call s |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        e = r["err"]
        out.append("| %s | %.1f | %.1f | %.0f%% | %.1f | %.1f | %.0f%% | %.2f | %.1f | %.1e, %.1e%s | "
                   "%.1e, %.1e | %.1f (%s) | %.1f |" % (
                       r["label"], r["t_cake"] * 1e6, r["tokens"] / r["t_cake"] / 1e6,
                       100 * r["floor"] / r["t_cake"], r["t_mamba"] * 1e6,
                       r["tokens"] / r["t_mamba"] / 1e6, 100 * r["floor"] / r["t_mamba"],
                       r["t_mamba"] / r["t_cake"], r["floor"] * 1e6, e["y_ref"], e["final_ref"],
                       " WRONG" if r["wrong"] else "", e["mamba_y_ref"], e["mamba_final_ref"],
                       r["cake_first"] * 1e3,
                       "%.0f" % r["compile_ms"] if r["compile_ms"] is not None else "-",
                       r["mamba_first"]))
    out.append("")
    for n in notes:
        out.append("- %s" % n)
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
