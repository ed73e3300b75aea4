#!/usr/bin/env python3
"""Gated delta product decode (kernels_src/gdp) against copy bandwidth and flash-linear-attention.

    python3 bench/gdp.py [--build build] [--out gdp.md] [--quick] [--heads 16,32,64]
                         [--batches 1,2,...,512] [--l2norm both|on|off] [--gqa 1]
                         [--design-heads 32,64] [--design-batches 128,256,512]
                         [--designs base,rows,...] [--design NAME] [--no-sweep]

Runs on a GPU machine with PyTorch; the kernels are the variants tests/gpu/gdp.cmake built
into build/gen/gdp/<kernel>/ (listed in build/gen/gdp/variants.json), loaded with
python/cakec_torch.py. The family has several designs of one kernel (docs/gdp.md): base
(gdp_decode.cake), rows, fused, warp, tma, ksplit and multi (gdp_decode_<design>.cake), each built
for some V slice widths (BV) and, for tma, pipeline depths and blocks per SM; a "config"
is one such build. The design "entry" is the shipped entry point gdp_decode_multi as a
user calls it (at T = NH = 1 it launches tma below 2048 heads, multi above), so that its
choice shows beside the designs it chooses from. In one run it measures

- device-to-device copy bandwidth (torch copy_, cuMemcpyDtoDAsync, a copy kernel; the best
  is the reference, bytes read + written);
- the designs: for T = 1, NH = 1 (Gated DeltaNet decode), K = V = 128, bf16, value heads
  in --design-heads and batches in --design-batches, every config of every design and
  fla's fused_recurrent_gated_delta_rule (the `fla` package; skipped with a note when it
  does not import) on the same tensors. Per shape the fastest config is the row; all the
  others are listed beside it. The best design is the one whose fastest config is
  nearest the fastest of all, shape by shape (geometric mean of the ratios), unless
  --design names one;
- the sweep, with the best design: T = 1, NH = 1, K = V = 128, bf16, value heads in
  --heads and batches in --batches, q/k normalised in the kernel or not (--l2norm): the
  design's configs (the fastest is the row), the fastest config staged through shared
  memory (--no-staging-elision, where the design has that twin), the base design's
  configs (its fastest shown), and fla;
- a few T > 1 and NH > 1 shapes at the largest batch (base design), against fla's fused
  recurrent rule run over T * NH sub-tokens (decay on the first sub-token of each token;
  fla has no fused recurrent gated delta product).

Achieved bandwidth = (state read + state written + q, k, v, g, beta read + o written) /
time, shown as a share of the copy bandwidth. The state is updated in place by cakec and
read/written by fla (initial_state -> final_state), the same bytes either way. Each call
rotates over enough copies of all tensors (>= 256 MiB) that no call finds its state in L2
(in a model, other layers run between two decode steps of one layer). Timing: CUDA graph
replays of a calibrated loop, median of --reps (bench/bandwidth.py's Timer). Before timing,
each cakec config's output and state are compared with fla's (max relative error; with
the first config's when fla is missing) and a kernel with a staged twin with the twin (bit
for bit). Prints tables and writes them as markdown with the date, GPU, driver and
versions.
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

from bandwidth import Timer, copy_bandwidth, driver_version, git_rev  # noqa: E402

MiB = 1 << 20
DESIGNS = ("base", "rows", "fused", "warp", "tma", "ksplit", "multi", "entry")      # report order


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build folder holding gen/gdp/ (default: build)")
    ap.add_argument("--out", help="write the markdown report here")
    ap.add_argument("--quick", action="store_true", help="a smoke test: few shapes and reps")
    ap.add_argument("--reps", type=int, default=7, help="repetitions; the median is reported")
    ap.add_argument("--eager", action="store_true", help="time plain loops, not graph replays")
    ap.add_argument("--heads", default="16,32,64", help="value heads of the sweep (comma list)")
    ap.add_argument("--batches", default="1,2,4,8,16,32,64,128,256,512",
                    help="batch sizes of the sweep (comma list)")
    ap.add_argument("--design-heads", default="32,64",
                    help="value heads of the design comparison (comma list)")
    ap.add_argument("--design-batches", default="128,256,512",
                    help="batch sizes of the design comparison (comma list)")
    ap.add_argument("--designs", default=",".join(DESIGNS),
                    help="the designs to measure (comma list; default: all)")
    ap.add_argument("--design", help="the design of the sweep (default: the best measured)")
    ap.add_argument("--no-sweep", action="store_true",
                    help="the design comparison only (no sweep, no T > 1 / NH > 1 shapes)")
    ap.add_argument("--l2norm", default="both", choices=["both", "on", "off"],
                    help="q/k L2-normalised in the kernel (fla's use_qk_l2norm_in_kernel)")
    ap.add_argument("--gqa", type=int, default=1, help="value heads per q/k head")
    ap.add_argument("--multi", default="2,1;4,1;8,1;1,2;1,3",
                    help="the T > 1 / NH > 1 shapes, as T,NH pairs separated by ';'")
    ap.add_argument("--multi-batches", default="128,512",
                    help="batches of the T > 1 / NH > 1 shapes (at the sweep's middle head count)")
    ap.add_argument("--only-multi", action="store_true",
                    help="measure only the T > 1 / NH > 1 shapes")
    return ap.parse_args(argv)


class Shape(object):
    def __init__(self, B, T, NH, HQK, HV, K, V):
        self.B, self.T, self.NH, self.HQK, self.HV, self.K, self.V = B, T, NH, HQK, HV, K, V

    def bytes(self, ebytes=2):
        B, T, NH, HQK, HV, K, V = self.B, self.T, self.NH, self.HQK, self.HV, self.K, self.V
        state = 2 * B * HV * K * V * 4
        ins = (B * T * HQK * K + B * T * NH * HQK * K + B * T * NH * HV * V +
               B * T * NH * HV) * ebytes + B * T * HV * 4
        return state + ins + B * T * HV * V * ebytes


# ---- the variants (build/gen/gdp/variants.json) ----

def config_label(v):
    """A config's short name: design, slice width and, for a design with them (tma), blocks
    per SM and stages; multi's TFUSE where a variant sets it."""
    label = "%s BV%d" % (v.get("design", "base"), v["BV"])
    if v.get("cps"):
        label += " c%ds%d" % (v.get("cps", 0), v.get("stages", 0))
    if v.get("ks"):
        label += " ks%d" % v["ks"]
    if v.get("tfuse"):     # TFUSE at or above T: the token loop fully unrolled
        label += " unrolled" if v["tfuse"] >= v["T"] else " fuse%d" % v["tfuse"]
    return label


