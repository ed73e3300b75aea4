// rows: the rows of a fragment (docs/language.md, "Rows of a fragment"), checked on the GPU
// and under the interpreter by check_rows.c. Block b of B, f = x[b] as an f32acc[64, 128]:
//   mx[b]  = row_max(mask_cols(f, n))             the largest of columns < n (-inf if none)
//   sm[b]  = row_sum(mask_cols(f, n, 0.0))        the sum of columns < n
//   y[b]   = mask_above(mask_cols(f, n, 0.0), d, -2.0) * by_row(max(row_max(f), 1.0), 128)
//            columns >= n are 0, elements with column - row > d are -2, times each row's
//            largest (at least 1)
//   hb[b]  = row_max(f) as bf16, by store_rows converting
// Here (lit, no GPU): the kernel compiles, ptxas assembles it with no spills.
// REQUIRES: ptxas
// RUN: rm -rf %t && %cakec --emit=ptx,ir -o %t %s
// RUN: %ptxas -v -arch=sm_90a %t/rows_ops.sm_90a.ptx -o %t/a.cubin 2>&1 | FileCheck %s --implicit-check-not=Performance
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

kernel rows_ops(x: in f32[B, 64, 128], mx: out f32[B, 64], sm: out f32[B, 64], y: out f32[B, 64, 128],
                hb: out bf16[B, 64], n: i32, d: i32)
    targets(sm_90a) threads(128) grid(B)
{
    let b = block.x;
    let f = fragment(x[b], [0, 0], 128);
    let z = mask_cols(f, n, 0.0);
    store_rows(mx[b], row_max(mask_cols(f, n)), [0]);
    store_rows(sm[b], row_sum(z), [0]);
    store(y[b], mask_above(z, d, -2.0) * by_row(max(row_max(f), f32x2(1.0)), 128), [0, 0]);
    store_rows(hb[b], row_max(f), [0]);
}
