#!/usr/bin/env python3
"""ssd_diff.py GEN: where two calls of one ssd build differ (session 60 found B16 L384 H64
not bit for bit the same from call to call). Per shape, two calls on the same inputs with
different poison in y and the final state and different bytes in the workspace's `hand`;
prints, for y and for the final state, how many elements differ, the largest difference,
and the token (l), head and row ranges of the differences."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))


def main():
    import torch
    import cakec_torch
    import ssd_builds

    lib = cakec_torch.load(sys.argv[1])
    dev = torch.device("cuda", 0)
    for (B, L, H, N) in [(16, 384, 64, 128), (16, 512, 64, 128), (2, 384, 8, 128), (1, 300, 4, 128), (16, 256, 64, 128)]:
        a = ssd_builds.inputs(torch, dev, B, L, H, N)
        outs = []
        for poison, hv in ((float("nan"), 0.0), (7.0, 1e30)):
            y = torch.full_like(a["x"], poison)
            fin = torch.full((B, H, 64, N), poison, device=dev)
            ws = ssd_builds.workspace(lib, torch, dev, B, H, N)
            if "hand" in ws:
                ws["hand"].fill_(hv)
            lib.ssd(y=y, final=fin, softplus=1, chunk=256, **a, **ws)
            torch.cuda.synchronize()
            outs.append((y.float(), fin))
        for name, i in (("y", 0), ("final", 1)):
            u, v = outs[0][i], outs[1][i]
            d = (u != v) & ~(torch.isnan(u) & torch.isnan(v))
            n = int(d.sum())
            msg = "B%d L%d H%d %s: %d of %d differ" % (B, L, H, name, n, d.numel())
            if n:
                idx = d.nonzero()
                diff = (u - v).abs()[d]
                msg += "; max |diff| %.3g (values up to %.3g); nan %d/%d" % (
                    diff[~torch.isnan(diff)].max().item() if (~torch.isnan(diff)).any() else float("nan"),
                    u.abs()[~torch.isnan(u)].max().item(), int(torch.isnan(u).sum()), int(torch.isnan(v).sum()))
                for k, lab in enumerate("blhp" if i == 0 else "bhpn"):
                    msg += " %s %d..%d" % (lab, idx[:, k].min().item(), idx[:, k].max().item())
            print(msg, flush=True)


if __name__ == "__main__":
    main()
