#!/usr/bin/env python3
"""Plain code against NVRTC: the bench/naive corpus, cakec beside the same CUDA C++.

    python3 bench/naive.py [--build build] [--out naive.md] [--quick] [--only K1,K2]
    python3 bench/naive.py --check-corpus [--cakec build/cakec]     (no GPU needed)

bench/naive/ holds kernels written the plain way docs/language.md teaches (no unroll
hints, no vector accesses), each NAME.cake with a CUDA C++ twin NAME.cu: the same
algorithm, thread mapping and launch shape, and the same parameters in the order of the
cakec kernel's ABI (declared parameters, then shape symbols in order of first appearance).

On a GPU machine with torch and cupy, for each kernel and each of its sizes (one
latency-bound, one bandwidth-bound) this script
- runs cakec's kernel through the launcher the build generated (build/gen/naive/, loaded
  with python/cakec_torch.py: cakec's embedded cubins (the PTX as the runtime's fallback); no cakec there);
- compiles the twin with NVRTC (cupy.RawModule, backend "nvrtc", options -std=c++17 and
  cupy's defaults, which name the device's architecture) and launches it with the grid
  cakec's launcher computes and the block of cakec's threads(...) clause;
- runs the nearest torch operation, for information;
- checks cakec's outputs against the twin's (and against torch's) on random inputs, then
  times all three the way bench/bandwidth.py does (CUDA graph replays of >= 20 ms of
  launches, median of repetitions; inputs rotated over copies of >= 256 MiB in all so that
  the bandwidth-bound sizes do not run from L2);
- prints cakec/NVRTC and cakec/torch time ratios side by side, with their geometric means
  over the corpus (below 1: cakec is faster). Exit status 1 if an output differs.

Without torch, cupy or a GPU it checks the corpus and the generated folder, then stops
with "naive.py: FAIL: ..." and exit status 1. --check-corpus checks only the corpus: every
.cake has a twin whose parameter names match the cakec kernel's ABI (compiled here with
--cakec into a temporary folder), every file is in the table below, and, where libnvrtc
is found, NVRTC compiles every twin with -std=c++17 for compute_90a.
"""

import argparse
import ctypes
import ctypes.util
import datetime
import glob
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS_DIR = os.path.join(ROOT, "bench", "naive")
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

MiB = 1 << 20
NVRTC_OPTIONS = ("-std=c++17",)


class Fail(Exception):
    """A clear failure: printed as 'naive.py: FAIL: message', exit status 1."""


# ---- the corpus: inputs, the torch operation, how to compare ----
# Each entry: sizes [(label, {symbol: value}), ...] (latency-bound first), make(torch, dev,
# size) -> {param: tensor or scalar} (outputs included), the outputs to compare with their
# kind ("float": max |a - b| / max |ref|, "exact": equal), the tolerance for the twin and
# for torch, and torch_op(torch, args) -> {output: tensor} plus its name. Entries of the
# arguments whose names start with '_' are for torch only.

def _rand(T, dev, shape, lo=-1.0, hi=1.0, dtype=None):
    t = T.rand(*shape, device=dev) * (hi - lo) + lo
    return t if dtype is None else t.to(dtype)


def mk_bcast_add(T, dev, s):
    M, N = s["M"], s["N"]
    bf = T.bfloat16
    return dict(x=_rand(T, dev, (M, N), dtype=bf), w=_rand(T, dev, (N,), dtype=bf),
                b=_rand(T, dev, (M,), dtype=bf), y=T.empty(M, N, dtype=bf, device=dev))


def mk_strided_gather(T, dev, s):
    R, C, M, K, S = s["R"], s["C"], s["M"], s["K"], s["stride"]
    assert (K - 1) * S < C
    idx = T.randint(0, R, (M,), device=dev, dtype=T.int32)
    return dict(x=_rand(T, dev, (R, C)), idx=idx, y=T.empty(M, K, device=dev), stride=S,
                _idx64=idx.long())


