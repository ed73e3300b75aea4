#!/usr/bin/env python3
"""Block-sparse attention forward (kernels_src/vsa) against FlexAttention and dense SDPA.

    python3 bench/vsa.py [--build build] [--out vsa.md] [--quick] [--reps 7] [--eager]
                         [--shapes B,H,S,D;...] [--densities 0.05,0.1,0.3,1.0]
                         [--blocks 64,128] [--dtypes bf16] [--causal off|on|both] [--seed 0]

Runs on a GPU machine with PyTorch (FlexAttention: torch.nn.attention.flex_attention) and
Triton; the kernels are what the build wrote into build/gen/vsa/ (the instances
vsa_<type>_d<head dim>_b<block> of the generic kernel vsa and its entry point vsa, listed
in manifest.json), loaded with python/cakec_torch.py. The kernel computes, per (b, h) and
query block qb of BLK rows, softmax(scale q k^T) v over the keys of the key blocks
kv_idx[b, h, qb, i], i < kv_num[b, h, qb] (block j = keys j*BLK .. min(S, (j+1)*BLK) - 1;
entries past kv_num are padding), with causal != 0 masking key > query, and writes o and
the natural-log sum-exp lse (f32; an empty row: o = 0, lse = -inf). Per shape, density and
block size (BLK, the same for queries and keys) it measures, in one run:

- cakec: the entry point vsa (it picks the instance by T, the head dim and the BLK whose
  cdiv(S, BLK) is the number of query blocks, and at 64-token blocks by the lists'
  capacity); the instance it says it picks (vsa.choose), is also run once on its own and
  its output compared with the entry point's bit for bit ("vsa = vsa_bf16_d128_b128" in
  the check table);
- FlexAttention: torch.compile(flex_attention, dynamic=False) with a BlockMask built from
  the same kv_num / kv_idx tensors by BlockMask.from_kv_blocks(BLOCK_SIZE=BLK,
  seq_lengths=(S, S)). The listed blocks go in the *full* fields (full_kv_num_blocks,
  full_kv_indices), which FlexAttention computes without calling a mask_mod, and the
  partial fields (kv_num_blocks, kv_indices) are empty; with --causal, the diagonal
  blocks (kb == qb) are partial, with the mask_mod q_idx >= kv_idx, and only those. Keys
  at and past S (the last block when S is not a multiple of BLK) are masked by
  FlexAttention itself. lse comes from return_aux=AuxRequest(lse=True) (natural log),
  where this torch has it, else return_lse=True. The first call (the compile, then one
  run) is timed on the wall clock, with Inductor's and Triton's on-disk caches pointed at
  a new empty folder for the run (so it is a cold compile however often the machine ran
  this); the rows after the first of a (shape, block) reuse the compiled kernel, so their
  first call is one run. When the default kernel refuses the block size (on the H200, at
  head dim 128 in bf16, its tile is BLOCK_M 128 x BLOCK_N 64, and 64-token blocks are
  refused: "Q and KV block size must be divisible by BLOCK_M and BLOCK_N"), the row says
  "refused: <reason>" and FlexAttention is run again with kernel_options BLOCK_M = BLOCK_N
  = 64 (4 warps, 3 stages: its generic tile); that time, where it runs, is shown beside
  the refusal and marked * (the first call then counts both attempts);
- dense SDPA (density 1.0 rows only; once per shape): torch.nn.functional.
  scaled_dot_product_attention under torch.nn.attention.sdpa_kernel with each of the
  flash, cuDNN and memory-efficient backends; the fastest that runs is the row's SDPA,
  and each backend's time (or why it did not run) is in the notes.

Masks: for each (b, h, qb), max(1, round(density * NKV)) distinct key blocks (NKV =
cdiv(S, BLK); with --causal, of the qb + 1 blocks kb <= qb) drawn at random with a seed
fixed by --seed and the configuration, sorted; kv_idx holds them first, then the blocks not
drawn (padding, also sorted; so a kernel that read past kv_num would be caught), NK = NKV.
Density 1.0 lists every block. q, k, v: standard normal in the kernel's type, scale =
1 / sqrt(D); one set per shape, the same for every density and block.

Effective TFLOP/s count only the listed blocks: 4 * D * the (query, key) pairs they hold,
sum over listed (qb, kb) of (rows of qb) * (keys of kb) (with --causal only the pairs
key <= query); every column of a row (cakec, FlexAttention, SDPA) is that count over its
own time, so the ratios are ratios of times. At density 1.0 the count is SDPA's dense one.
cakec/Flex = Flex time / cakec time; cakec/SDPA = SDPA time / cakec time (above 1: cakec is
faster); 64/128 = cakec's 64-block TFLOP/s as a share of its 128-block TFLOP/s at the same
shape and density (the masks differ, their densities match).

Correctness, before timing, on every configuration: cakec's o and lse against
FlexAttention's (or, where FlexAttention refuses, against the reference), and both against
a chunked float32 torch reference (dense q k^T per query chunk, the block mask expanded to
tokens, exact softmax). o error: max |got - ref| / max |ref|; lse error: max |got - ref|
over the finite entries (the non-finite entries must match, else the error is inf). A cakec
o error above 3e-2 or lse error above 1e-2 marks the row WRONG and the exit status 1.

Timing: CUDA graph replays of a calibrated loop, median of --reps (bench/bandwidth.py's
Timer), or plain loops with --eager; a failed graph capture falls back to plain loops, with
a note. No L2 rotation: attention is compute bound; a head's k and v (4 or 16 MB here) are
re-read from L2 by its query blocks in every implementation, as in a model, and q, k, v
together (3 x 134 MB, 3 x 201 MB) far exceed the 60 MB L2, so a call finds little of the
previous call's data there.

The acceptance the numbers are read against (its verdicts close the report, on the rows
without --causal): (1) cakec >= 1.3x FlexAttention at 128-token blocks for every density
below 1.0 on both shapes; (2) at density 1.0 cakec >= 0.95x the fastest SDPA backend;
(3) 64-token blocks at D = 128 reach >= 80% of the 128-block kernel's effective TFLOP/s at
the same density.

--quick: a smoke test, one small shape (B1 H4 S4040 D128, not a multiple of the block),
densities 0.1 and 1.0, both blocks, few reps; --shapes / --densities / --blocks override.
--dtypes f16 runs the f16 instances; --causal on|both adds causal rows. Prints the rows as
they come and the report (markdown, with the date, GPU, driver, torch / CUDA / Triton
versions and commit), written to --out. Exit status 1 when build/gen/vsa is missing or a
row is WRONG, else 0 (also when there is no GPU or the kernels are not built for it:
SKIPPED).
"""

