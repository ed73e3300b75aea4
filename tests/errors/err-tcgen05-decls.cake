// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Tensor-memory declarations: tmem NAME: f32[128, COLS] [in PIPELINE] (or f16; 'packed' A:
// err-tcgen05-tmem-a.cake), COLS 8..256 (a multiple of 8), the pipeline's full source mma,
// all stages of all of them within the CTA's 512 columns; a tmem is not a pipeline.

kernel k(a: in bf16[M, K]) targets(sm_100a) threads(256) {
    pipeline ld(stages: 2, full: tma, empty: mma);
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    pipeline wp(stages: 2, full: thread, empty: warp);
    tmem t1: f32[128, 256] in accp;
    tmem t2: bf16[128, 64];
    tmem t3: f32[64, 64];
    tmem t4: f32[128, 12];
    tmem t5: f32[128, 64] in wp;
    tmem t6: f32[128, 256];
    tmem t7: f32[128];
    shared s: f32[4] in t1;
}

// CHECK: err-tcgen05-decls.cake:11:14: error: tensor memory 't2' holds f32 or f16 accumulators, found bf16 (a tmem that holds an MMA operand A is declared 'packed')
// CHECK-NEXT: {{^}}    tmem t2: bf16[128, 64];
// CHECK-NEXT: {{^}}             ^
// CHECK: err-tcgen05-decls.cake:12:18: error: tensor memory 't3' has 128 lanes (one per row of a 128-row MMA tile), found 64
// CHECK-NEXT: {{^}}    tmem t3: f32[64, 64];
// CHECK-NEXT: {{^}}                 ^
// CHECK: err-tcgen05-decls.cake:13:23: error: tensor memory 't4' has 12 columns; an accumulator has 8 to 256, a multiple of 8 (the MMA's N)
// CHECK-NEXT: {{^}}    tmem t4: f32[128, 12];
// CHECK-NEXT: {{^}}                      ^
// CHECK: err-tcgen05-decls.cake:14:30: error: tensor memory 't5' is in pipeline 'wp', whose full source is thread; its stages are filled by MMAs: declare the pipeline with 'full: mma'
// CHECK-NEXT: {{^}}    tmem t5: f32[128, 64] in wp;
// CHECK-NEXT: {{^}}                             ^
// CHECK: err-tcgen05-decls.cake:15:5: error: tensor memory 't6' needs 256 columns (256 x 1 stages), but only 0 of the CTA's 512 are left
// CHECK-NEXT: {{^}}    tmem t6: f32[128, 256];
// CHECK-NEXT: {{^}}    ^
// CHECK: err-tcgen05-decls.cake:16:14: error: tensor memory 't7' has 2 dimensions, lanes and columns: f32[128, COLS]
// CHECK-NEXT: {{^}}    tmem t7: f32[128];
// CHECK-NEXT: {{^}}             ^
// CHECK: err-tcgen05-decls.cake:17:25: error: 'in' takes a pipeline, but 't1' is a tensor memory
// CHECK-NEXT: {{^}}    shared s: f32[4] in t1;
// CHECK-NEXT: {{^}}                        ^
