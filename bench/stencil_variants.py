#!/usr/bin/env python3
"""stencil_variants.py PTX: bench/naive's stencil_1d at N = 2^26 on the GPU (cupy), the
CUDA C++ twin compiled by NVRTC in four forms (plain; __restrict__, so ld.global.nc; no
contraction, __fmul_rn/__fadd_rn as cakec emits; both) beside cakec's PTX as emitted and
with `.nc` removed, on the same x and w; 20 launches each, median and min in us, and the
largest difference from the first variant's output. RESULTS.md section 14.

    cakec --target sm_90a bench/naive/stencil_1d.cake > st.ptx
    python3 bench/stencil_variants.py st.ptx
"""
import os
import sys
import tempfile

import cupy as cp
import numpy as np

TWIN = r"""
#ifndef RESTRICT
#define RESTRICT
#endif
#define BLOCK 256
#define R 4
extern "C" __global__ void stencil_1d(const float *RESTRICT x, const float *RESTRICT w, float *RESTRICT y, int N)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < N) {
        float acc = 0.0f;
        for (int k = 0; k < 2 * R + 1; k++) {
            int j = i + k - R;
            if (j >= 0 && j < N) {
#ifdef NOFMA
                acc = __fadd_rn(acc, __fmul_rn(w[k], x[j]));
#else
                acc += w[k] * x[j];
#endif
            }
        }
        y[i] = acc;
    }
}
"""


def cakec_kernel(ptx):
    """cakec's PTX through the driver (cupy's RawModule loads a .ptx file)."""
    entry = [l.split()[2].rstrip('(') for l in ptx.splitlines() if l.startswith('.visible .entry')][0]
    fd, path = tempfile.mkstemp(suffix='.ptx')
    with os.fdopen(fd, 'w') as f:
        f.write(ptx)
    return cp.RawModule(path=path).get_function(entry)


def main():
    ptx = open(sys.argv[1]).read()
    n = 1 << 26
    x = cp.random.standard_normal(n, dtype=cp.float32)
    w = cp.random.standard_normal(9, dtype=cp.float32)
    variants = {}
    for name, defs in [('nvrtc', ''), ('nvrtc_restrict', '#define RESTRICT __restrict__\n'),
                       ('nvrtc_nofma', '#define NOFMA 1\n'),
                       ('nvrtc_restrict_nofma', '#define RESTRICT __restrict__\n#define NOFMA 1\n')]:
        variants[name] = cp.RawModule(code=defs + TWIN, options=('-std=c++17',)).get_function('stencil_1d')
    variants['cakec'] = cakec_kernel(ptx)
    variants['cakec_no_nc'] = cakec_kernel(ptx.replace('ld.global.nc', 'ld.global'))
    grid, ref = ((n + 255) // 256,), None
    for it in range(2):          # the first pass warms up
        for name, f in variants.items():
            y = cp.full(n, cp.nan, dtype=cp.float32)
            args = (x, w, y, np.int32(n))
            f(grid, (256,), args)
            cp.cuda.Device().synchronize()
            if ref is None:
                ref = y.copy()
            err = float(cp.max(cp.abs(y - ref)))
            s, e, ts = cp.cuda.Event(), cp.cuda.Event(), []
            for _ in range(20):
                s.record()
                f(grid, (256,), args)
                e.record()
                e.synchronize()
                ts.append(cp.cuda.get_elapsed_time(s, e) * 1000)
            if it:
                print(f"{name:22s} median {np.median(ts):8.2f} us  min {min(ts):8.2f}  maxdiff {err:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