import argparse
import datetime
import inspect
import json
import math
import os
import re
import subprocess
import sys
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from bandwidth import Timer, driver_version, git_rev  # noqa: E402

GiB = 1 << 30
# the issue's shapes: an image/LLM-like B4 H16 S8192 and a video model's sequence
# (B1 H24 S32760: not a multiple of either block)
SHAPES = "4,16,8192,128;1,24,32760,128"
DENSITIES = "0.05,0.1,0.3,1.0"
BLOCKS = "64,128"
QUICK_SHAPES = "1,4,4040,128"        # NQ 64 and 32: as aligned as the real shapes
QUICK_DENSITIES = "0.1,1.0"
TOL_O = 3e-2        # cakec vs FlexAttention / reference: max |got - ref| / max |ref|
TOL_LSE = 1e-2      # max |got - ref| on the finite entries
INST_RE = re.compile(r"^vsa_(bf16|f16)_d(\d+)_b(\d+)$")
SDPA_BACKENDS = (("flash", "FLASH_ATTENTION"), ("cudnn", "CUDNN_ATTENTION"),
                 ("efficient", "EFFICIENT_ATTENTION"))


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build folder holding gen/vsa/ (default: build)")
    ap.add_argument("--out", help="write the markdown report here")
    ap.add_argument("--quick", action="store_true",
                    help="a smoke test: one small shape, densities 0.1 and 1.0, few reps")
    ap.add_argument("--reps", type=int, default=7, help="repetitions; the median is reported")
    ap.add_argument("--eager", action="store_true", help="time plain loops, not graph replays")
    ap.add_argument("--shapes", help="B,H,S,D;... (default: %s)" % SHAPES)
    ap.add_argument("--densities", help="comma list (default: %s)" % DENSITIES)
    ap.add_argument("--blocks", help="block sizes BLK, comma list (default: %s)" % BLOCKS)
    ap.add_argument("--dtypes", default="bf16", help="bf16, f16 (comma list; default bf16)")
    ap.add_argument("--causal", choices=("off", "on", "both"), default="off",
                    help="mask key > query too (default off: video attention is not causal)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the masks and inputs")
    ap.add_argument("--lists", choices=("padded", "compact"), default="padded",
                    help="cakec's kv_idx: one slot per key block, as FlexAttention's BlockMask "
                         "(padded, the default), or as many as the longest list (compact: "
                         "top-k lists)")
    a = ap.parse_args(argv)
    a.shape_list = parse_shapes(a.shapes or (QUICK_SHAPES if a.quick else SHAPES))
    a.density_list = [float(x) for x in
                      (a.densities or (QUICK_DENSITIES if a.quick else DENSITIES)).split(",") if x]
    a.block_list = [int(x) for x in (a.blocks or BLOCKS).split(",") if x]
    a.dtype_list = [x for x in a.dtypes.split(",") if x]
    a.causal_list = {"off": [False], "on": [True], "both": [False, True]}[a.causal]
    for d in a.density_list:
        if not 0.0 < d <= 1.0:
            ap.error("density %g is not in (0, 1]" % d)
    for blk in a.block_list:
        if blk <= 0:
            ap.error("block %d is not positive" % blk)
    for t in a.dtype_list:
        if t not in ("bf16", "f16"):
            ap.error("dtype %s: bf16 or f16" % t)
    return a


def parse_shapes(text):
    out = []
    for s in text.split(";"):
        if not s.strip():
            continue
        v = tuple(int(x) for x in s.split(","))
        if len(v) != 4 or min(v) <= 0:
            raise SystemExit("vsa.py: shape '%s' is not B,H,S,D" % s)
        out.append(v)
    return out


def cdiv(a, b):
    return (a + b - 1) // b


def blocks_drawn(density, cand):
    """max(1, round(density * cand)) (halves rounded up, not to even), at most cand."""
    return max(1, min(cand, int(math.floor(density * cand + 0.5))))


def config_seed(seed, B, H, S, blk, density, causal):
    key = "%d:%d,%d,%d:%d:%.6f:%d" % (seed, B, H, S, blk, density, int(causal))
    return zlib.crc32(key.encode()) & 0x7FFFFFFF


# ---- masks (pure torch; run on the CPU) ----