def mk_rows_f32(T, dev, s, lo=-8.0, hi=8.0):
    return dict(x=_rand(T, dev, (s["M"], s["N"]), lo, hi), y=T.empty(s["M"], s["N"], device=dev))


def mk_layernorm_row(T, dev, s):
    M, N = s["M"], s["N"]
    bf = T.bfloat16
    return dict(x=_rand(T, dev, (M, N), -2.0, 2.0, bf), w=_rand(T, dev, (N,), 0.5, 1.5, bf),
                b=_rand(T, dev, (N,), -0.5, 0.5, bf), y=T.empty(M, N, dtype=bf, device=dev),
                eps=1e-5)


def mk_col_sum(T, dev, s):
    return dict(x=_rand(T, dev, (s["M"], s["N"])), y=T.empty(s["N"], device=dev))


def mk_transpose(T, dev, s):
    return dict(x=_rand(T, dev, (s["M"], s["N"])), y=T.empty(s["N"], s["M"], device=dev))


def mk_stencil(T, dev, s):
    return dict(x=_rand(T, dev, (s["N"],)), w=_rand(T, dev, (9,)), y=T.empty(s["N"], device=dev))


def mk_block_scan(T, dev, s):
    n = s["N"]
    return dict(x=T.randint(-1000, 1000, (n,), device=dev, dtype=T.int32),
                y=T.empty(n, device=dev, dtype=T.int32))


def mk_histogram(T, dev, s):
    return dict(x=T.randint(0, 256, (s["N"],), device=dev, dtype=T.uint8),
                counts=T.zeros(256, device=dev, dtype=T.int32))


def mk_matvec(T, dev, s):
    B, R, C = s["B"], s["R"], s["C"]
    return dict(a=_rand(T, dev, (B, R, C)), x=_rand(T, dev, (B, C)), y=T.empty(B, R, device=dev))


def mk_argmax(T, dev, s):
    M, N = s["M"], s["N"]
    return dict(x=_rand(T, dev, (M, N)), vals=T.empty(M, device=dev),
                idxs=T.empty(M, device=dev, dtype=T.int32))


def mk_masked_fill(T, dev, s):
    n = s["N"]
    return dict(x=_rand(T, dev, (n,)), mask=T.rand(n, device=dev) < 0.3,
                y=T.empty(n, device=dev), value=-1e4)


def _layer_norm(T, a):
    return T.nn.functional.layer_norm(a["x"], (a["x"].shape[1],), a["w"], a["b"], a["eps"])


def _conv1d(T, a):
    n = a["x"].shape[0]
    return T.nn.functional.conv1d(a["x"].view(1, 1, n), a["w"].view(1, 1, -1), padding=4).view(n)


def _argmax(T, a):
    v, i = T.max(a["x"], 1)
    return dict(vals=v, idxs=i.int())


def _bincount(T, a):
    return dict(counts=T.bincount(a["x"], minlength=256).int())


