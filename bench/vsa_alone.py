#!/usr/bin/env python3
"""vsa_alone.py GEN DENSITIES INSTANCES [BLK [REPS]]: vsa instances alone on the GPU, for profiling.

Runs each INSTANCE (e.g. vsa_bf16_d128_b128; a comma list) of the generated folder GEN
(build/gen/vsa) on B4 H16 S8192 D128 bf16 with bench/vsa.py's random block mask of each
DENSITY (a comma list; BLK: 128, or 64 for the 64-block instances), three warm-up calls,
then 20 calls back to back, and prints the mean time and the effective TFLOP/s. With
several instances, REPS rounds (default 1) take them in turn on the same tensors, so two
designs meet the same clocks (the short-list threshold was placed this way). Not a benchmark (bench/vsa.py is: it measures
FlexAttention and SDPA beside it); a diagnostic to run under ncu, e.g.
    ncu --kernel-name regex:vsa --launch-skip 2 --launch-count 1 --set full \\
        --import-source yes -o prof python3 bench/vsa_alone.py build/gen/vsa 0.05 vsa_bf16_d128_b128
Alone, the GPU runs at higher clocks than inside bench/vsa.py's long run (bench/RESULTS.md
section 30).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))


def main():
    import torch
    import cakec_torch
    import vsa as V

    if len(sys.argv) not in (4, 5, 6):
        sys.exit(__doc__.split("\n")[0])
    gen = sys.argv[1]
    densities = [float(x) for x in sys.argv[2].split(",")]
    insts = sys.argv[3].split(",")
    blk = int(sys.argv[4]) if len(sys.argv) > 4 else 128
    reps = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    B, H, S, D = 4, 16, 8192, 128
    lib = cakec_torch.load(gen)
    dev = torch.device("cuda", 0)
    g = torch.Generator(device="cpu").manual_seed(1)
    q, k, v = (torch.randn((B, H, S, D), generator=g).to(dev, torch.bfloat16) for _ in range(3))
    o = torch.empty_like(q)
    lse = torch.empty((B, H, S), device=dev)
    work = torch.zeros(2, device=dev, dtype=torch.int32)
    for dens in densities:
        num, idx = V.make_mask(torch, B, H, S, blk, dens, False, 5)
        num, idx = num.to(dev), idx.to(dev)
        pairs = float(num.sum()) * blk * blk
        for _ in range(reps):
            for inst in insts:
                t = time_instance(torch, getattr(lib, inst), dict(
                    q=q, k=k, v=v, kv_num=num, kv_idx=idx, o=o, lse=lse, work=work,
                    scale=D ** -0.5, causal=0))
                print("%s density %g: %.1f us, %.0f TFLOP/s"
                      % (inst, dens, t * 1e3, 4 * D * pairs / t / 1e9))


def time_instance(torch, f, args):
    """Mean ms of 20 calls after three warm-up ones."""
    for _ in range(3):
        f(**args)
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(True), torch.cuda.Event(True)
    s.record()
    for _ in range(20):
        f(**args)
    e.record()
    torch.cuda.synchronize()
    return s.elapsed_time(e) / 20

if __name__ == "__main__":
    main()
