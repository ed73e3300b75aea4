// Kernels whose results the IR interpreter (docs/interpreter.md) pins bit for bit in
// tests/interp/ops.cake: check_interp_agree.c runs them on the GPU and compares with the
// interpreter's bits (conversions with ties, subnormals, overflow and NaN; the canonical
// NaN of f32 arithmetic; shuffles, votes, ballot, per-lane loops, atomics, cp.async).
// The RUN lines check that the interpreter gives the bits check_interp_agree.c expects.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %srcroot/tests/interp/Inputs/npy.py make %t/x.npy '<f4' 32 '[1.0, 1.00390625, 1.01171875, float("nan"), float("inf"), -0.0, 65520.0, 3e-8, 1e-8, 3.4e38, -3.4e38, 2.5, -2.5, 65504.0, 1 + 2**-10, 1 + 2**-11, 1 + 3 * 2**-11][i] if i < 17 else i - 16.0'
// RUN: %builddir/cakec-run %s conv x=%t/x.npy b=%t/b.npy h=%t/h.npy n=%t/n.npy d=%t/d.npy
// RUN: python3 %srcroot/tests/interp/Inputs/npy.py bits %t/b.npy | FileCheck %s --check-prefix=BF16
// RUN: python3 %srcroot/tests/interp/Inputs/npy.py bits %t/h.npy | FileCheck %s --check-prefix=F16
// RUN: python3 %srcroot/tests/interp/Inputs/npy.py bits %t/n.npy | FileCheck %s --check-prefix=I32
// RUN: python3 %srcroot/tests/interp/Inputs/npy.py bits %t/d.npy | FileCheck %s --check-prefix=NAN
// BF16: 3f80 3f80 3f82 7fff 7f80 8000 4780 3301 322c 7f80 ff80 4020 c020 4780 3f80 3f80 3f80 3f80 4000 4040 4080 40a0 40c0 40e0 4100 4110 4120 4130 4140 4150 4160 4170
// F16: 3c00 3c04 3c0c 7fff 7c00 8000 7c00 0001 0000 7c00 fc00 4100 c100 7bff 3c01 3c00 3c02 3c00 4000 4200 4400 4500 4600 4700 4800 4880 4900 4980 4a00 4a80 4b00 4b80
// I32: 00000001 00000001 00000001 00000000 7fffffff 00000000 0000fff0 00000000 00000000 7fffffff 80000000 00000002 fffffffe 0000ffe0 00000001 00000001 00000001 00000001 00000002
// NAN: 00000000 00000000 00000000 7fffffff 7fffffff 00000000 00000000
// contract: a = 1 + 2^-12, c = 1 + 2^-11; a * a = 1 + 2^-11 + 2^-24 exactly, which rounds to
// c (a tie, to even), so a * a - c is 2^-24 fused and 0 with --fmad=false.
// RUN: python3 %srcroot/tests/interp/Inputs/npy.py make %t/cx.npy '<f4' 3 '[1 + 2**-12, 1 + 2**-11, 1.0][i]'
// RUN: %builddir/cakec-run %s contract x=%t/cx.npy d=%t/cd.npy
// RUN: python3 %srcroot/tests/interp/Inputs/npy.py bits %t/cd.npy | FileCheck %s --check-prefix=FMA
// RUN: %builddir/cakec-run -O0 %s contract x=%t/cx.npy d=%t/cd0.npy
// RUN: python3 %srcroot/tests/interp/Inputs/npy.py bits %t/cd0.npy | FileCheck %s --check-prefix=FMA
// RUN: %builddir/cakec-run --fmad=false %s contract x=%t/cx.npy d=%t/cdf.npy
// RUN: python3 %srcroot/tests/interp/Inputs/npy.py bits %t/cdf.npy | FileCheck %s --check-prefix=NOFMA
// FMA: 33800000 b3800000 33800000 33800000 33800000 33800000 33800000 33800000
// NOFMA: 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000

kernel conv(x: in f32[32], b: out bf16[32], h: out f16[32], n: out i32[32], d: out f32[32])
    targets(sm_90a, sm_100a, sm_103a)
    threads(32)
    grid(1)
{
    let v = x[thread.x];
    b[thread.x] = bf16(v);
    h[thread.x] = f16(v);
    n[thread.x] = i32(v);
    d[thread.x] = v - v;
}

// Floating-point contraction (docs/language.md): every form fuses, the interpreter as the GPU.
kernel contract(x: in f32[3], d: out f32[8])
    targets(sm_90a, sm_100a, sm_103a)
    threads(32)
    grid(1)
{
    let a = x[0];
    let c = x[1];
    let one = x[2];
    if (thread.x == 0) {
        d[0] = a * a - c;                       // fma(a, a, -c)
        d[1] = c - a * a;                       // fma(-a, a, c)
        let n = -c;
        d[2] = a * a + n;                       // fma(a, a, n)
        d[3] = n + a * a;                       // the product on the right
        let v = f32x2(a, a) * f32x2(a, a) - f32x2(c, c);
        d[4] = v[0];                            // lane-wise on vectors
        d[5] = v[1];
        d[6] = a * a - c * one;                 // two products: the left one fuses
        let p = a * a;
        d[7] = p - c + 0.0 * p;                 // a product used twice fuses in the sub
    }
}

kernel warpops(src: in f32[64], out: out i32[128, 8], total: inout f32[1], counts: inout i32[4])
    targets(sm_90a, sm_100a, sm_103a)
    threads(64)
    grid(2)
{
    shared hist: i32[4];
    shared tile: f32[64];
    let t = thread.x;
    if (t < 4) {
        hist[t] = 0;
    }
    cp_async(tile[t], src[t]);
    cp_async_commit();
    cp_async_wait(0);
    barrier();
    atomic_add(hist[t % 4], 1);
    var k = t;
    var c = 0;
    while (k > 0) {
        k = k >> 1;
        c = c + 1;
    }
    let row = block.x * 64 + t;
    out[row, 0] = i32(ballot(t % 3 == 0));
    out[row, 1] = shfl_up(t, 1);
    out[row, 2] = shfl_down(t, 3);
    out[row, 3] = shfl_idx(t, 5);
    out[row, 4] = i32(any(t == 40));
    out[row, 5] = i32(all(t < 64));
    out[row, 6] = c;
    out[row, 7] = i32(tile[63 - t]);
    atomic_add(total[0], 0.5);
    barrier();
    if (t < 4) {
        atomic_add(counts[t], hist[t]);
    }
}