CORPUS = [
    dict(name="bcast_add", make=mk_bcast_add,
         sizes=[("64x1024", dict(M=64, N=1024)), ("8192x8192", dict(M=8192, N=8192))],
         outs={"y": "float"}, tol=1e-2,
         torch_name="x * w + b[:, None]",
         torch_op=lambda T, a: dict(y=a["x"] * a["w"] + a["b"][:, None])),
    dict(name="strided_gather", make=mk_strided_gather,
         sizes=[("64 rows of 1024", dict(R=1024, C=4096, M=64, K=1024, stride=4)),
                ("16384 rows of 2048", dict(R=8192, C=8192, M=16384, K=2048, stride=4))],
         outs={"y": "exact"}, tol=0,
         torch_name="x[idx, ::stride][:, :K]",
         torch_op=lambda T, a: dict(y=a["x"][a["_idx64"], 0:a["y"].shape[1] * a["stride"]:a["stride"]])),
    dict(name="softmax_row", make=mk_rows_f32,
         sizes=[("64x1024", dict(M=64, N=1024)), ("16384x4096", dict(M=16384, N=4096))],
         outs={"y": "float"}, tol=1e-5,
         torch_name="torch.softmax", torch_op=lambda T, a: dict(y=T.softmax(a["x"], -1))),
    dict(name="layernorm_row", make=mk_layernorm_row,
         sizes=[("64x1024", dict(M=64, N=1024)), ("32768x4096", dict(M=32768, N=4096))],
         outs={"y": "float"}, tol=2e-2,
         torch_name="F.layer_norm", torch_op=lambda T, a: dict(y=_layer_norm(T, a))),
    dict(name="col_sum", make=mk_col_sum,
         sizes=[("256x512", dict(M=256, N=512)), ("2048x65536", dict(M=2048, N=65536))],
         outs={"y": "float"}, tol=1e-5,
         torch_name="x.sum(0)", torch_op=lambda T, a: dict(y=a["x"].sum(0))),
    dict(name="transpose_tiled", make=mk_transpose,
         sizes=[("256x256", dict(M=256, N=256)), ("8192x8192", dict(M=8192, N=8192))],
         outs={"y": "exact"}, tol=0,
         torch_name="x.t().contiguous()", torch_op=lambda T, a: dict(y=a["x"].t().contiguous())),
    dict(name="stencil_1d", make=mk_stencil,
         sizes=[("65536", dict(N=65536)), ("67108864", dict(N=1 << 26))],
         outs={"y": "float"}, tol=1e-5,
         torch_name="F.conv1d", torch_op=lambda T, a: dict(y=_conv1d(T, a))),
    dict(name="block_scan", make=mk_block_scan,
         sizes=[("65536", dict(N=65536)), ("67108864", dict(N=1 << 26))],
         outs={"y": "exact"}, tol=0,
         torch_name="x.view(-1, 1024).cumsum(1)",
         torch_op=lambda T, a: dict(y=a["x"].view(-1, 1024).cumsum(1, dtype=T.int32).view(-1))),
    dict(name="histogram", make=mk_histogram,
         sizes=[("65536", dict(N=65536)), ("268435456", dict(N=1 << 28))],
         outs={"counts": "exact"}, tol=0, zero=["counts"],
         # bincount reads the input's maximum back to the host: it cannot be captured in
         # a graph, so its time is a plain loop's and includes launch overhead
         torch_name="torch.bincount (eager)", torch_op=_bincount, torch_eager=True),
    dict(name="batched_matvec", make=mk_matvec,
         sizes=[("64 of 64x64", dict(B=64, R=64, C=64)), ("16384 of 64x64", dict(B=16384, R=64, C=64))],
         outs={"y": "float"}, tol=1e-5,
         torch_name="torch.bmm",
         torch_op=lambda T, a: dict(y=T.bmm(a["a"], a["x"].unsqueeze(-1)).squeeze(-1))),
    dict(name="argmax_row", make=mk_argmax,
         sizes=[("64x1024", dict(M=64, N=1024)), ("8192x8192", dict(M=8192, N=8192))],
         outs={"vals": "exact", "idxs": "exact"}, tol=0,
         torch_name="torch.max(x, 1)", torch_op=_argmax),
    dict(name="masked_fill", make=mk_masked_fill,
         sizes=[("65536", dict(N=65536)), ("67108864", dict(N=1 << 26))],
         outs={"y": "exact"}, tol=0,
         torch_name="x.masked_fill(mask, v)",
         torch_op=lambda T, a: dict(y=a["x"].masked_fill(a["mask"], a["value"]))),
]


# ---- the corpus itself: files, twins' signatures, the generated folder ----

def twin_params(src):
    """The parameter names of the extern "C" __global__ function of a twin's source."""
    m = re.search(r'extern\s+"C"\s+__global__\s+void\s+(\w+)\s*\(([^)]*)\)', src)
    if not m:
        return None, None
    names = [re.findall(r"(\w+)\s*$", p.strip())[0] for p in m.group(2).split(",") if p.strip()]
    return m.group(1), names