def configs_of(variants, T, NH, l2, design=None):
    """The elided (not staged) bf16 K = V = 128 variants of (T, NH, l2), of one design or
    all, in a stable order: design (DESIGNS order), BV, then the tma parameters."""
    out = [v for v in variants
           if (v["T"], v["NH"], v["KD"], v["VD"], bool(v["l2norm"]), v["dtype"], bool(v["staged"]))
           == (T, NH, 128, 128, l2, "bf16", False)
           and (design is None or v.get("design", "base") == design)]

    def key(v):
        d = v.get("design", "base")
        return (DESIGNS.index(d) if d in DESIGNS else len(DESIGNS), d, v["BV"],
                v.get("cps", 0), v.get("stages", 0), v.get("ks", 0))
    return sorted(out, key=key)


def twin_of(variants, v):
    for w in variants:
        if w["name"] == v["name"] + "_staged":
            return w
    return None


def best_design(shapes_times):
    """shapes_times: one {config: (design, seconds)} per shape. The design whose fastest
    config is nearest the fastest of all, by the geometric mean over the shapes where it
    was measured of (its fastest / the fastest); ties and designs measured on fewer shapes
    lose. Returns (design, {design: score})."""
    logs, counts = {}, {}
    for times in shapes_times:
        if not times:
            continue
        fastest = min(t for _, t in times.values())
        per_design = {}
        for d, t in times.values():
            per_design[d] = min(t, per_design.get(d, t))
        for d, t in per_design.items():
            logs[d] = logs.get(d, 0.0) + math.log(t / fastest)
            counts[d] = counts.get(d, 0) + 1
    if not logs:
        return None, {}
    most = max(counts.values())
    scores = {d: math.exp(logs[d] / counts[d]) for d in logs}
    ranked = sorted(scores, key=lambda d: (counts[d] < most, scores[d],
                                           DESIGNS.index(d) if d in DESIGNS else 99))
    return ranked[0], scores


