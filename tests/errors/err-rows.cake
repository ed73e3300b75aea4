// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// The rows of a fragment (row_max, row_sum, by_row, mask_cols, mask_above, store_rows)
// and wgmma's N-major operand B (buf.T): each misuse is reported at its place.
kernel rows_err(x: in f32[R, C], o: out f32[B, R], p: out f32[R, C])
    targets(sm_90a) threads(128)
{
    shared sa: bf16[64, 64] swizzle(128);
    shared sv: bf16[128, 64] swizzle(128);
    shared sw: bf16[96, 64] swizzle(128);
    shared sf: f32[64, 32] swizzle(128);
    var acc: f32acc[64, 128] = 0.0;
    let m = row_max(acc);
    let a = row_sum(m);
    let b = by_row(acc, 64);
    let c = by_row(m, 12);
    let d = mask_cols(acc, 1.5);
    let e = mask_above(acc, 0, 2.5);
    let h = mask_above(acc, 0, acc);
    let f = mask_cols(acc);
    store_rows(p, m, [0]);
    store_rows(o[0], acc, [0]);
    store_rows(o[0].T, m, [0]);
    var s: f32acc[64, 64] = 0.0;
    s = wgmma(s, sa, sw.T);
    s = wgmma(s, sa, sf.T);
    var t: f32acc[64, 64] = 0.0;
    t = wgmma(t, sa, sv.T);
    var u: f32acc[64, 128] = 0.0;
    u = wgmma(u, sa, sv.T);
    elect {
        let g = row_max(acc);
    }
}

// CHECK: err-rows.cake:13:21: error: row_sum takes an accumulator fragment (f32acc[64, N]) here, found f32x2
// CHECK-NEXT: {{^}}    let a = row_sum(m);
// CHECK-NEXT: {{^}}                    ^
// CHECK: err-rows.cake:14:20: error: by_row takes a row vector (f32x2, the values of the thread's two rows, as row_max gives), found f32acc[64, 128]
// CHECK-NEXT: {{^}}    let b = by_row(acc, 64);
// CHECK-NEXT: {{^}}                   ^
// CHECK: err-rows.cake:15:23: error: by_row makes an f32acc[64, N] with N a multiple of 8 from 8 to 256, found 12
// CHECK-NEXT: {{^}}    let c = by_row(m, 12);
// CHECK-NEXT: {{^}}                      ^
// CHECK: err-rows.cake:16:28: error: cannot use the float constant 1.5 as i32 (convert it with i32(...))
// CHECK-NEXT: {{^}}    let d = mask_cols(acc, 1.5);
// CHECK-NEXT: {{^}}                           ^
// CHECK: err-rows.cake:18:32: error: the value of mask_above must be f32, found f32acc[64, 128]
// CHECK-NEXT: {{^}}    let h = mask_above(acc, 0, acc);
// CHECK-NEXT: {{^}}                               ^
// CHECK: err-rows.cake:19:13: error: 'mask_cols' takes a fragment, the first masked column and optionally the value (-inf): mask_cols(s, n), found 1 argument
// CHECK-NEXT: {{^}}    let f = mask_cols(acc);
// CHECK-NEXT: {{^}}            ^
// CHECK: err-rows.cake:20:16: error: store_rows writes a 1-dimensional tensor (or a vector of a larger one, t[i, ...]), but 'p' has 2 dimensions
// CHECK-NEXT: {{^}}    store_rows(p, m, [0]);
// CHECK-NEXT: {{^}}               ^
// CHECK: err-rows.cake:21:22: error: store_rows takes a row vector (f32x2, the values of the thread's two rows, as row_max gives), found f32acc[64, 128]
// CHECK-NEXT: {{^}}    store_rows(o[0], acc, [0]);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-rows.cake:22:21: error: store_rows takes a tensor or a vector of one (t[i, ...]), found '.T'
// CHECK-NEXT: {{^}}    store_rows(o[0].T, m, [0]);
// CHECK-NEXT: {{^}}                    ^
// CHECK: err-rows.cake:24:25: error: wgmma operand B 'sw.T' holds B^T (K = 64 rows, N = 64 columns) in panels of 64 columns (its swizzle(128) span), each K rows, stacked: expected bf16[64, 64], found [96, 64]
// CHECK-NEXT: {{^}}    s = wgmma(s, sa, sw.T);
// CHECK-NEXT: {{^}}                        ^
// CHECK: err-rows.cake:25:25: error: wgmma operand B 'sf.T' (N-major) must be a swizzled 2-dimensional array of bf16 or f16, found f32
// CHECK-NEXT: {{^}}    s = wgmma(s, sa, sf.T);
// CHECK-NEXT: {{^}}                        ^
// CHECK: err-rows.cake:27:25: error: wgmma operand B 'sv.T' holds B^T (K = 64 rows, N = 64 columns) in panels of 64 columns (its swizzle(128) span), each K rows, stacked: expected bf16[64, 64], found [128, 64]
// CHECK-NEXT: {{^}}    t = wgmma(t, sa, sv.T);
// CHECK-NEXT: {{^}}                        ^
// CHECK: err-rows.cake:31:17: error: row_max inside an elect block: it needs all 128 threads of the warpgroup
// CHECK-NEXT: {{^}}        let g = row_max(acc);
// CHECK-NEXT: {{^}}                ^
