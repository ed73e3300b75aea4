// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py make %t/a.npy '<f2' 256 '(i * 37 % 509) - 250'
// RUN: %builddir/cakec-run --seeds 3 %s load_row a=%t/a.npy o=%t/o.npy
// RUN: python3 %S/Inputs/load_row_check.py %t/a.npy %t/o.npy | FileCheck %s
// load(buf, [i, j]) into register arrays, each element checked against the input it
// must come from: f16 rows read as f32 16 bytes at a time (start 8 t / 4), from a start
// known only to be odd, f32 by 16 bytes (4 t) and from 2 t + 1 (4- and 8-byte pieces),
// f16 kept as f16 in an unrolled loop (16 q + 8 (t % 2)), and from a row of a 2-D f32
// array at a constant start.
// CHECK: o: 0 of 1536 wrong
// Planted bug: without the barrier, warp 0 reads what warp 1 has not written yet.
// RUN: sed 's/    barrier();//' %s > %t/bug.cake
// RUN: %not %builddir/cakec-run %t/bug.cake load_row a=%t/a.npy o=%t/o.npy 2>&1 | FileCheck %s --check-prefix=BUG
// BUG: error: data race on shared memory: this load by warp 0 and the store at line {{[0-9]+}}:{{[0-9]+}} by warp 1
kernel load_row(a: in f16[256], o: out f32[32, 48])
    targets(sm_90a) threads(64) grid(1)
{
    shared sa: f16[4, 64];
    shared sf: f32[256];
    shared s2: f32[4, 12];
    let x = thread.x;
    for (i in 0 .. 4) {
        sa[(x + 64 * i) / 64, x] = a[x + 64 * i];
        sf[x + 64 * i] = f32(a[x + 64 * i]);
    }
    if (x < 12) {
        for (r in 0 .. 4) {
            s2[r, x] = f32(a[12 * r + x]);
        }
    }
    barrier();
    if (warp == 1) {
        return;
    }
    let t = lane;
    var r1: f32[8] = load(sa, [t % 4, 8 * (t / 4)]);
    var r2: f32[5] = load(sa, [1, t + 3]);
    var r3: f32[4] = load(sf, [4 * t]);
    var r4: f32[6] = load(sf, [2 * t + 1]);
    for (k in 0 .. 8) unroll {
        o[t, k] = r1[k];
    }
    for (k in 0 .. 5) unroll {
        o[t, 8 + k] = r2[k];
    }
    for (k in 0 .. 4) unroll {
        o[t, 13 + k] = r3[k];
    }
    for (k in 0 .. 6) unroll {
        o[t, 17 + k] = r4[k];
    }
    for (q in 0 .. 2) unroll {
        var h: f16[8] = load(sa, [2, 16 * q + 8 * (t % 2)]);
        for (k in 0 .. 8) unroll {
            o[t, 23 + 8 * q + k] = f32(h[k]);
        }
    }
    var c: f32[9] = load(s2, [t % 4, 2]);
    for (k in 0 .. 9) unroll {
        o[t, 39 + k] = c[k];
    }
}