def check_corpus(manifest):
    """Every corpus entry has NAME.cake and NAME.cu, every .cake is an entry, and each twin's
    parameters are the cakec kernel's ABI (the manifest's params, in order). Raises Fail."""
    names = [e["name"] for e in CORPUS]
    on_disk = sorted(os.path.splitext(os.path.basename(f))[0]
                     for f in glob.glob(os.path.join(CORPUS_DIR, "*.cake")))
    problems = []
    for n in on_disk:
        if n not in names:
            problems.append("bench/naive/%s.cake is not in naive.py's CORPUS" % n)
    by_kernel = {k["kernel"]: k for k in manifest}
    for n in names:
        for ext in (".cake", ".cu"):
            if not os.path.exists(os.path.join(CORPUS_DIR, n + ext)):
                problems.append("bench/naive/%s%s is missing" % (n, ext))
        if n not in by_kernel:
            problems.append("kernel '%s' is not in the generated manifest" % n)
            continue
        cu = os.path.join(CORPUS_DIR, n + ".cu")
        if not os.path.exists(cu):
            continue
        fname, params = twin_params(open(cu).read())
        abi = [p["name"] for p in by_kernel[n]["params"]]
        if fname != n:
            problems.append("%s.cu: no extern \"C\" __global__ void %s(...)" % (n, n))
        elif params != abi:
            problems.append("%s.cu: parameters (%s) differ from cakec's ABI (%s)"
                            % (n, ", ".join(params), ", ".join(abi)))
    if problems:
        raise Fail("the corpus:\n  " + "\n  ".join(problems))


def read_manifest(gen):
    path = os.path.join(gen, "manifest.json")
    if not os.path.exists(path):
        raise Fail("%s is missing: build the corpus first (cmake --build BUILD --target "
                   "gen_naive_py) and carry BUILD/gen/naive to this machine" % path)
    with open(path) as f:
        return [k for k in json.load(f) if "kernel" in k]


def nvrtc_compile_all(arch="compute_90a"):
    """Compiles every twin with NVRTC through ctypes. Returns None without libnvrtc."""
    lib = None
    for cand in (ctypes.util.find_library("nvrtc"), "libnvrtc.so",
                 "/usr/local/cuda/lib64/libnvrtc.so"):
        if not cand:
            continue
        try:
            lib = ctypes.CDLL(cand)
            break
        except OSError:
            continue
    if lib is None:
        return None
    problems = []
    for e in CORPUS:
        src = open(os.path.join(CORPUS_DIR, e["name"] + ".cu")).read().encode()
        prog = ctypes.c_void_p()
        rc = lib.nvrtcCreateProgram(ctypes.byref(prog), src, (e["name"] + ".cu").encode(),
                                    0, None, None)
        if rc != 0:
            problems.append("%s.cu: nvrtcCreateProgram: %d" % (e["name"], rc))
            continue
        opts = [o.encode() for o in NVRTC_OPTIONS + ("--gpu-architecture=" + arch,)]
        arr = (ctypes.c_char_p * len(opts))(*opts)
        rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
        if rc != 0:
            size = ctypes.c_size_t()
            lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
            log = ctypes.create_string_buffer(size.value)
            lib.nvrtcGetProgramLog(prog, log)
            problems.append("%s.cu: NVRTC: %s" % (e["name"], log.value.decode(errors="replace")))
        lib.nvrtcDestroyProgram(ctypes.byref(prog))
    if problems:
        raise Fail("NVRTC:\n  " + "\n  ".join(problems))
    return len(CORPUS)


