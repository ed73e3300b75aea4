#!/usr/bin/env python3
"""Gated delta product decode (kernels_src/gdp) against copy bandwidth and flash-linear-attention.

    python3 bench/gdp.py [--build build] [--out gdp.md] [--quick] [--heads 16,32,64]
                         [--batches 1,2,...,512] [--l2norm both|on|off] [--gqa 1]

Runs on a GPU machine with PyTorch; the kernels are the variants tests/gpu/gdp.cmake built
into build/gen/gdp/<kernel>/ (listed in build/gen/gdp/variants.json), loaded with
python/cakec_torch.py. In one run it measures

- device-to-device copy bandwidth (torch copy_, cuMemcpyDtoDAsync, a copy kernel; the best
  is the reference, bytes read + written);
- for T = 1, NH = 1 (Gated DeltaNet decode), K = V = 128, bf16, value heads in --heads
  and batches in --batches: cakec's kernel with staging elision (every V slice width built,
  16, 32 and 64 columns per block; the fastest is the row, the others are listed), the same
  kernel staged through shared memory (--no-staging-elision, same slice width), and fla's
  fused_recurrent_gated_delta_rule (the `fla` package; skipped with a note when it does
  not import) on the same tensors;
- a few T > 1 and NH > 1 shapes at the largest batch, against fla's fused recurrent rule
  run over T * NH sub-tokens (decay on the first sub-token of each token; fla has no fused
  recurrent gated delta product).

Achieved bandwidth = (state read + state written + q, k, v, g, beta read + o written) /
time, shown as a share of the copy bandwidth. The state is updated in place by cakec and
read/written by fla (initial_state -> final_state), the same bytes either way. Each call
rotates over enough copies of all tensors (>= 256 MiB) that no call finds its state in L2
(in a model, other layers run between two decode steps of one layer). Timing: CUDA graph
replays of a calibrated loop, median of --reps (bench/bandwidth.py's Timer). Before timing,
each cakec kernel's output and state are compared with fla's (max relative error) and the
elided and staged kernels with each other (bit for bit). Prints a table and writes it as
markdown with the date, GPU, driver and versions.
"""

import argparse
import datetime
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from bandwidth import Timer, driver_version, git_rev  # noqa: E402

MiB = 1 << 20


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build folder holding gen/gdp/ (default: build)")
    ap.add_argument("--out", help="write the markdown report here")
    ap.add_argument("--quick", action="store_true", help="a smoke test: few shapes and reps")
    ap.add_argument("--reps", type=int, default=7, help="repetitions; the median is reported")
    ap.add_argument("--eager", action="store_true", help="time plain loops, not graph replays")
    ap.add_argument("--heads", default="16,32,64", help="value heads (comma list)")
    ap.add_argument("--batches", default="1,2,4,8,16,32,64,128,256,512",
                    help="batch sizes (comma list)")
    ap.add_argument("--l2norm", default="both", choices=["both", "on", "off"],
                    help="q/k L2-normalised in the kernel (fla's use_qk_l2norm_in_kernel)")
    ap.add_argument("--gqa", type=int, default=1, help="value heads per q/k head")
    return ap.parse_args()


class Shape(object):
    def __init__(self, B, T, NH, HQK, HV, K, V):
        self.B, self.T, self.NH, self.HQK, self.HV, self.K, self.V = B, T, NH, HQK, HV, K, V

    def bytes(self, ebytes=2):
        B, T, NH, HQK, HV, K, V = self.B, self.T, self.NH, self.HQK, self.HV, self.K, self.V
        state = 2 * B * HV * K * V * 4
        ins = (B * T * HQK * K + B * T * NH * HQK * K + B * T * NH * HV * V +
               B * T * NH * HV) * ebytes + B * T * HV * 4
        return state + ins + B * T * HV * V * ebytes