def make_mask(torch, B, H, S, blk, density, causal, seed):
    """The random block mask of one configuration: (kv_num i32[B, H, NQ], kv_idx
    i32[B, H, NQ, NKV]) on the CPU. Row (b, h, qb) lists max(1, round(density * cand))
    distinct blocks drawn from its cand candidates (every block; with causal those with
    kb <= qb), ascending, then the blocks not drawn, ascending (padding)."""
    nq = nkv = cdiv(S, blk)
    g = torch.Generator()
    g.manual_seed(seed)
    r = torch.rand((B, H, nq, nkv), generator=g)
    qb = torch.arange(nq).view(nq, 1)
    kb = torch.arange(nkv).view(1, nkv)
    if causal:
        allowed = (kb <= qb).expand(nq, nkv)
        cand = torch.arange(1, nq + 1)
    else:
        allowed = torch.ones((nq, nkv), dtype=torch.bool)
        cand = torch.full((nq,), nkv, dtype=torch.int64)
    r = r.masked_fill(~allowed, 2.0)               # candidates first, in a random order
    rank = r.argsort(dim=-1, stable=True).argsort(dim=-1, stable=True)
    k_row = torch.tensor([blocks_drawn(density, int(c)) for c in cand.tolist()],
                         dtype=torch.int64)
    sel = rank < k_row.view(nq, 1)
    return ordered(torch, sel)


def ordered(torch, dense):
    """A bool [..., NQ, NKV] block mask as (num i32[..., NQ], idx i32[..., NQ, NKV]): the
    set blocks ascending, then the others ascending."""
    nkv = dense.shape[-1]
    key = (~dense).to(torch.int64) * nkv + torch.arange(nkv, device=dense.device)
    idx = key.argsort(dim=-1, stable=True).to(torch.int32)
    num = dense.sum(dim=-1).to(torch.int32)
    return num.contiguous(), idx.contiguous()


def to_dense(torch, num, idx, nkv):
    """kv_num / kv_idx as a bool [..., NQ, NKV] block mask (entries past num ignored)."""
    nk = idx.shape[-1]
    valid = torch.arange(nk, device=idx.device) < num.unsqueeze(-1).to(torch.int64)
    col = torch.where(valid, idx.to(torch.int64), torch.full_like(idx, nkv, dtype=torch.int64))
    dense = torch.zeros(tuple(idx.shape[:-1]) + (nkv + 1,), dtype=torch.bool, device=idx.device)
    dense.scatter_(-1, col, True)
    return dense[..., :nkv]


def flex_fields(torch, kv_num, kv_idx, nkv, causal):
    """BlockMask.from_kv_blocks' fields for the same mask: (partial num, partial idx, full
    num, full idx). Without causal every listed block is full and none is partial; with
    causal the blocks kb < qb are full, kb == qb partial (the mask_mod applies there) and
    kb > qb (wholly masked) are dropped."""
    dense = to_dense(torch, kv_num, kv_idx, nkv)
    if not causal:
        pnum = torch.zeros_like(kv_num)
        pidx = torch.zeros_like(kv_idx)
        return pnum, pidx, kv_num.clone(), kv_idx.clone()
    nq = dense.shape[-2]
    qb = torch.arange(nq, device=dense.device).view(nq, 1)
    kb = torch.arange(nkv, device=dense.device).view(1, nkv)
    pnum, pidx = ordered(torch, dense & (kb == qb))
    fnum, fidx = ordered(torch, dense & (kb < qb))
    return pnum, pidx, fnum, fidx


