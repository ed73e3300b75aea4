// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// a.cols(start, k) with start an unroll loop's index: checked in each unrolled copy,
// reported once, at the index.
kernel tile_unroll(x: in f32[R, C], o: out f32[R, C])
    targets(sm_90a) threads(128)
{
    shared sb: bf16[64, 64] swizzle(128);
    let a = bf16a(fragment(x, [0, 0], 128));
    var d: f32acc[64, 64] = 0.0;
    for (p in 0 .. 3) unroll {
        d = wgmma(d, a.cols(48 * p, 64), sb);
    }
    store(o, d, [0, 0]);
}

// CHECK: err-tile-unroll.cake:11:32: error: cols(96, 64) of a register A fragment of K = 128: the first column must be a multiple of 16 (a k16 step) and the columns inside it
// CHECK-NEXT: {{^}}        d = wgmma(d, a.cols(48 * p, 64), sb);
// CHECK-NEXT: {{^}}                               ^
