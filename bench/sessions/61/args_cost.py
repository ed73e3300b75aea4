#!/usr/bin/env python3
"""Session 61: the Python cost of one cakec_torch call's argument marshalling
(Kernel._args) for the ssd entry point (13 tensors, 3 scalars), on stand-in tensors, no
torch and no GPU. Usage (repository root): python3 bench/sessions/61/args_cost.py [GEN]
(GEN: a generated ssd folder, default build-fast/gen/ssd)."""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import cakec_torch  # noqa: E402

sys.argv += [] if len(sys.argv) > 1 else [os.path.join(ROOT, "build-fast", "gen", "ssd")]
lib = cakec_torch.load(sys.argv[1], cuda_include="/usr/local/cuda/include")


class Device(object):
    type, index = "cuda", 0


class Tensor(object):
    def __init__(self, shape, dtype="torch.bfloat16"):
        self.shape, self.dtype, self.device = tuple(shape), dtype, Device()
        st, acc = [], 1
        for d in reversed(shape):
            st.insert(0, acc)
            acc *= max(d, 1)
        self._st = tuple(st)

    def stride(self):
        return self._st

    def data_ptr(self):
        return 1 << 20


B, L, H, N = 16, 384, 64, 128
f32 = "torch.float32"
kw = dict(x=Tensor((B, L, H, 64)), dt=Tensor((B, L, H)), a=Tensor((H,), f32), bm=Tensor((B, L, 1, N)),
          cm=Tensor((B, L, 1, N)), d=Tensor((H,), f32), dt_bias=Tensor((H,), f32), z=Tensor((0, L, H, 64)),
          init=Tensor((0, H, 64, N), f32), y=Tensor((B, L, H, 64)), final=Tensor((B, H, 64, N), f32),
          states=Tensor((0, 1, H, 64, N), f32), softplus=1, chunk=256,
          sync=Tensor((2 + 128 * B * H,), "torch.int32"), hand=Tensor((B, H, 64, N), f32))
k = lib.ssd
for _ in range(100):
    k._args(kw)
n = 2000
t = time.perf_counter()
for _ in range(n):
    k._args(kw)
print("ssd: Kernel._args %.1f us a call (mean of %d)" % ((time.perf_counter() - t) / n * 1e6, n))