# ---- tensors and fla ----

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


def best_time(row):
    """A report row's time: its fastest config's."""
    return row["times"][row["best"]][1]


def aims_line(what, rows, copy_bw, aim_pct):
    """The report's line on rows against the issue's aims: the worst share of copy
    bandwidth and, where fla ran on every row, the worst ratio to fla."""
    worst = min(100 * r["bytes"] / best_time(r) / copy_bw for r in rows)
    fla = ("" if not all(r["t_fla"] for r in rows) else
           "; at least %.2fx fla (aim 1.3x)" % min(r["t_fla"] / best_time(r) for r in rows))
    return "- %s: at least %.0f%% of copy bandwidth (aim %d%%)%s" % (what, worst, aim_pct, fla)


def max_rel(got, ref, floor):
    got, ref = got.double(), ref.double()
    return ((got - ref).abs() / ref.abs().clamp(min=floor)).max().item()


# ---- the report ----

def fmt_us(t):
    return "%.1f" % (t * 1e6) if t else "-"


def pct(nbytes, t, copy_bw):
    return "%.0f%%" % (100 * nbytes / t / copy_bw) if t else "-"


def ratio(a, b):
    return "%.2fx" % (a / b) if a and b else "-"


def others_text(times, best):
    return ", ".join("%s %.1f" % (c, times[c][1] * 1e6) for c in times if c != best) or "-"


def design_table(rows, copy_bw):
    out = [
        "",
        "## Designs (T=1, NH=1, K=V=128, bf16)",
        "",
        "| shape | heads | MB moved | best config | us | GB/s | % copy | base us | base/best | "
        "fla us | fla % copy | fla/best | check | other configs (us) |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        best, t = r["best"], r["times"][r["best"]][1]
        out.append("| %s | %d | %.1f | %s | %.1f | %.0f | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["label"], r["heads"], r["bytes"] / 1e6, best, t * 1e6, r["bytes"] / t / 1e9,
            pct(r["bytes"], t, copy_bw), fmt_us(r["t_base"]), ratio(r["t_base"], t),
            fmt_us(r["t_fla"]), pct(r["bytes"], r["t_fla"], copy_bw), ratio(r["t_fla"], t),
            r["check"], others_text(r["times"], best)))
    return out


