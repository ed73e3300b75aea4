#!/usr/bin/env python3
"""The context-parallel state fix-up (kernels_src/cp_fixup) against torch and the memory floor.

    python3 bench/cp_fixup.py [--build build] [--out cp_fixup.md] [--quick] [--reps 7]
                              [--eager] [--shapes B,H,C,K,V;...] [--dtypes f32,bf16]

Runs on a GPU machine with PyTorch; the kernels are what tests/gpu/cp_fixup.cmake built
into build/gen/cp_fixup/ (the instances of the generic kernel cp_fixup and its entry
point, listed in manifest.json), loaded with python/cakec_torch.py. Per shape and
transfer type (f32 or bf16 M) it measures, in one run:

- every instance that takes the shape: the SIMT design with its slice widths (K <= its
  threads, V a multiple of its column slice BV) and the MMA design (wgmma, a block per
  head: exactly its K and V) (docs/cp_fixup.md); the best of each design, and their ratio;
- the entry point cp_fixup (the instance its `when` rules pick, by B * H, K, V and the
  SM count), and whether it is the fastest instance or within 5% of it;
- the torch reference: a loop over the chunks of torch.baddbmm(L_c, M_c, S_{c-1}) on the
  (B * H)-batched [K, V] states, each result copied into S (M converted to f32 once,
  outside the timing, for bf16 transfers);
- the memory floor: L and M read once and S written once, at the copy bandwidth (the best
  of torch copy_, cuMemcpyDtoDAsync and a copy kernel; read + written bytes / time).

All sequences are full (nvalid = C) and there is no initial state (S_0 = L_0). Before
timing, every instance and the entry point are compared with the torch reference computed
in float64 (max |got - ref| / max(|ref|, 0.5)). Each call rotates over enough copies of
the tensors (>= 256 MiB) that no call finds its inputs in L2. Timing: CUDA graph replays of
a calibrated loop, median of --reps (bench/bandwidth.py's Timer), or plain loops with
--eager. Prints a table and writes it as markdown with the date, GPU, driver and versions.
"""

import argparse
import datetime
import json
import math
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from bandwidth import Timer, copy_bandwidth, driver_version, git_rev  # noqa: E402

MiB = 1 << 20
# the shapes: low parallelism (B1, H 2 and 4, C 16 and 64), high (B8 H32 C16),
# the heads between (where the entry point switches designs), and mixed K and V
SHAPES = "1,2,16,128,128;1,2,64,128,128;1,4,16,128,128;1,4,64,128,128;1,8,16,128,128;" \
         "1,16,16,128,128;1,32,16,128,128;2,8,32,128,128;4,16,16,128,128;8,32,16,128,128;" \
         "1,4,64,64,64;1,16,16,64,64;1,32,16,64,64;8,32,16,64,64;8,32,16,128,64;8,32,16,64,128"
QUICK = "1,2,16,128,128;8,32,16,128,128"


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build folder holding gen/cp_fixup/ (default: build)")
    ap.add_argument("--out", help="write the markdown report here")
    ap.add_argument("--quick", action="store_true", help="a smoke test: two shapes, few reps")
    ap.add_argument("--reps", type=int, default=7, help="repetitions; the median is reported")
    ap.add_argument("--eager", action="store_true", help="time plain loops, not graph replays")
    ap.add_argument("--shapes", help="B,H,C,K,V;... (default: the issue's shapes)")
    ap.add_argument("--dtypes", default="f32,bf16", help="transfer types (comma list)")
    return ap.parse_args(argv)


def instances_of(gen):
    """The entry point's instances from the manifest: name, M type, threads, BV, design."""
    with open(os.path.join(gen, "manifest.json")) as f:
        man = json.load(f)
    entry = [e for e in man if e.get("entry") == "cp_fixup"][0]
    out = []
    for name in entry["instances"]:
        parts = name.split("_")
        if parts[2] == "mma":         # cp_fixup_mma_<type>_k<K>_v<V>: a block per head
            out.append({"name": name, "dtype": parts[3], "kt": int(parts[4][1:]),
                        "bv": int(parts[5][1:]), "mma": True})
            continue
        # cp_fixup_<type>_k<KT>_bv<BV>[s<SPLIT> | c<CL>] (CL: a cluster sharing M)
        bv = re.match(r"bv(\d+)(?:c(\d+))?", parts[4])
        out.append({"name": name, "dtype": parts[2], "kt": int(parts[3][1:]),
                    "bv": int(bv.group(1)), "cl": int(bv.group(2) or 1), "mma": False})
    return out


def takes(v, K, V):
    if v["mma"]:
        return K == v["kt"] and V == v["bv"]
    if v.get("cl", 1) > 1:
        return K <= v["kt"] and K % 8 == 0 and V % (v["bv"] * v["cl"]) == 0
    return K <= v["kt"] and V % v["bv"] == 0


