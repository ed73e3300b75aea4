#!/usr/bin/env python3
"""ssd_builds.py GEN...: several builds of the ssd family side by side, for A/B runs.

Each GEN is a generated folder (build/gen/ssd of one build, as bench/make_bundle.sh
carries it). On B1 L8192 H128, B4 L4096 H80, B16 L384 H64 (d_state 128) and B8 L2048 H64
(d_state 64), bf16, G 1, with D and dt bias, softplus, chunk 256 (bench/ssd.py's inputs),
it calls each build's entry point `ssd` on the same tensors, checks that every build's y
and final state are bit for bit the first's, and times them in turn (5 rounds of 10 eager
calls; the median round): the comparison holds within one run on one GPU, where clocks
match. Eager calls include the Python launcher, which dominates the shortest shape (and
was 250-300 us of every shape's call on an H100 in session 60): with --graph each build's
ten calls are captured in a CUDA graph and the replays timed, the kernels' time alone, as
bench/ssd.py times them beside mamba_ssm.
Usage: python3 bench/ssd_builds.py [--graph] OLD/build/gen/ssd NEW/build/gen/ssd
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))

SHAPES = [(1, 8192, 128, 128), (4, 4096, 80, 128), (16, 384, 64, 128), (8, 2048, 64, 64)]


def label(gen):
    # BUNDLE/build/gen/ssd -> BUNDLE
    parts = os.path.normpath(gen).split(os.sep)
    return parts[-4] if len(parts) >= 4 else gen


def inputs(torch, dev, B, L, H, N):
    g = torch.Generator(device=dev)
    g.manual_seed(0)
    P, G, t = 64, 1, torch.bfloat16
    return dict(x=torch.randn((B, L, H, P), device=dev, generator=g).to(t),
                dt=(torch.rand((B, L, H), device=dev, generator=g) * 3 - 4).to(t),
                a=-(torch.rand((H,), device=dev, generator=g) * 15 + 1),
                bm=torch.randn((B, L, G, N), device=dev, generator=g).to(t),
                cm=torch.randn((B, L, G, N), device=dev, generator=g).to(t),
                d=torch.rand((H,), device=dev, generator=g) * 2 - 1,
                dt_bias=torch.rand((H,), device=dev, generator=g) - 0.5,
                z=torch.empty((0, L, H, P), device=dev, dtype=t),
                init=torch.empty((0, H, P, N), device=dev, dtype=torch.float32),
                states=torch.empty((0, 1, H, P, N), device=dev, dtype=torch.float32))


def workspace(lib, torch, dev, B, H, N):
    """ssd's workspace (sync, hand: docs/ssd.md) for builds whose ssd takes one (since
    session 49), none for older builds."""
    if "sync" not in lib.ssd.params():
        return {}
    return dict(sync=torch.zeros(2 + 128 * B * H, device=dev, dtype=torch.int32),
                hand=torch.empty((B, H, 64, N), device=dev, dtype=torch.float32))


def verdict(torch, outs):
    """'bitwise-equal' where every build's y and final state are the first's bit for bit
    (a NaN where the first has a NaN counts as equal), else how many elements differ and
    how many are NaN (poison left unwritten, or computed)."""
    bad = []
    for name, i in (("y", 0), ("final", 1)):
        ref = outs[0][i]
        for j, o in enumerate(outs[1:], 1):
            d = (ref != o[i]) & ~(torch.isnan(ref) & torch.isnan(o[i]))
            if int(d.sum()):
                at = d.nonzero()
                # y is [B, L, H, P], the final state [B, H, P, N]: batch and head ranges
                hd = 2 if i == 0 else 1
                bad.append("%s of build %d: %d differ, batch %d..%d, head %d..%d" % (
                    name, j, int(d.sum()), at[:, 0].min(), at[:, 0].max(), at[:, hd].min(), at[:, hd].max()))
        nan = [int(torch.isnan(o[i]).sum()) for o in outs]
        if any(nan):
            bad.append("%s NaN %s" % (name, "/".join(str(n) for n in nan)))
    return "bitwise-equal" if not bad else "DIFFER (" + "; ".join(bad) + ")"


def main():
    import torch
    import cakec_torch

    graph = "--graph" in sys.argv[1:]
    gens = [g for g in sys.argv[1:] if g != "--graph"]
    if not gens:
        sys.exit(__doc__.split("\n")[-2])
    libs = [cakec_torch.load(g) for g in gens]
    dev = torch.device("cuda", 0)
    for (B, L, H, N) in SHAPES:
        a = inputs(torch, dev, B, L, H, N)
        calls, outs = [], []
        for lib in libs:
            y = torch.full_like(a["x"], float("nan"))
            fin = torch.full((B, H, 64, N), float("nan"), device=dev)

            def f(lib=lib, y=y, fin=fin):
                lib.ssd(y=y, final=fin, softplus=1, chunk=256, **a, **workspace(lib, torch, dev, B, H, N))
            f()
            torch.cuda.synchronize()
            outs.append((y.clone(), fin.clone()))
            if graph:
                g = torch.cuda.CUDAGraph()
                st = torch.cuda.Stream()
                st.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(st):
                    f()                 # warm on the side stream, as capture wants
                torch.cuda.current_stream().wait_stream(st)
                with torch.cuda.graph(g):
                    for _ in range(10):
                        f()
                # the graph writes y and fin on every replay, so they live as long as it
                # does: held only by f, which the next build's f replaces, they went back to
                # the allocator, and the next build's outputs and clones got their memory
                # while this graph still wrote there (the graph-mode DIFFERs of section 60)
                calls.append(lambda g=g, keep=f: g.replay())
            else:
                calls.append(f)
        times = [[] for _ in libs]
        for _ in range(5):
            for i, f in enumerate(calls):
                s, e = torch.cuda.Event(True), torch.cuda.Event(True)
                s.record()
                for _ in range(1 if graph else 10):
                    f()
                e.record()
                torch.cuda.synchronize()
                times[i].append(s.elapsed_time(e) / 10 * 1e3)
        cols = ["%s %.1f us (%.1f Mtok/s)" % (label(g), sorted(t)[2], B * L / sorted(t)[2])
                for g, t in zip(gens, times)]
        print("B%d L%d H%d N%d: %s  %s" % (B, L, H, N, "  ".join(cols), verdict(torch, outs)), flush=True)


if __name__ == "__main__":
    main()