def sweep_table(rows, copy_bw, title):
    out = [
        "",
        "## %s" % title,
        "",
        "| shape | heads | MB moved | config | us | GB/s | % copy | staged us | elided/staged | "
        "base us | base/best | fla us | fla % copy | fla/cakec | check | other configs (us) |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        best, t = r["best"], r["times"][r["best"]][1]
        ts = r["t_staged"]
        out.append("| %s | %d | %.1f | %s | %.1f | %.0f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["label"], r["heads"], r["bytes"] / 1e6, best, t * 1e6, r["bytes"] / t / 1e9,
            pct(r["bytes"], t, copy_bw), fmt_us(ts), "%.3f" % (ts / t) if ts else "-",
            fmt_us(r["t_base"]), ratio(r["t_base"], t), fmt_us(r["t_fla"]),
            pct(r["bytes"], r["t_fla"], copy_bw), ratio(r["t_fla"], t), r["check"],
            others_text(r["times"], best)))
    return out


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
    gen = os.path.join(a.build, "gen", "gdp")
    with open(os.path.join(gen, "variants.json")) as f:
        variants = json.load(f)
    built = cakec_torch.targets(os.path.join(gen, variants[0]["dir"]))
    if "sm_%d%da" % (props.major, props.minor) not in built:
        print("SKIPPED: gdp: %s is sm_%d%d; the kernels are built for %s"
              % (props.name, props.major, props.minor, ", ".join(built)))
        return 0
    wanted = set(a.designs.split(",")) | ({a.design} if a.design else set())
    variants = [v for v in variants if v.get("design", "base") in wanted]
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
    best_copy, copy_desc = copy_bandwidth(torch, timer, size, dev, notes)
    print("copy bandwidth: %s; best %.0f GB/s" % (copy_desc, best_copy / 1e9), flush=True)

    def measure(sh, l2, label, configs, base_configs=(), staged_best=False):
        """Checks and times configs (and base_configs, which may overlap them) and fla on
        one shape; returns the row (None when no config exists). The fastest of configs
        is the row's; the fastest of base_configs is its base time."""
        configs = list(configs)
        if not configs:
            return None
        everything = configs + [v for v in base_configs if v not in configs]
        scale = sh.K ** -0.5
        nbytes = sh.bytes()
        per_set = nbytes + sh.B * sh.HV * sh.K * sh.V * 4   # + fla's separate final state
        nrot = max(1, min(64, int(math.ceil(256 * MiB / per_set))))
        sets = [make_inputs(torch, sh, l2, dev, 1000 + i) for i in range(nrot)]
        s0 = sets[0]["s"].clone()

        def run_cake(fn, i):
            x = sets[i % nrot]
            fn(q=x["q"], k=x["k"], v=x["v"], g=x["g"], beta=x["beta"], s=x["s"], o=x["o"],
               inter=x["inter"], scale=scale)

        def run_once(v):
            sets[0]["s"].copy_(s0)
            run_cake(kernel(v), 0)
            torch.cuda.synchronize()
            return sets[0]["o"].clone(), sets[0]["s"].clone()

        # correctness once, from the same initial state: against fla (or the first
        # config), and bit for bit against the staged twin where there is one
        checks, unequal, twins = [], [], 0
        ref, ref_name = None, None
        t_fla = None
        if fla_fn is not None:
            try:
                sets[0]["s"].copy_(s0)
                ref = fla_call(fla_fn, torch, sh, sets[0], l2, scale)
                ref = (ref[0].clone(), ref[1].clone())
                ref_name = "fla"
            except Exception as e:
                notes.append("fla failed on %s: %s: %s" % (label, type(e).__name__, e))
                ref = None
        worst_o, worst_s = 0.0, 0.0
        failed = []
        for v in list(everything):
            try:
                o_c, s_c = run_once(v)
            except cakec_torch.CakeError as e:
                # a launcher that refuses the shape: left out, with a note (a kernel
                # that faults takes the CUDA context with it: --designs leaves it out)
                notes.append("%s failed on %s: %s" % (config_label(v), label, e))
                failed.append(v)
                continue
            if ref is None:
                ref, ref_name = (o_c, s_c), config_label(v)
            else:
                worst_o = max(worst_o, max_rel(o_c, ref[0], 1e-2))
                worst_s = max(worst_s, max_rel(s_c, ref[1], 1e-1))
            tw = twin_of(variants, v)
            if tw is not None:
                twins += 1
                o_t, s_t = run_once(tw)
                if not (torch.equal(o_c, o_t) and torch.equal(s_c, s_t)):
                    unequal.append(config_label(v))
                del o_t, s_t
            del o_c, s_c
        del ref
        configs = [v for v in configs if v not in failed]
        base_configs = [v for v in base_configs if v not in failed]
        everything = [v for v in everything if v not in failed]
        if not configs:
            return None
        if twins:
            checks.append("elided == staged (%d)" % twins if not unequal else
                          "ELIDED != STAGED: " + ", ".join(unequal))
        if len(everything) > 1 or ref_name == "fla":
            checks.append("vs %s: o %.1e, state %.1e" % (ref_name, worst_o, worst_s))
        if fla_fn is not None and ref_name == "fla":
            try:
                holders = [dict(x) for x in sets]
                t_fla = timer(lambda i: fla_call(fla_fn, torch, sh, holders[i % nrot], l2, scale))
            except Exception as e:
                notes.append("fla failed on %s: %s: %s" % (label, type(e).__name__, e))
                t_fla = None
        times = {}
        for v in everything:
            fn = kernel(v)
            times[config_label(v)] = (v.get("design", "base"), timer(lambda i, fn=fn: run_cake(fn, i)))
        own = {config_label(v): times[config_label(v)] for v in configs}
        best = min(own, key=lambda c: own[c][1])
        t = own[best][1]
        t_staged = None
        if staged_best:
            bv = [v for v in configs if config_label(v) == best][0]
            tw = twin_of(variants, bv)
            if tw is not None:
                fn = kernel(tw)
                t_staged = timer(lambda i: run_cake(fn, i))
        base = [times[config_label(v)][1] for v in base_configs]
        row = dict(label=label, heads=sh.B * sh.HV, bytes=nbytes, best=best, times=times,
                   t_staged=t_staged, t_base=min(base) if base else None, t_fla=t_fla,
                   check="; ".join(checks))
        print("%-30s %5d heads  %-18s %8.1f us %5.0f%% copy | base %8s us | fla %8s us | "
              "fla/cakec %5s | %s | others: %s" % (
                  label, row["heads"], best, t * 1e6, 100 * nbytes / t / best_copy,
                  fmt_us(row["t_base"]), fmt_us(t_fla), ratio(t_fla, t), row["check"],
                  others_text(times, best)), flush=True)
        del sets, s0
        torch.cuda.empty_cache()
        return row

    # ---- the designs ----
    d_heads = [int(x) for x in a.design_heads.split(",")]
    d_batches = [int(x) for x in a.design_batches.split(",")]
    if a.quick:
        d_heads, d_batches = d_heads[-1:], d_batches[-1:]
    all_t1 = configs_of(variants, 1, 1, False)
    base_t1 = configs_of(variants, 1, 1, False, "base")
    design_rows = []
    for hv in ([] if a.only_multi else d_heads):
        for b in d_batches:
            sh = Shape(b, 1, 1, max(1, hv // a.gqa), hv, 128, 128)
            r = measure(sh, False, "T=1 NH=1 HV=%d B=%d" % (hv, b), all_t1, base_t1)
            if r:
                design_rows.append(r)
    chosen, scores = best_design([r["times"] for r in design_rows])
    if a.design:
        chosen = a.design
    print("gdp: design scores (geometric mean of fastest config / fastest of all): %s; sweep "
          "with %s" % (", ".join("%s %.3f" % (d, s) for d, s in sorted(scores.items(), key=lambda x: x[1])),
                       chosen), flush=True)

    # ---- the sweep with the chosen design ----
    rows, extra = [], []
    if not a.no_sweep and not a.only_multi and chosen:
        heads = [int(x) for x in a.heads.split(",")]
        batches = [int(x) for x in a.batches.split(",")]
        if a.quick:
            heads, batches = heads[:1], [b for b in batches if b in (1, 32, 512)] or batches[:2]
        l2s = {"both": [False, True], "on": [True], "off": [False]}[a.l2norm]
        for l2 in l2s:
            mine = configs_of(variants, 1, 1, l2, chosen)
            base = configs_of(variants, 1, 1, l2, "base")
            if not mine:
                notes.append("design %s has no T=1 NH=1%s config: the sweep uses base" %
                             (chosen, " l2" if l2 else ""))
                mine = base
            for hv in heads:
                for b in batches:
                    sh = Shape(b, 1, 1, max(1, hv // a.gqa), hv, 128, 128)
                    r = measure(sh, l2, "T=1 NH=1 HV=%d B=%d%s" % (hv, b, " l2" if l2 else ""),
                                mine, base, staged_best=True)
                    if r:
                        rows.append(r)

    # ---- T > 1 / NH > 1: every design that has the pair, at large batch ----
    if not a.no_sweep or a.only_multi:
        sweep_heads = [int(x) for x in a.heads.split(",")]
        hv = sweep_heads[min(1, len(sweep_heads) - 1)]
        pairs = [tuple(int(x) for x in p.split(",")) for p in a.multi.split(";") if p]
        for T, NH in pairs:
            for b in [int(x) for x in a.multi_batches.split(",")]:
                sh = Shape(b, T, NH, max(1, hv // a.gqa), hv, 128, 128)
                r = measure(sh, True, "T=%d NH=%d HV=%d B=%d l2" % (T, NH, hv, b),
                            configs_of(variants, T, NH, True),
                            configs_of(variants, T, NH, True, "base"), staged_best=True)
                if r:
                    extra.append(r)

    # ---- report ----
    head = [
        "# gdp decode: cakec vs copy bandwidth and fla (%s)" % datetime.date.today().isoformat(),
        "",
        "- GPU: %s (sm_%d%d, %d SMs), driver %s, torch %s, fla %s, commit %s" % (
            props.name, props.major, props.minor, props.multi_processor_count, driver_version(),
            torch.__version__, fla_version, git_rev(a.build)),
        "- copy bandwidth (read + write): %s; reference (best) %.0f GB/s" % (
            copy_desc,
            best_copy / 1e9),
        "- K = V = 128, bf16 q/k/v/beta/o, f32 g and state, GQA %d; bytes = state read + "
        "written + inputs + outputs; %% copy = achieved / copy bandwidth; config = design "
        "(docs/gdp.md), BV = V columns per block, for tma cC sS = C blocks per SM and S "
        "pipeline stages; base = the base design's fastest config; staged = the same kernel "
        "with --no-staging-elision; fla/x = fla time / x time (above 1: cakec is faster)" % a.gqa,
        "- timing: CUDA graph replays, median of %d; tensors rotated over >= 256 MiB" % timer.reps,
    ]
    if design_rows:
        head.append(
            "- design scores (geometric mean over the design shapes of the design's fastest config "
            "/ the fastest of all; 1 = fastest everywhere): %s; the sweep uses **%s**%s" % (
                ", ".join("%s %.3f" % (d, s) for d, s in sorted(scores.items(), key=lambda x: x[1])) or "-",
                chosen, " (--design)" if a.design else ""))
    big = [r for r in design_rows + rows if r["heads"] >= 4096 and r["label"].startswith("T=1 NH=1")]
    if big:
        head.append(aims_line("large batch (>= 4096 heads, T=1, NH=1)", big, best_copy, 85))
    big_multi = [r for r in extra if r["heads"] >= 4096]
    if big_multi:
        head.append(aims_line("T > 1 / NH > 1 at >= 4096 heads", big_multi, best_copy, 90))
    for n in notes:
        head.append("- note: %s" % n)
    text = head + (design_table(design_rows, best_copy) if design_rows else [])
    if rows:
        text += sweep_table(rows, best_copy, "Sweep with design %s (T=1, NH=1)" % chosen)
    if extra:
        text += sweep_table(extra, best_copy, "T > 1 and NH > 1")
    text = "\n".join(text) + "\n"
    print()
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
        print("gdp: wrote %s" % a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