def entry_choice(lib, cakec_torch, x, init, nvalid, cands, B, H, K, V):
    """The instance the entry point takes for these arguments: its own answer (cp_fixup.choose,
    a cakec with E_choose), else the instances whose grid matches the one it reports
    (several where they differ only in threads per row or cluster: all named)."""
    args = dict(l=x["l"], m=x["m"], init=init, nvalid=nvalid, s=x["s"])
    if hasattr(lib.cp_fixup, "choose"):
        try:
            return lib.cp_fixup.choose(**args)
        except (cakec_torch.CakeError, TypeError):
            pass
    g0 = lib.cp_fixup.grid(**args)[0]
    # (an MMA instance's grid is B * H, as a SIMT slice of BV = V would be: the MMA
    # instance is preferred, as the rules put it first)
    same = [v for v in cands if g0 == B * H * (V // v["bv"]) and (K > 64) == (v["kt"] > 64)]
    return "/".join(v["name"] for v in (([v for v in same if v["mma"]] or same)
                                         if any(v["mma"] for v in same) else same)) or "?"


def fmt_us(t):
    return "%.1f" % (t * 1e6) if t else "-"


def main():
    a = parse_args()
    import torch
    import cakec_torch

    if not torch.cuda.is_available():
        print("SKIPPED: cp_fixup: no CUDA device visible to torch")
        return 0
    dev = torch.device("cuda", 0)
    torch.cuda.set_device(dev)
    props = torch.cuda.get_device_properties(dev)
    gen = os.path.join(a.build, "gen", "cp_fixup")
    built = cakec_torch.targets(gen)
    if "sm_%d%da" % (props.major, props.minor) not in built:
        print("SKIPPED: cp_fixup: %s is sm_%d%d; the kernels are built for %s"
              % (props.name, props.major, props.minor, ", ".join(built)))
        return 0
    lib = cakec_torch.load(gen)
    insts = instances_of(gen)
    timer = Timer(torch, 3 if a.quick else a.reps, 0.005 if a.quick else 0.02, a.eager)
    notes = []

    # ---- copy bandwidth (bandwidth.copy_bandwidth) ----
    size = (64 * MiB) if a.quick else (1 << 30)
    best_copy, copy_desc = copy_bandwidth(torch, timer, size, dev, notes)
    print("copy bandwidth: %s; best %.0f GB/s" % (copy_desc, best_copy / 1e9), flush=True)

    shapes = [tuple(int(x) for x in s.split(",")) for s in
              (a.shapes or (QUICK if a.quick else SHAPES)).split(";") if s]
    rows = []
    for (B, H, C, K, V) in shapes:
        for dt in a.dtypes.split(","):
            mdt = torch.bfloat16 if dt == "bf16" else torch.float32
            mb = 2 if dt == "bf16" else 4
            nbytes = B * H * C * (K * V * 4 * 2 + K * K * mb)     # L, M read; S written
            nrot = max(1, min(64, int(math.ceil(256 * MiB / nbytes))))
            gens = torch.Generator(device=dev)
            sets = []
            for r in range(nrot):
                gens.manual_seed(1000 + r)
                lt = torch.rand((B, H, C, K, V), device=dev, generator=gens) * 2 - 1
                mt = ((torch.rand((B, H, C, K, K), device=dev, generator=gens) * 2 - 1)
                      * (1.5 / math.sqrt(K))).to(mdt)
                sets.append({"l": lt, "m": mt, "mf": mt.float(),
                             "s": torch.empty_like(lt), "sr": torch.empty_like(lt)})
            init = torch.empty((0, H, K, V), device=dev, dtype=torch.float32)
            nvalid = torch.full((B,), C, device=dev, dtype=torch.int32)
            label = "B%d H%d C%d K%d V%d %s" % (B, H, C, K, V, dt)

            def torch_ref(x):
                # S_0 = L_0, S_c = baddbmm(L_c, M_c, S_{c-1}), as (B*H)-batched matmuls
                l3 = x["l"].view(B * H, C, K, V)
                m3 = x["mf"].view(B * H, C, K, K)
                s3 = x["sr"].view(B * H, C, K, V)
                prev = l3[:, 0]
                s3[:, 0].copy_(prev)
                for c in range(1, C):
                    prev = torch.baddbmm(l3[:, c], m3[:, c], prev)
                    s3[:, c].copy_(prev)

            x0 = sets[0]
            l64 = x0["l"].double().view(B * H, C, K, V)
            m64 = x0["m"].double().view(B * H, C, K, K)
            ref = torch.empty_like(l64)
            ref[:, 0] = l64[:, 0]
            for c in range(1, C):
                ref[:, c] = torch.baddbmm(l64[:, c], m64[:, c], ref[:, c - 1])
            ref = ref.view(B, H, C, K, V)

            def err_of(got):
                # NaN (an element never written: the output is poisoned with NaN) is the
                # worst error, not one that max() skips
                e = ((got.double() - ref).abs() / ref.abs().clamp(min=0.5)).max().item()
                return math.inf if math.isnan(e) else e

            def call(fn, i):
                x = sets[i % nrot]
                fn(l=x["l"], m=x["m"], init=init, nvalid=nvalid, s=x["s"])

            checks = []
            times = {}
            cands = [v for v in insts if v["dtype"] == dt and takes(v, K, V)]
            for v in cands + [{"name": "cp_fixup"}]:
                fn = getattr(lib, v["name"])
                try:
                    x0["s"].fill_(float("nan"))
                    call(fn, 0)
                    torch.cuda.synchronize()
                except cakec_torch.CakeError as e:
                    notes.append("%s failed on %s: %s" % (v["name"], label, e))
                    continue
                checks.append(err_of(x0["s"]))
                times[v["name"]] = timer(lambda i, fn=fn: call(fn, i))
            torch_ref(x0)
            torch.cuda.synchronize()
            err_torch = err_of(x0["sr"])
            t_torch = timer(lambda i: torch_ref(sets[i % nrot]))
            chosen = entry_choice(lib, cakec_torch, x0, init, nvalid, cands, B, H, K, V)
            inst_t = {k: t for k, t in times.items() if k != "cp_fixup"}
            mma_names = {v["name"] for v in cands if v["mma"]}
            simt_t = {k: t for k, t in inst_t.items() if k not in mma_names}
            mma_t = {k: t for k, t in inst_t.items() if k in mma_names}
            best = min(inst_t, key=inst_t.get) if inst_t else None
            best_simt = min(simt_t, key=simt_t.get) if simt_t else None
            t_entry = times.get("cp_fixup")
            row = {"label": label, "bytes": nbytes, "t_floor": nbytes / best_copy,
                   "t_torch": t_torch, "t_entry": t_entry, "chosen": chosen, "best": best,
                   "t_best": inst_t.get(best), "inst": simt_t,
                   "t_simt": simt_t.get(best_simt), "t_mma": min(mma_t.values()) if mma_t else None,
                   "err": max(checks) if checks else float("nan"), "err_torch": err_torch}
            rows.append(row)
            print("%-28s floor %7s us | torch %8s us | entry %7s us (%s) | best %s %s us | "
                  "SIMT %s MMA %s | err %.1e" % (label, fmt_us(row["t_floor"]), fmt_us(t_torch),
                                                 fmt_us(t_entry), chosen, best, fmt_us(row["t_best"]),
                                                 fmt_us(row["t_simt"]), fmt_us(row["t_mma"]), row["err"]),
                  flush=True)
            del sets, ref, l64, m64, x0

    head = [
        "# cp_fixup: cakec vs torch and the memory floor (%s)" % datetime.date.today().isoformat(),
        "",
        "- GPU: %s (sm_%d%d, %d SMs), driver %s, torch %s, commit %s" % (
            props.name, props.major, props.minor, props.multi_processor_count, driver_version(),
            torch.__version__, git_rev(a.build)),
        "- copy bandwidth (read + write): %s; reference (best) %.0f GB/s" % (
            copy_desc,
            best_copy / 1e9),
        "- floor = (L + M read, S written) / copy bandwidth; entry = the entry point cp_fixup "
        "(its choice in parentheses); SIMT instances cp_fixup_<M type>_k<threads>_bv<columns "
        "per block>; MMA instances cp_fixup_mma_<M type>_k<K>_v<V>; entry/best: against the "
        "fastest instance of either design; SIMT/MMA: the best SIMT time over the MMA time; "
        "torch = a loop of "
        "torch.baddbmm over the chunks; err = max |got - ref| / max(|ref|, 0.5) against "
        "float64 (worst of the instances and the entry point; torch's own beside it)",
        "- timing: %s, median of %d; tensors rotated over >= 256 MiB" % (
            "plain loops (--eager)" if a.eager else "CUDA graph replays", timer.reps),
    ]
    for n in notes:
        head.append("- note: %s" % n)
    table = ["", "| shape | MB | floor us | torch us | entry us | entry choice | % floor | "
             "torch/entry | best SIMT us | MMA us | SIMT/MMA | entry/best | err (torch err) | "
             "SIMT instances (us) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        te = r["t_entry"]
        table.append("| %s | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1e (%.1e) | %s |" % (
            r["label"], r["bytes"] / 1e6, fmt_us(r["t_floor"]), fmt_us(r["t_torch"]), fmt_us(te),
            r["chosen"], "%.0f%%" % (100 * r["t_floor"] / te) if te else "-",
            "%.1fx" % (r["t_torch"] / te) if te else "-", fmt_us(r["t_simt"]), fmt_us(r["t_mma"]),
            "%.2f" % (r["t_simt"] / r["t_mma"]) if r["t_simt"] and r["t_mma"] else "-",
            "%.3f" % (te / r["t_best"]) if te and r["t_best"] else "-", r["err"], r["err_torch"],
            ", ".join("%s %s" % (k[len("cp_fixup_"):], fmt_us(t)) for k, t in sorted(r["inst"].items()))))
    text = "\n".join(head + table) + "\n"
    print()
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
        print("cp_fixup: wrote %s" % a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