def make_inputs(torch, sh, l2norm, dev, seed):
    """One set of tensors in cakec's layouts (docs/gdp.md); q and k unit vectors unless
    the kernel normalises them."""
    g = torch.Generator(device=dev)
    g.manual_seed(seed)
    bf = torch.bfloat16

    def rnd(*shape):
        return torch.rand(*shape, generator=g, device=dev) * 2 - 1

    q = rnd(sh.B, sh.T, sh.HQK, sh.K)
    k = rnd(sh.B, sh.T, sh.NH, sh.HQK, sh.K)
    if not l2norm:
        q = q / q.norm(dim=-1, keepdim=True)
        k = k / k.norm(dim=-1, keepdim=True)
    return dict(
        q=q.to(bf), k=k.to(bf),
        v=rnd(sh.B, sh.T, sh.NH, sh.HV, sh.V).to(bf),
        g=(torch.rand(sh.B, sh.T, sh.HV, generator=g, device=dev) * -0.69 - 0.01),
        beta=(torch.rand(sh.B, sh.T, sh.NH, sh.HV, generator=g, device=dev) * 0.95 + 0.05).to(bf),
        s=rnd(sh.B, sh.HV, sh.K, sh.V).float().contiguous(),
        o=torch.empty(sh.B, sh.T, sh.HV, sh.V, dtype=bf, device=dev),
        inter=torch.empty(sh.B, 0, sh.HV, sh.K, sh.V, dtype=torch.float32, device=dev),
    )


def fla_call(fla_fn, torch, sh, x, l2norm, scale, out_state=None):
    """fla's fused recurrent gated delta rule on cakec's tensors: NH = 1 directly; NH > 1
    as T * NH sub-tokens with the decay on the first sub-token of each token, whose last
    sub-token's output is the token's."""
    B, T, NH, HQK, HV, K, V = sh.B, sh.T, sh.NH, sh.HQK, sh.HV, sh.K, sh.V
    if NH == 1:
        q, k, v = x["q"], x["k"].view(B, T, HQK, K), x["v"].view(B, T, HV, V)
        g, beta = x["g"], x["beta"].view(B, T, HV)
    else:
        q = x["q"].unsqueeze(2).expand(B, T, NH, HQK, K).reshape(B, T * NH, HQK, K)
        k = x["k"].reshape(B, T * NH, HQK, K)
        v = x["v"].reshape(B, T * NH, HV, V)
        g = torch.zeros(B, T, NH, HV, dtype=x["g"].dtype, device=x["g"].device)
        g[:, :, 0] = x["g"]
        g = g.reshape(B, T * NH, HV)
        beta = x["beta"].reshape(B, T * NH, HV)
    o, ht = fla_fn(q=q, k=k, v=v, g=g, beta=beta, scale=scale, initial_state=x["s"],
                   output_final_state=True, use_qk_l2norm_in_kernel=l2norm)
    if NH > 1:
        o = o.view(B, T, NH, HV, V)[:, :, NH - 1]
    return o, ht


def max_rel(got, ref, floor):
    got, ref = got.double(), ref.double()
    return ((got - ref).abs() / ref.abs().clamp(min=floor)).max().item()


