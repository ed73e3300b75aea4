// The interpreter's semantics of single ops, pinned bit for bit: f32 -> bf16/f16/i32
// conversions (ties to even, subnormals, overflow, NaN, saturation), then warp collectives,
// atomics on global and shared memory, per-lane while loops and cp.async.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py make %t/x.npy '<f4' 32 '[1.0, 1.00390625, 1.01171875, float("nan"), float("inf"), -0.0, 65520.0, 3e-8, 1e-8, 3.4e38, -3.4e38, 2.5, -2.5, 65504.0, 1 + 2**-10, 1 + 2**-11, 1 + 3 * 2**-11][i] if i < 17 else i - 16.0'
// RUN: %builddir/cakec-run %s conv x=%t/x.npy b=%t/b.npy h=%t/h.npy n=%t/n.npy
// RUN: python3 %S/Inputs/npy.py print %t/b.npy | FileCheck %s --check-prefix=BF16
// RUN: python3 %S/Inputs/npy.py print %t/h.npy | FileCheck %s --check-prefix=F16
// RUN: python3 %S/Inputs/npy.py print %t/n.npy | FileCheck %s --check-prefix=I32

kernel conv(x: in f32[32], b: out bf16[32], h: out f16[32], n: out i32[32])
    targets(sm_90a)
    threads(32)
    grid(1)
{
    let v = x[thread.x];
    b[thread.x] = bf16(v);
    h[thread.x] = f16(v);
    n[thread.x] = i32(v);
}

// The bf16 bit patterns (the file holds them as uint16); the expectations come from an
// independent round-to-nearest-even of the f32 bits.
// BF16: shape (32,)
// BF16-NEXT: 16256
// BF16-NEXT: 16256
// BF16-NEXT: 16258
// BF16-NEXT: 32767
// BF16-NEXT: 32640
// BF16-NEXT: 32768
// BF16-NEXT: 18304
// BF16-NEXT: 13057
// BF16-NEXT: 12844
// BF16-NEXT: 32640
// BF16-NEXT: 65408
// BF16-NEXT: 16416
// BF16-NEXT: 49184
// BF16-NEXT: 18304
// BF16-NEXT: 16256
// BF16-NEXT: 16256
// BF16-NEXT: 16256
// BF16-NEXT: 16256
// BF16-NEXT: 16384

// f16 values (the file is '<f2'), through Python's own round-to-nearest-even packing.
// F16: shape (32,)
// F16-NEXT: 1
// F16-NEXT: 1.00390625
// F16-NEXT: 1.01171875
// F16-NEXT: nan
// F16-NEXT: inf
// F16-NEXT: -0
// F16-NEXT: inf
// F16-NEXT: 5.96046448e-08
// F16-NEXT: 0
// F16-NEXT: inf
// F16-NEXT: -inf
// F16-NEXT: 2.5
// F16-NEXT: -2.5
// F16-NEXT: 65504
// F16-NEXT: 1.00097656
// F16-NEXT: 1
// F16-NEXT: 1.00195312

// I32: shape (32,)
// I32-NEXT: 1
// I32-NEXT: 1
// I32-NEXT: 1
// I32-NEXT: 0
// I32-NEXT: 2147483647
// I32-NEXT: 0
// I32-NEXT: 65520
// I32-NEXT: 0
// I32-NEXT: 0
// I32-NEXT: 2147483647
// I32-NEXT: -2147483648
// I32-NEXT: 2
// I32-NEXT: -2
// I32-NEXT: 65504
// I32-NEXT: 1
// I32-NEXT: 1
// I32-NEXT: 1
// I32-NEXT: 1

// RUN: python3 %S/Inputs/npy.py make %t/src.npy '<f4' 64 'float(i)'
// RUN: python3 %S/Inputs/npy.py make %t/total.npy '<f4' 1 '0.0'
// RUN: python3 %S/Inputs/npy.py make %t/counts.npy '<i4' 4 '0'
// RUN: %builddir/cakec-run %s warpops src=%t/src.npy out=%t/out.npy total=%t/total.npy counts=%t/counts.npy
// RUN: python3 %S/Inputs/npy.py print %t/out.npy | FileCheck %s --check-prefix=WARP
// RUN: python3 %S/Inputs/npy.py print %t/total.npy | FileCheck %s --check-prefix=TOTAL
// RUN: python3 %S/Inputs/npy.py print %t/counts.npy | FileCheck %s --check-prefix=COUNTS

kernel warpops(src: in f32[64], out: out i32[128, 8], total: inout f32[1], counts: inout i32[4])
    targets(sm_90a)
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
    // a loop whose trip count differs per lane: the bit length of t
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

// columns: ballot, shfl_up 1, shfl_down 3, shfl_idx 5, any, all, bit length, tile[63 - t]
// WARP: shape (128, 8)
// WARP-NEXT: 1227133513 0 3 5 0 1 0 63
// WARP-NEXT: 1227133513 0 4 5 0 1 1 62
// WARP-NEXT: 1227133513 1 5 5 0 1 2 61
// WARP: 1227133513 30 31 5 0 1 5 32
// WARP-NEXT: -1840700270 32 35 37 1 1 6 31
// WARP: -1840700270 62 63 37 1 1 6 0
// WARP-NEXT: 1227133513 0 3 5 0 1 0 63
// TOTAL: 64
// COUNTS: shape (4,)
// COUNTS-NEXT: 32
// COUNTS-NEXT: 32
// COUNTS-NEXT: 32
// COUNTS-NEXT: 32