def pair_count(torch, kv_num, kv_idx, S, blk, causal):
    """The (query, key) pairs the listed blocks hold: sum over listed (qb, kb) of rows(qb)
    * keys(kb); with causal only key <= query (kb > qb: none, kb == qb: r (r + 1) / 2)."""
    kv_num, kv_idx = kv_num.cpu(), kv_idx.cpu()
    nq = kv_num.shape[-1]
    nkv = cdiv(S, blk)
    size = (S - torch.arange(nkv, dtype=torch.int64) * blk).clamp(max=blk)
    nk = kv_idx.shape[-1]
    valid = torch.arange(nk) < kv_num.unsqueeze(-1).to(torch.int64)
    kb = kv_idx.to(torch.int64).clamp(0, nkv - 1)
    keys = size[kb]
    rows = size[:nq].view(nq, 1)
    if causal:
        qb = torch.arange(nq).view(nq, 1)
        pairs = torch.where(kb < qb, rows * keys,
                            torch.where(kb == qb, rows * (rows + 1) // 2, torch.zeros_like(keys)))
    else:
        pairs = rows * keys
    return int((pairs * valid).sum().item())


def dense_pairs(B, H, S, causal):
    return B * H * (S * (S + 1) // 2 if causal else S * S)


# ---- the float32 reference (chunked; runs on any device) ----

def reference(torch, q, k, v, kv_num, kv_idx, blk, scale, causal, chunk_rows=4096):
    """o (f32) and lse (f32, natural log) of the block-sparse attention, exactly: per (b, h)
    and chunk of query rows, q k^T in float32, the block mask expanded to tokens, softmax,
    times v. An empty row gives o = 0, lse = -inf."""
    B, H, S, D = q.shape
    nkv = cdiv(S, blk)
    dense = to_dense(torch, kv_num.to(q.device), kv_idx.to(q.device), nkv)
    o = torch.empty((B, H, S, D), dtype=torch.float32, device=q.device)
    lse = torch.empty((B, H, S), dtype=torch.float32, device=q.device)
    step = max(blk, (chunk_rows // blk) * blk)
    kpos = torch.arange(S, device=q.device)
    kblk = kpos // blk
    for b in range(B):
        for h in range(H):
            kf = k[b, h].float()
            vf = v[b, h].float()
            for r0 in range(0, S, step):
                r1 = min(S, r0 + step)
                qpos = torch.arange(r0, r1, device=q.device)
                m = dense[b, h].index_select(0, qpos // blk).index_select(1, kblk)
                if causal:
                    m &= kpos.view(1, S) <= qpos.view(-1, 1)
                s = torch.matmul(q[b, h, r0:r1].float(), kf.t()) * scale
                s.masked_fill_(~m, float("-inf"))
                ls = torch.logsumexp(s, dim=-1)
                # exp(-inf - lse) = 0 off the mask; an empty row (lse = -inf) gives p = 0
                p = torch.exp(s - ls.unsqueeze(-1).clamp(min=-3e38))
                o[b, h, r0:r1] = torch.matmul(p, vf)
                lse[b, h, r0:r1] = ls
                del s, p, m
    return o, lse


def err_o(torch, got, ref):
    g = got.float()
    if not bool(torch.isfinite(g).all()):
        return float("inf")
    r = ref.float()
    return ((g - r).abs().max() / r.abs().max().clamp(min=1e-30)).item()


def err_lse(torch, got, ref):
    fg, fr = torch.isfinite(got), torch.isfinite(ref)
    if not bool((fg == fr).all()) or not bool((got[~fr] == ref[~fr]).all()):
        return float("inf")
    if not bool(fr.any()):
        return 0.0
    return (got[fr] - ref[fr]).abs().max().item()


# ---- the kernels ----

def instances_of(gen):
    """{(type, head dim, block): instance name} of the entry point vsa (or, without one,
    of the manifest's kernels), and whether the entry point is there."""
    with open(os.path.join(gen, "manifest.json")) as f:
        man = json.load(f)
    entries = [e for e in man if e.get("entry") == "vsa"]
    names = entries[0]["instances"] if entries else [e["kernel"] for e in man if "kernel" in e]
    out = {}
    for n in names:
        m = INST_RE.match(n)
        if m:
            out.setdefault((m.group(1), int(m.group(2)), int(m.group(3))), n)
    return out, bool(entries)


def causal_mask(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


class Flex(object):
    """torch.compile'd flex_attention returning (o, lse); lse through return_aux where this
    torch has it, else return_lse."""

    def __init__(self, torch):
        from torch.nn.attention import flex_attention as fa
        self.torch = torch
        self.mod = fa
        self.fn = torch.compile(fa.flex_attention, dynamic=False)
        params = inspect.signature(fa.flex_attention).parameters
        self.aux = None
        if "return_aux" in params and hasattr(fa, "AuxRequest"):
            self.aux = fa.AuxRequest(lse=True)
        self.api = "return_aux=AuxRequest(lse=True)" if self.aux is not None else "return_lse=True"

    def block_mask(self, kv_num, kv_idx, S, blk, causal):
        nkv = cdiv(S, blk)
        pnum, pidx, fnum, fidx = flex_fields(self.torch, kv_num, kv_idx, nkv, causal)
        return self.mod.BlockMask.from_kv_blocks(
            pnum, pidx, full_kv_num_blocks=fnum, full_kv_indices=fidx, BLOCK_SIZE=blk,
            mask_mod=causal_mask if causal else None, seq_lengths=(S, S))

    def __call__(self, q, k, v, bm, scale, kernel_options=None):
        if self.aux is not None:
            out, aux = self.fn(q, k, v, block_mask=bm, scale=scale, return_aux=self.aux,
                               kernel_options=kernel_options)
            return out, aux.lse
        return self.fn(q, k, v, block_mask=bm, scale=scale, return_lse=True,
                       kernel_options=kernel_options)


def short_reason(e):
    """One line of an exception's text: the one naming the block or tile sizes if any."""
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    if not lines:
        return type(e).__name__
    for ln in lines:
        if re.search(r"BLOCK|[Bb]lock size|divisib|multiple of|shared memory|out of resource", ln):
            # "LoweringException: ValueError: text" -> "ValueError: text"
            m = re.match(r"^(?:\w+(?:Exception|Failed): )+(\w+Error: .*)$", ln)
            return (m.group(1) if m else ln)[:200]
    return ("%s: %s" % (type(e).__name__, lines[0]))[:200]


def raise_recompile_limits(torch):
    try:
        import torch._dynamo
        cfg = torch._dynamo.config
    except (ImportError, AttributeError):
        return
    for name, val in (("recompile_limit", 64), ("cache_size_limit", 64),
                      ("accumulated_recompile_limit", 512), ("accumulated_cache_size_limit", 512)):
        if hasattr(cfg, name):
            try:
                setattr(cfg, name, max(getattr(cfg, name), val))
            except (AttributeError, TypeError, ValueError):
                pass


def driver_text():
    """The driver's version as nvidia-smi names it, with the CUDA version it supports."""
    try:
        v = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=30,
                           check=True).stdout.decode().split("\n")[0].strip()
    except (OSError, subprocess.SubprocessError):
        v = ""
    return ("%s (CUDA %s)" % (v, driver_version())) if v else "CUDA %s" % driver_version()


def fmt_us(t):
    return "%.1f" % (t * 1e6) if t else "-"


def fmt_tf(flops, t):
    return "%.0f" % (flops / t / 1e12) if t else "-"


def fmt_err(e):
    return "-" if e is None else ("inf" if e == float("inf") else "%.1e" % e)


def cold_caches():
    """Points Inductor's and Triton's on-disk caches at a new empty folder (over whatever
    the environment names: the GPU machines' image sets TORCHINDUCTOR_CACHE_DIR), so that
    FlexAttention's first call is a cold compile however often the machine ran this; returns
    the folder (removed at the end) and a description."""
    import tempfile
    d = tempfile.mkdtemp(prefix="vsa-bench-cache-")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(d, "inductor")
    os.environ["TRITON_CACHE_DIR"] = os.path.join(d, "triton")
    return d, "cold: Inductor's and Triton's on-disk caches in a new empty folder for this run"


def main(argv=None):
    a = parse_args(argv)
    cache_dir, cache_desc = cold_caches()     # before torch is imported
    try:
        return run(a, cache_desc)
    finally:
        import shutil
        shutil.rmtree(cache_dir, ignore_errors=True)


def run(a, cache_desc):
    import torch
    import torch.nn.functional as F
    import cakec_torch

    if not torch.cuda.is_available():
        print("SKIPPED: vsa: no CUDA device visible to torch")
        return 0
    dev = torch.device("cuda", 0)
    torch.cuda.set_device(dev)
    props = torch.cuda.get_device_properties(dev)
    gen = os.path.join(a.build, "gen", "vsa")
    if not os.path.isfile(os.path.join(gen, "manifest.json")):
        print("FAIL: vsa: %s/manifest.json is missing (build the vsa family first)" % gen)
        return 1
    built = cakec_torch.targets(gen)
    if "sm_%d%da" % (props.major, props.minor) not in built:
        print("SKIPPED: vsa: %s is sm_%d%d; the kernels are built for %s"
              % (props.name, props.major, props.minor, ", ".join(built)))
        return 0
    lib = cakec_torch.load(gen)
    insts, has_entry = instances_of(gen)
    try:
        import triton
        triton_version = triton.__version__
    except ImportError:
        triton_version = "not installed"
    torch.backends.cuda.matmul.allow_tf32 = False      # the reference is float32 throughout
    raise_recompile_limits(torch)
    timer = Timer(torch, 3 if a.quick else a.reps, 0.005 if a.quick else 0.02, a.eager)
    flex = Flex(torch)
    from torch.nn.attention import sdpa_kernel, SDPBackend
    notes = []
    rows = []
    wrong = []

    def timed(fn, what):
        """Timer(fn); a failure under graph capture retried with plain loops (noted)."""
        try:
            return timer(fn)
        except Exception as e:      # noqa: BLE001 (any failure of a capture)
            if a.eager:
                raise
            torch.cuda.synchronize()
            notes.append("%s: timed with plain loops (graph capture failed: %s)"
                         % (what, short_reason(e)))
            return Timer(torch, timer.reps, timer.min_s, True)(fn)

    tdt = {"bf16": torch.bfloat16, "f16": torch.float16}
    for (B, H, S, D) in a.shape_list:
        for dt in a.dtype_list:
            g = torch.Generator(device=dev)
            g.manual_seed(a.seed)
            q = torch.randn((B, H, S, D), device=dev, generator=g).to(tdt[dt])
            k = torch.randn((B, H, S, D), device=dev, generator=g).to(tdt[dt])
            v = torch.randn((B, H, S, D), device=dev, generator=g).to(tdt[dt])
            scale = 1.0 / math.sqrt(D)
            for causal in a.causal_list:
                label = "B%d H%d S%d D%d%s%s" % (
                    B, H, S, D, "" if dt == "bf16" else " " + dt, " causal" if causal else "")
                sdpa = None             # measured at the first density 1.0 row of the shape
                for density in a.density_list:
                    for blk in a.block_list:
                        row = run_config(torch, F, a, lib, insts, has_entry, flex, timed, notes,
                                         sdpa_kernel, SDPBackend, q, k, v, B, H, S, D, dt, blk,
                                         density, causal, scale, label, sdpa)
                        if row.get("sdpa") is not None:
                            sdpa = row["sdpa"]
                        rows.append(row)
                        if row["wrong"]:
                            wrong.append("%s block %d density %g" % (label, blk, density))
                        torch.cuda.empty_cache()
            del q, k, v
            torch.cuda.empty_cache()

    # 64/128: cakec's 64-block TFLOP/s as a share of its 128-block TFLOP/s
    by_key = {(r["label"], r["density"], r["blk"]): r for r in rows}
    for r in rows:
        r["share"] = None
        if r["blk"] == 64:
            r128 = by_key.get((r["label"], r["density"], 128))
            if r128 and r.get("t_cake") and r128.get("t_cake"):
                r["share"] = (r["flops"] / r["t_cake"]) / (r128["flops"] / r128["t_cake"])

    text = report(torch, a, props, triton_version, flex, rows, notes, wrong, cache_desc)
    print()
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
        print("vsa: wrote %s" % a.out)
    if wrong:
        print("vsa: cakec's output is WRONG on: %s" % "; ".join(wrong))
        return 1
    return 0


def run_config(torch, F, a, lib, insts, has_entry, flex, timed, notes, sdpa_kernel, SDPBackend,
               q, k, v, B, H, S, D, dt, blk, density, causal, scale, label, sdpa):
    dev = q.device
    nkv = cdiv(S, blk)
    what = "%s block %d density %g" % (label, blk, density)
    t0 = time.perf_counter()
    kv_num_c, kv_idx_c = make_mask(torch, B, H, S, blk, density, causal,
                                   config_seed(a.seed, B, H, S, blk, density, causal))
    pairs = pair_count(torch, kv_num_c, kv_idx_c, S, blk, causal)
    flops = 4.0 * D * pairs
    kv_num = kv_num_c.to(dev)
    kv_idx = kv_idx_c.to(dev)
    # --lists compact: cakec's lists hold as many slots as the longest list (top-k lists);
    # FlexAttention's BlockMask keeps one slot per key block
    kv_idx_k = (kv_idx[..., :max(int(kv_num_c.max()), 1)].contiguous() if a.lists == "compact"
                else kv_idx)
    nlisted = kv_num_c.to(torch.float64)
    per_row = ("%d/%d" % (int(nlisted.min()), nkv) if int(nlisted.min()) == int(nlisted.max())
               else "%.1f/%d avg" % (float(nlisted.mean()), nkv))
    row = {"label": label, "shape": (B, H, S, D), "dt": dt, "blk": blk, "density": density,
           "causal": causal, "flops": flops, "per_row": per_row, "wrong": False,
           "inst": insts.get((dt, D, blk), "none built"), "sdpa": None}
    o_ref, lse_ref = reference(torch, q, k, v, kv_num, kv_idx, blk, scale, causal)
    torch.cuda.synchronize()
    t_setup = time.perf_counter() - t0

    # ---- FlexAttention: the first call (compile), then its output ----
    bm = flex.block_mask(kv_num, kv_idx, S, blk, causal)
    flex_opts, flex_out, flex_refused = None, None, None
    t0 = time.perf_counter()
    try:
        flex_out = flex(q, k, v, bm, scale)
        torch.cuda.synchronize()
    except Exception as e:      # noqa: BLE001 (FlexAttention's refusals are of many types)
        torch.cuda.synchronize()
        flex_refused = short_reason(e)
        print("  FlexAttention refused %s: %s (%s)" % (what, flex_refused, type(e).__name__),
              flush=True)
    row["t_flex_first"] = time.perf_counter() - t0
    if flex_refused is not None:
        opts = {"BLOCK_M": min(blk, 64), "BLOCK_N": min(blk, 64), "num_warps": 4,
                "num_stages": 3}
        t0 = time.perf_counter()
        try:
            flex_out = flex(q, k, v, bm, scale, kernel_options=opts)
            torch.cuda.synchronize()
            flex_opts = opts
        except Exception as e:  # noqa: BLE001
            torch.cuda.synchronize()
            notes.append("FlexAttention with kernel_options %s refused %s too: %s"
                         % (opts, what, short_reason(e)))
        row["t_flex_first"] += time.perf_counter() - t0
    row["flex_refused"] = flex_refused
    row["flex_opts"] = flex_opts

    # ---- cakec ----
    o = torch.empty_like(q)
    lse = torch.empty((B, H, S), device=dev, dtype=torch.float32)
    work = torch.zeros(2, device=dev, dtype=torch.int32)    # the tile counter: 0, left at 0
    fn, fn_name = None, None
    cands = ([("vsa", "vsa")] if has_entry else []) + \
        ([(row["inst"], row["inst"])] if row["inst"] != "none built" else [])
    cake_fail = []
    for attr, name in cands:
        try:
            f = getattr(lib, attr)
            o.fill_(float("nan"))
            lse.fill_(float("nan"))
            f(q=q, k=k, v=v, kv_num=kv_num, kv_idx=kv_idx_k, o=o, lse=lse, work=work, scale=scale,
              causal=int(causal))
            torch.cuda.synchronize()
            fn, fn_name = f, name
            break
        except (cakec_error(), AttributeError, TypeError) as e:
            cake_fail.append("%s: %s" % (name, e))
    if cake_fail:
        notes.append("cakec on %s: %s" % (what, "; ".join(cake_fail)))
    row["cake_name"] = fn_name
    if fn_name == "vsa" and hasattr(fn, "choose"):
        # the instance the entry point says it takes (vsa_choose), checked below
        try:
            row["inst"] = fn.choose(q=q, k=k, v=v, kv_num=kv_num, kv_idx=kv_idx_k, o=o, lse=lse,
                                    work=work, scale=scale, causal=int(causal))
        except (cakec_error(), TypeError) as e:
            notes.append("%s: vsa.choose: %s" % (what, e))
    if fn_name == "vsa" and row["inst"] != "none built":
        # the entry point's choice: its output bit for bit the instance's
        try:
            o2, lse2 = torch.full_like(o, float("nan")), torch.full_like(lse, float("nan"))
            getattr(lib, row["inst"])(q=q, k=k, v=v, kv_num=kv_num, kv_idx=kv_idx_k, o=o2, lse=lse2,
                                      work=work,
                                      scale=scale, causal=int(causal))
            torch.cuda.synchronize()
            same = torch.equal(o, o2) and torch.equal(lse.nan_to_num(), lse2.nan_to_num())
            row["cake_name"] = "vsa %s %s" % ("=" if same else "!=", row["inst"])
            if not same:
                notes.append("%s: the entry point vsa's output differs from %s's (another "
                             "instance chosen?)" % (what, row["inst"]))
            del o2, lse2
        except (cakec_error(), AttributeError, TypeError) as e:
            notes.append("%s: %s not run on its own: %s" % (what, row["inst"], e))
    errs = {}
    if fn is not None:
        if flex_out is not None:
            errs["cake_flex"] = (err_o(torch, o, flex_out[0]), err_lse(torch, lse, flex_out[1]))
        errs["cake_ref"] = (err_o(torch, o, o_ref), err_lse(torch, lse, lse_ref))
        first = errs.get("cake_flex", errs["cake_ref"])
        worst = (max(first[0], errs["cake_ref"][0]), max(first[1], errs["cake_ref"][1]))
        row["wrong"] = not (worst[0] <= TOL_O and worst[1] <= TOL_LSE)
    if flex_out is not None:
        errs["flex_ref"] = (err_o(torch, flex_out[0], o_ref), err_lse(torch, flex_out[1], lse_ref))
    row["errs"] = errs
    del o_ref, lse_ref, flex_out

    # ---- timing ----
    row["t_cake"] = None
    if fn is not None:
        row["t_cake"] = timed(lambda i: fn(q=q, k=k, v=v, kv_num=kv_num, kv_idx=kv_idx_k, o=o,
                                           lse=lse, work=work, scale=scale, causal=int(causal)),
                              "cakec " + what)
    row["t_flex"] = None
    if flex_refused is None or flex_opts is not None:
        row["t_flex"] = timed(lambda i: flex(q, k, v, bm, scale, kernel_options=flex_opts),
                              "FlexAttention " + what)

    # ---- dense SDPA, density 1.0 (once per shape) ----
    if density >= 1.0:
        if sdpa is None:
            sdpa = measure_sdpa(torch, F, sdpa_kernel, SDPBackend, timed, notes, q, k, v, scale,
                                causal, label)
        row["sdpa"] = sdpa
        row["sdpa_flops"] = 4.0 * D * dense_pairs(B, H, S, causal)
    e = errs.get("cake_flex") or errs.get("cake_ref") or (None, None)
    print("%-28s blk %3d dens %.2f (%s) %6.1f GFLOP | cakec %9s us %4s TF | Flex %9s us %4s TF "
          "%s(first call %.1f s) | SDPA %s | err o %s lse %s%s | setup %.1f s" % (
              label, blk, density, per_row, flops / 1e9, fmt_us(row["t_cake"]),
              fmt_tf(flops, row["t_cake"]), fmt_us(row["t_flex"]), fmt_tf(flops, row["t_flex"]),
              "[refused: %s] " % flex_refused if flex_refused else "", row["t_flex_first"],
              ("%s %s us" % (sdpa["best"], fmt_us(sdpa["t"]))) if row["sdpa"] and sdpa["best"]
              else "-", fmt_err(e[0]), fmt_err(e[1]), " WRONG" if row["wrong"] else "", t_setup),
          flush=True)
    return row


_CAKE_ERROR = []


def cakec_error():
    if not _CAKE_ERROR:
        import cakec_torch
        _CAKE_ERROR.append(cakec_torch.CakeError)
    return _CAKE_ERROR[0]


def measure_sdpa(torch, F, sdpa_kernel, SDPBackend, timed, notes, q, k, v, scale, causal, label):
    """Each SDPA backend that runs on q, k, v: {"times": {name: s}, "why": {name: reason},
    "best": name, "t": s}."""
    times, why = {}, {}
    for name, attr in SDPA_BACKENDS:
        be = getattr(SDPBackend, attr, None)
        if be is None:
            why[name] = "not in this torch"
            continue
        try:
            with sdpa_kernel([be]):
                F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)
                torch.cuda.synchronize()
                times[name] = timed(lambda i: F.scaled_dot_product_attention(
                    q, k, v, is_causal=causal, scale=scale), "SDPA %s %s" % (name, label))
        except Exception as e:  # noqa: BLE001 (no kernel for these inputs, of any type)
            torch.cuda.synchronize()
            why[name] = short_reason(e)
    best = min(times, key=times.get) if times else None
    notes.append("SDPA on %s: %s" % (label, ", ".join(
        ["%s %s us" % (n, fmt_us(t)) for n, t in times.items()] +
        ["%s did not run (%s)" % (n, w) for n, w in why.items()])))
    return {"times": times, "why": why, "best": best, "t": times.get(best) if best else None}


def report(torch, a, props, triton_version, flex, rows, notes, wrong, cache_desc):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = [
        "# vsa: cakec block-sparse attention vs FlexAttention and SDPA (%s)" % now[:10],
        "",
        "- date: %s" % now,
        "- GPU: %s (sm_%d%d, %d SMs, %.0f GiB), driver %s" % (
            props.name, props.major, props.minor, props.multi_processor_count,
            props.total_memory / GiB, driver_text()),
        "- torch %s (CUDA %s), triton %s, cakec commit %s" % (
            torch.__version__, torch.version.cuda, triton_version, git_rev(a.build)),
        "- command: `python3 bench/vsa.py %s`" % " ".join(sys.argv[1:]),
        "- cakec: the entry point vsa (the check table's 'vsa = vsa_<type>_d<D>_b<block>': "
        "its output is bit for bit that instance's); FlexAttention: "
        "torch.compile(flex_attention, dynamic=False), %s, with "
        "BlockMask.from_kv_blocks(kv_num_blocks, kv_indices, full_kv_num_blocks, "
        "full_kv_indices, BLOCK_SIZE=block, mask_mod, seq_lengths=(S, S)) built from the same "
        "kv_num / kv_idx: the listed blocks are full blocks (no mask_mod), none is partial "
        "(with causal: the diagonal blocks are partial, mask_mod q >= kv); first call = "
        "compile + one run, wall clock (short where an earlier row compiled the same shape "
        "and block; where the default tiles were refused, both attempts; compile caches "
        "%s); SDPA = torch.nn.functional.scaled_dot_product_attention, dense, the fastest of "
        "its flash / cuDNN / efficient backends (each in the notes)" % (flex.api, cache_desc),
        "- masks: per (b, h, query block) max(1, round(density * NKV)) distinct random key "
        "blocks (seed %d), sorted, padded with the others%s; q, k, v standard normal, scale "
        "1/sqrt(D)" % (a.seed, "" if a.lists == "padded" else
                       " (cakec's kv_idx compact: as many slots as the longest list)"),
        "- TFLOP/s: 4 * D * the (query, key) pairs of the listed blocks / time, the same count "
        "for every column of a row (dense at density 1.0); cakec/Flex and cakec/SDPA: their "
        "time / cakec's (above 1: cakec faster); 64/128: cakec's 64-block TFLOP/s over its "
        "128-block TFLOP/s at the same density; * = FlexAttention refused its default tiles "
        "and ran with kernel_options BLOCK_M = BLOCK_N = 64, num_warps 4, num_stages 3",
        "- timing: %s, median of %d; no L2 rotation (attention is compute bound and its "
        "inputs exceed the L2)" % ("plain loops (--eager)" if a.eager else "CUDA graph replays",
                                   a.reps if not a.quick else 3),
        "- check (before timing): o err = max |got - ref| / max |ref|, lse err = max |got - "
        "ref| over finite entries; cakec vs FlexAttention (vs the reference where Flex "
        "refused), and each against a chunked float32 reference; WRONG: cakec o err > %.0e "
        "or lse err > %.0e" % (TOL_O, TOL_LSE),
    ]
    for n in notes:
        head.append("- note: %s" % n)
    table = ["", "| shape | block | density | blocks/row | GFLOP | cakec us | cakec TFLOP/s | "
             "Flex us | Flex TFLOP/s | Flex first call s | SDPA us | SDPA TFLOP/s | "
             "cakec/Flex | cakec/SDPA | 64/128 |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        fl = r["flops"]
        tc, tf = r["t_cake"], r["t_flex"]
        star = "*" if r["flex_opts"] else ""
        if r["flex_refused"]:
            flex_us = "refused: %s%s" % (r["flex_refused"].replace("|", "/"),
                                         ("; %s*" % fmt_us(tf)) if tf else "")
        else:
            flex_us = fmt_us(tf)
        sd = r["sdpa"]
        ts = sd["t"] if sd else None
        table.append("| %s | %d | %g | %s | %.1f | %s | %s | %s | %s | %.1f | %s | %s | %s | %s | %s |" % (
            r["label"], r["blk"], r["density"], r["per_row"], fl / 1e9,
            fmt_us(tc) + (" WRONG" if r["wrong"] else ""), fmt_tf(fl, tc), flex_us,
            fmt_tf(fl, tf) + (star if tf else ""), r["t_flex_first"],
            ("%s (%s)" % (fmt_us(ts), sd["best"])) if ts else "-",
            fmt_tf(r["sdpa_flops"], ts) if ts else "-",
            ("%.2fx%s" % (tf / tc, star)) if tc and tf else "-",
            ("%.2fx" % (ts / tc)) if tc and ts else "-",
            ("%.0f%%" % (100 * r["share"])) if r["share"] else "-"))
    check = ["", "| shape | block | density | cakec | cakec vs Flex: o / lse | cakec vs f32 ref: "
             "o / lse | Flex vs f32 ref: o / lse |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        e = r["errs"]

        def pair(key):
            return "%s / %s" % (fmt_err(e[key][0]), fmt_err(e[key][1])) if key in e else "-"
        check.append("| %s | %d | %g | %s | %s | %s | %s |" % (
            r["label"], r["blk"], r["density"],
            (r["cake_name"] or "failed") + (" WRONG" if r["wrong"] else ""),
            pair("cake_flex"), pair("cake_ref"), pair("flex_ref")))
    verdict = acceptance(rows)
    issue = set(parse_shapes(SHAPES))
    ran = set(r["shape"] for r in rows if not r["causal"])
    if not issue <= ran:
        verdict.append("- (the issue's shapes %s were not all run: the verdicts are on the "
                       "rows above only)" % ", ".join("B%d H%d S%d D%d" % s for s in sorted(issue)))
    text = "\n".join(head + table + ["", "Correctness (before timing):"] + check +
                     ["", "Acceptance (rows without causal):", ""] + verdict) + "\n"
    if wrong:
        text += "\nWRONG (cakec's output off the reference): %s\n" % "; ".join(wrong)
    return text


def acceptance(rows):
    """The three criteria, each on the rows it concerns: the values, the worst, and whether
    it holds (or 'not measured')."""
    plain = [r for r in rows if not r["causal"]]
    out = []

    def verdict(title, items, need, fmt):
        vals = [(lbl, x) for lbl, x in items if x is not None]
        missing = [lbl for lbl, x in items if x is None]
        if not vals:
            out.append("- %s: not measured" % title)
            return
        worst = min(x for _, x in vals)
        out.append("- %s: %s; worst %s: %s%s" % (
            title, ", ".join("%s %s" % (lbl, fmt(x)) for lbl, x in vals), fmt(worst),
            "PASS" if worst >= need and not missing else "FAIL",
            (" (not measured: %s)" % ", ".join(missing)) if missing else ""))

    items = []
    for r in plain:
        if r["blk"] == 128 and r["density"] < 1.0:
            x = (r["t_flex"] / r["t_cake"]) if r["t_flex"] and r["t_cake"] else None
            items.append(("%s d%g" % (r["label"], r["density"]), x))
    verdict("(1) cakec >= 1.3x FlexAttention, 128-token blocks, density < 1", items, 1.3,
            lambda x: "%.2fx" % x)
    items = []
    for r in plain:
        if r["density"] >= 1.0:
            ts = r["sdpa"]["t"] if r["sdpa"] else None
            items.append(("%s b%d" % (r["label"], r["blk"]),
                          (ts / r["t_cake"]) if ts and r["t_cake"] else None))
    verdict("(2) cakec >= 0.95x the fastest SDPA backend, density 1.0", items, 0.95,
            lambda x: "%.2fx" % x)
    items = []
    for r in plain:
        if r["blk"] == 64 and r["shape"][3] == 128:
            items.append(("%s d%g" % (r["label"], r["density"]), r["share"]))
    verdict("(3) 64-token blocks at D = 128 >= 80% of the 128-block TFLOP/s", items, 0.80,
            lambda x: "%.0f%%" % (100 * x))
    return out


if __name__ == "__main__":
    sys.exit(main())