def main():
    a = parse_args()
    import torch
    import cakec_torch

    if not torch.cuda.is_available():
        print("SKIPPED: gdp: no CUDA device visible to torch")
        return 0
    dev = torch.device("cuda", 0)
    torch.cuda.set_device(dev)
    props = torch.cuda.get_device_properties(dev)
    if (props.major, props.minor) not in ((9, 0), (10, 0), (10, 3)):
        print("SKIPPED: gdp: %s is sm_%d%d; the kernels are built for sm_90a, sm_100a, sm_103a"
              % (props.name, props.major, props.minor))
        return 0
    gen = os.path.join(a.build, "gen", "gdp")
    with open(os.path.join(gen, "variants.json")) as f:
        variants = json.load(f)
    libs = {}

    def kernel(v):
        if v["name"] not in libs:
            libs[v["name"]] = getattr(cakec_torch.load(os.path.join(gen, v["dir"])), v["name"])
        return libs[v["name"]]

    notes = []
    fla_fn = None
    fla_version = "not installed"
    try:
        import fla
        from fla.ops.gated_delta_rule import fused_recurrent_gated_delta_rule as fla_fn
        fla_version = getattr(fla, "__version__", "?")
    except Exception as e:  # any import failure: run without the comparison
        notes.append("fla not compared: `import fla` failed (%s: %s)" % (type(e).__name__, e))
        print("gdp: fla comparison skipped: %s" % e, flush=True)

    timer = Timer(torch, 3 if a.quick else a.reps, 0.005 if a.quick else 0.02, a.eager)

    # ---- copy bandwidth ----
    size = (64 * MiB) if a.quick else (1 << 30)
    src = torch.randint(0, 255, (size,), dtype=torch.uint8, device=dev)
    dst = torch.empty_like(src)
    copies = {"torch_copy": timer(lambda i: dst.copy_(src)),
              "sm_copy": timer(lambda i: torch.mul(src.view(torch.float32), 1.0,
                                                   out=dst.view(torch.float32)))}
    try:
        import ctypes
        cu = ctypes.CDLL("libcuda.so.1")
        fn = cu.cuMemcpyDtoDAsync_v2
        fn.argtypes = [ctypes.c_uint64, ctypes.c_uint64, ctypes.c_size_t, ctypes.c_void_p]
        fn.restype = ctypes.c_int
        copies["memcpy"] = timer(lambda i: fn(dst.data_ptr(), src.data_ptr(), size,
                                              torch.cuda.current_stream().cuda_stream))
    except (OSError, AttributeError) as e:
        notes.append("cuMemcpyDtoDAsync not measured: %s" % e)
    best_copy = 2 * size / min(copies.values())
    del src, dst
    print("copy bandwidth: %s; best %.0f GB/s" % (
        ", ".join("%s %.0f GB/s" % (k, 2 * size / t / 1e9) for k, t in copies.items()),
        best_copy / 1e9), flush=True)

    rows = []

    def find(T, NH, BV, l2, staged):
        for v in variants:
            if (v["T"], v["NH"], v["KD"], v["VD"], v["BV"], bool(v["l2norm"]), v["dtype"],
                    bool(v["staged"])) == (T, NH, 128, 128, BV, l2, "bf16", staged):
                return v
        return None

    def measure(sh, l2, label):
        scale = sh.K ** -0.5
        nbytes = sh.bytes()
        per_set = nbytes + sh.B * sh.HV * sh.K * sh.V * 4   # + fla's separate final state
        nrot = max(1, min(64, int(math.ceil(256 * MiB / per_set))))
        sets = [make_inputs(torch, sh, l2, dev, 1000 + i) for i in range(nrot)]
        s0 = [x["s"].clone() for x in sets]

        def run_cake(fn, i):
            x = sets[i % nrot]
            fn(q=x["q"], k=x["k"], v=x["v"], g=x["g"], beta=x["beta"], s=x["s"], o=x["o"],
               inter=x["inter"], scale=scale)

        # correctness once, from the same initial state: elided vs staged vs fla
        results = {}
        widths = [bv for bv in (16, 32, 64) if find(sh.T, sh.NH, bv, l2, False)]
        if not widths:
            return
        for bv in widths:
            for staged in (False, True):
                v = find(sh.T, sh.NH, bv, l2, staged)
                if not v:
                    continue
                sets[0]["s"].copy_(s0[0])
                run_cake(kernel(v), 0)
                torch.cuda.synchronize()
                results[(bv, staged)] = (sets[0]["o"].clone(), sets[0]["s"].clone())
        same = all(torch.equal(results[(bv, False)][0], results[(bv, True)][0]) and
                   torch.equal(results[(bv, False)][1], results[(bv, True)][1])
                   for bv in widths if (bv, True) in results)
        check = "elided == staged" if same else "ELIDED != STAGED"
        t_fla = None
        if fla_fn is not None:
            try:
                sets[0]["s"].copy_(s0[0])
                o_ref, s_ref = fla_call(fla_fn, torch, sh, sets[0], l2, scale)
                o_c, s_c = results[(widths[0], False)]
                check += "; vs fla: o %.1e, state %.1e" % (max_rel(o_c, o_ref, 1e-2),
                                                           max_rel(s_c, s_ref, 1e-1))
                holders = [dict(x) for x in sets]
                t_fla = timer(lambda i: fla_call(fla_fn, torch, sh, holders[i % nrot], l2, scale))
            except Exception as e:
                notes.append("fla failed on %s: %s: %s" % (label, type(e).__name__, e))
                t_fla = None
        times = {}
        for bv in widths:
            for staged in (False, True):
                v = find(sh.T, sh.NH, bv, l2, staged)
                if v:
                    fn = kernel(v)
                    times[(bv, staged)] = timer(lambda i, fn=fn: run_cake(fn, i))
        best = min(widths, key=lambda bv: times[(bv, False)])
        t, t_staged = times[(best, False)], times.get((best, True))
        others = ", ".join("BV %d %.1f us" % (bv, times[(bv, False)] * 1e6)
                           for bv in widths if bv != best)
        row = dict(label=label, heads=sh.B * sh.HV, bytes=nbytes, bv=best, t=t,
                   t_staged=t_staged, t_fla=t_fla, check=check, others=others)
        rows.append(row)
        print("%-34s %5d heads  cakec %8.1f us %5.0f%% copy (BV %d) | staged %8s us | fla %8s us"
              " | fla/cakec %5s | %s" % (
                  label, row["heads"], t * 1e6, 100 * nbytes / t / best_copy, best,
                  "%.1f" % (t_staged * 1e6) if t_staged else "-",
                  "%.1f" % (t_fla * 1e6) if t_fla else "-",
                  "%.2fx" % (t_fla / t) if t_fla else "-", check), flush=True)
        del sets, s0
        torch.cuda.empty_cache()

    heads = [int(x) for x in a.heads.split(",")]
    batches = [int(x) for x in a.batches.split(",")]
    if a.quick:
        heads, batches = heads[:1], [b for b in batches if b in (1, 32, 512)] or batches[:2]
    l2s = {"both": [False, True], "on": [True], "off": [False]}[a.l2norm]
    for l2 in l2s:
        for hv in heads:
            for b in batches:
                sh = Shape(b, 1, 1, max(1, hv // a.gqa), hv, 128, 128)
                measure(sh, l2, "T=1 NH=1 HV=%d B=%d%s" % (hv, b, " l2" if l2 else ""))
    # multi-token and Householder products at the largest batch
    b, hv = batches[-1], heads[min(1, len(heads) - 1)]
    for T, NH in ((2, 1), (4, 1), (1, 2), (1, 3)):
        sh = Shape(b, T, NH, max(1, hv // a.gqa), hv, 128, 128)
        measure(sh, True, "T=%d NH=%d HV=%d B=%d l2" % (T, NH, hv, b))

    # ---- report ----
    head = [
        "# gdp decode: cakec vs copy bandwidth and fla (%s)" % datetime.date.today().isoformat(),
        "",
        "- GPU: %s (sm_%d%d, %d SMs), driver %s, torch %s, fla %s, commit %s" % (
            props.name, props.major, props.minor, props.multi_processor_count, driver_version(),
            torch.__version__, fla_version, git_rev()),
        "- copy bandwidth (read + write): %s; reference (best) %.0f GB/s" % (
            ", ".join("%s %.0f GB/s" % (k, 2 * size / t / 1e9) for k, t in copies.items()),
            best_copy / 1e9),
        "- K = V = 128, bf16 q/k/v/beta/o, f32 g and state, GQA %d; bytes = state read + "
        "written + inputs + outputs; %% copy = achieved / copy bandwidth; BV = V columns "
        "per block (the fastest built); staged = the same kernel with --no-staging-elision; "
        "fla/cakec = fla time / cakec time (above 1: cakec is faster)" % a.gqa,
        "- timing: CUDA graph replays, median of %d; tensors rotated over >= 256 MiB" % timer.reps,
    ]
    big = [r for r in rows if r["heads"] >= 4096 and r["label"].startswith("T=1 NH=1")]
    if big:
        worst = min(100 * r["bytes"] / r["t"] / best_copy for r in big)
        head.append("- large batch (>= 4096 heads, T=1, NH=1): at least %.0f%% of copy bandwidth "
                    "(aim 85%%)%s" % (worst, "" if not all(r["t_fla"] for r in big) else
                                      "; at least %.2fx fla (aim 1.3x)" %
                                      min(r["t_fla"] / r["t"] for r in big)))
    for n in notes:
        head.append("- note: %s" % n)
    table = [
        "",
        "| shape | heads | MB moved | cakec us | GB/s | % copy | BV | staged us | elided/staged | fla us | fla % copy | fla/cakec | check | other BV |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        table.append("| %s | %d | %.1f | %.1f | %.0f | %.0f%% | %d | %s | %s | %s | %s | %s | %s | %s |" % (
            r["label"], r["heads"], r["bytes"] / 1e6, r["t"] * 1e6, r["bytes"] / r["t"] / 1e9,
            100 * r["bytes"] / r["t"] / best_copy, r["bv"],
            "%.1f" % (r["t_staged"] * 1e6) if r["t_staged"] else "-",
            "%.3f" % (r["t_staged"] / r["t"]) if r["t_staged"] else "-",
            "%.1f" % (r["t_fla"] * 1e6) if r["t_fla"] else "-",
            "%.0f%%" % (100 * r["bytes"] / r["t_fla"] / best_copy) if r["t_fla"] else "-",
            "%.2fx" % (r["t_fla"] / r["t"]) if r["t_fla"] else "-", r["check"],
            r["others"] or "-"))
    text = "\n".join(head + table) + "\n"
    print()
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
        print("gdp: wrote %s" % a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