def check_corpus_only(cakec):
    with tempfile.TemporaryDirectory() as tmp:
        files = sorted(glob.glob(os.path.join(CORPUS_DIR, "*.cake")))
        r = subprocess.run([cakec, "--target", "sm_90a", "--emit=host", "-o", tmp] + files,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise Fail("cakec failed on the corpus:\n%s" % r.stdout.decode(errors="replace"))
        manifest = read_manifest(tmp)
    check_corpus(manifest)
    print("naive.py: corpus: %d kernels, each with a twin of the same ABI" % len(CORPUS))
    n = nvrtc_compile_all()
    if n is None:
        print("naive.py: NVRTC twins: not checked (no libnvrtc here)")
    else:
        print("naive.py: NVRTC twins: %d compiled with %s for compute_90a"
              % (n, " ".join(NVRTC_OPTIONS)))
    return 0


# ---- running on the GPU ----

def compare(kind, got, ref):
    """'exact': the number of differing elements (as a string when any); 'float':
    max |got - ref| / max |ref|."""
    if kind == "exact":
        bad = int((got != ref.to(got.dtype)).sum().item())
        return bad, "exact" if bad == 0 else "%d differ" % bad
    got, ref = got.double(), ref.double()
    scale = max(ref.abs().max().item(), 1e-30)
    err = (got - ref).abs().max().item() / scale
    return err, "%.1e" % err


class Twin(object):
    """A twin compiled by NVRTC through cupy, launched on torch's current stream."""

    def __init__(self, cupy, name, entry):
        src = open(os.path.join(CORPUS_DIR, name + ".cu")).read()
        mod = cupy.RawModule(code=src, options=NVRTC_OPTIONS, backend="nvrtc")
        self.fn = mod.get_function(name)
        self.cupy = cupy
        self.entry = entry
        self.block = tuple(entry["threads"])
        self.streams = {}

    def args(self, np, a):
        """The kernel's arguments in the ABI's order: pointers, scalars, shape symbols."""
        syms = {}
        out = []
        for p in self.entry["params"]:
            if p["kind"] == "tensor":
                t = a[p["name"]]
                for d, s in zip(p["shape"], t.shape):
                    if isinstance(d, str) and not d.isdigit():
                        syms[d] = int(s)
                out.append(np.uint64(t.data_ptr()))
            elif p["kind"] == "scalar":
                out.append({"f32": np.float32, "i32": np.int32}[p["dtype"]](a[p["name"]]))
            else:
                out.append(np.int32(syms[p["name"]]))
        return tuple(out)

    def launch(self, torch, grid, args):
        ptr = torch.cuda.current_stream().cuda_stream
        s = self.streams.get(ptr)
        if s is None:
            s = self.streams[ptr] = self.cupy.cuda.ExternalStream(ptr)
        with s:
            self.fn(grid, self.block, args)


def set_bytes(a):
    return sum(v.numel() * v.element_size() for v in a.values() if hasattr(v, "numel"))


def cake_args(torch, a):
    """The launcher's arguments: not torch's own ('_'), and a bool mask as u8 (the same
    bytes)."""
    return {k: (v.view(dtype=torch.uint8) if getattr(v, "dtype", None) == torch.bool else v)
            for k, v in a.items() if not k.startswith("_")}


def run_one(torch, np, timer, lib, twin, e, label, bound, size, dev, rows, quick):
    from bandwidth import Timer
    T = torch
    kern = getattr(lib, e["name"])
    a0 = e["make"](T, dev, size)
    ca0 = cake_args(T, a0)
    grid = kern.grid(**ca0)
    # one set of inputs and outputs per slot, >= 256 MiB in all (quick: 64 MiB)
    k = max(1, min(16, math.ceil(((64 if quick else 256) * MiB) / set_bytes(a0))))
    sets = [a0] + [e["make"](T, dev, size) for _ in range(k - 1)]
    csets = [ca0] + [cake_args(T, s) for s in sets[1:]]
    tsets = [twin.args(np, s) for s in sets]

    # correctness: cakec vs the twin vs torch, outputs reset first
    def reset(a):
        for o in e["outs"]:
            if o in e.get("zero", []):
                a[o].zero_()
            elif a[o].is_floating_point():
                a[o].fill_(float("nan"))
            else:
                a[o].fill_(-12345)
    reset(a0)
    kern(**ca0)
    got = {o: a0[o].clone() for o in e["outs"]}
    reset(a0)
    twin.launch(T, grid, tsets[0])
    ref = {o: a0[o].clone() for o in e["outs"]}
    tref = e["torch_op"](T, a0)
    T.cuda.synchronize()
    ok = True
    twin_check, torch_check = [], []
    for o, kind in e["outs"].items():
        v, text = compare(kind, got[o], ref[o])
        ok &= v <= e["tol"]
        twin_check.append(text)
        v, text = compare(kind if kind == "exact" else "float", got[o], tref[o].reshape(got[o].shape))
        ok &= v <= max(e["tol"], 2e-2 if got[o].dtype == T.bfloat16 else e["tol"] * 10)
        torch_check.append(text)
    del got, ref, tref

    t_cake = timer(lambda i: kern(**csets[i % k]))
    t_nvrtc = timer(lambda i: twin.launch(T, grid, tsets[i % k]))
    ttimer = Timer(T, timer.reps, timer.min_s, True) if e.get("torch_eager") else timer
    t_torch = ttimer(lambda i: e["torch_op"](T, sets[i % k]))
    r = dict(kernel=e["name"], size=label, bound=bound,
             t_cake=t_cake, t_nvrtc=t_nvrtc, t_torch=t_torch, torch_name=e["torch_name"],
             twin_check=", ".join(twin_check), torch_check=", ".join(torch_check), ok=ok,
             grid=grid, mb=set_bytes(a0) / 1e6)
    rows.append(r)
    print("%-16s %-20s cakec %9.2f us | nvrtc %9.2f us | %5.2fx | torch %9.2f us %5.2fx | "
          "vs twin %s, vs torch %s%s" % (
              e["name"], label, t_cake * 1e6, t_nvrtc * 1e6, t_cake / t_nvrtc, t_torch * 1e6,
              t_cake / t_torch, r["twin_check"], r["torch_check"], "" if ok else "  MISMATCH"),
          flush=True)
    del sets, csets, tsets, a0, ca0
    torch.cuda.empty_cache()


def report(rows, a, props, torch, cupy, notes):
    from bandwidth import driver_version, git_rev
    geo = statistics.geometric_mean([r["t_cake"] / r["t_nvrtc"] for r in rows])
    geo_t = statistics.geometric_mean([r["t_cake"] / r["t_torch"] for r in rows])
    worst = max(rows, key=lambda r: r["t_cake"] / r["t_nvrtc"])
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = [
        "# cakec plain code against NVRTC (bench/naive)",
        "",
        "- date: %s" % now,
        "- GPU: %s (sm_%d%d, %d SMs); driver %s; torch %s (CUDA %s); cupy %s; cakec %s" % (
            props.name, props.major, props.minor, props.multi_processor_count, driver_version(),
            torch.__version__, torch.version.cuda, cupy.__version__, git_rev(a.build)),
        "- command: `python3 bench/naive.py %s`" % " ".join(sys.argv[1:]),
        "- method: the same kernel written in .cake (cakec's cubin, the runtime loading the PTX only when the driver refuses it) and in "
        "CUDA C++ (NVRTC, %s), same grid and block; CUDA events around %s of >= 20 ms of "
        "launches, median of %d repetitions; inputs rotated over >= %d MiB of copies; ratio = "
        "cakec time / other time (below 1: cakec is faster); check = max |diff| / max |ref| "
        "(or exact)" % (" ".join(NVRTC_OPTIONS), "plain loops" if a.eager else "CUDA graph replays",
                        a.reps, 64 if a.quick else 256),
        "- geometric mean cakec/NVRTC: **%.3f** over %d kernel-sizes; worst %.3f (%s %s); "
        "above 1.15: %d" % (geo, len(rows), worst["t_cake"] / worst["t_nvrtc"], worst["kernel"],
                            worst["size"], sum(r["t_cake"] / r["t_nvrtc"] > 1.15 for r in rows)),
        "- geometric mean cakec/torch (for information): %.3f" % geo_t,
    ]
    head += ["- note: %s" % n for n in notes]
    table = [
        "",
        "| kernel | size | bound | MB | cakec us | NVRTC us | cakec/NVRTC | torch op | torch us | cakec/torch | vs twin | vs torch |",
        "|---|---|---|---:|---:|---:|---:|---|---:|---:|---|---|",
    ]
    for r in rows:
        table.append("| %s | %s | %s | %.1f | %.2f | %.2f | %.2f | %s | %.2f | %.2f | %s | %s |" % (
            r["kernel"], r["size"], r["bound"], r["mb"], r["t_cake"] * 1e6, r["t_nvrtc"] * 1e6,
            r["t_cake"] / r["t_nvrtc"], r["torch_name"], r["t_torch"] * 1e6,
            r["t_cake"] / r["t_torch"], r["twin_check"] + ("" if r["ok"] else " MISMATCH"),
            r["torch_check"]))
    return "\n".join(head + table) + "\n"


def run(a):
    gen = os.path.join(a.build, "gen", "naive")
    manifest = read_manifest(gen)
    check_corpus(manifest)
    print("naive.py: corpus: %d kernels, generated folder %s" % (len(CORPUS), gen), flush=True)
    try:
        import numpy as np
        import torch
    except ImportError as ex:
        raise Fail("cannot import torch (%s): run this on the GPU machine, which has torch, "
                   "cupy and a GPU" % ex)
    try:
        import cupy
    except ImportError as ex:
        raise Fail("cannot import cupy (%s): the twins are compiled with NVRTC through "
                   "cupy.RawModule" % ex)
    if not torch.cuda.is_available():
        raise Fail("no CUDA device visible to torch (CUDA_VISIBLE_DEVICES=%r)"
                   % os.environ.get("CUDA_VISIBLE_DEVICES"))
    import cakec_torch
    from bandwidth import Timer
    dev = torch.device("cuda", 0)
    torch.cuda.set_device(dev)
    cupy.cuda.Device(0).use()
    props = torch.cuda.get_device_properties(dev)
    arch = "sm_%d%da" % (props.major, props.minor)
    built = cakec_torch.targets(gen)
    if arch not in built:
        raise Fail("%s is %s; gen/naive is built for %s" % (props.name, arch, ", ".join(built)))
    lib = cakec_torch.load(gen)
    by_kernel = {k["kernel"]: k for k in manifest}
    only = set(a.only.split(",")) if a.only else None
    if only and only - set(e["name"] for e in CORPUS):
        raise Fail("--only: no kernel %s" % ", ".join(sorted(only - set(e["name"] for e in CORPUS))))
    timer = Timer(torch, 3 if a.quick else a.reps, 0.005 if a.quick else 0.02, a.eager)
    torch.manual_seed(0)
    rows, notes = [], []
    for e in CORPUS:
        if only and e["name"] not in only:
            continue
        twin = Twin(cupy, e["name"], by_kernel[e["name"]])
        for (label, size), bound in zip(e["sizes"], ("latency", "bandwidth")):
            run_one(torch, np, timer, lib, twin, e, label, bound, size, dev, rows, a.quick)
    text = report(rows, a, props, torch, cupy, notes)
    print()
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
        print("naive.py: wrote %s" % a.out)
    bad = [r for r in rows if not r["ok"]]
    if bad:
        raise Fail("outputs differ: %s" % ", ".join("%s %s" % (r["kernel"], r["size"]) for r in bad))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build folder holding gen/naive/ (default: build)")
    ap.add_argument("--out", help="write the markdown report here")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke test)")
    ap.add_argument("--reps", type=int, default=7, help="repetitions; the median is reported")
    ap.add_argument("--eager", action="store_true",
                    help="time plain loops of launches instead of CUDA graph replays")
    ap.add_argument("--only", help="comma list of kernels to run")
    ap.add_argument("--check-corpus", action="store_true",
                    help="check the corpus (files, the twins' ABI, NVRTC) without a GPU")
    ap.add_argument("--cakec", default=os.path.join(ROOT, "build", "cakec"),
                    help="the cakec --check-corpus compiles the corpus with")
    a = ap.parse_args()
    try:
        if a.check_corpus:
            return check_corpus_only(a.cakec)
        return run(a)
    except Fail as ex:
        print("naive.py: FAIL: %s" % ex, flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main())
