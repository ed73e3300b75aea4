// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// tcgen05_mma(D, A, B, ...) with A from tensor memory, the language-level rules: A a tmem
// declared 'packed', bf16 or f16 (two elements per column: COLS columns hold K = 2 x COLS),
// of B's element type and K; an unpacked tmem (an accumulator, f32 or f16) is no A, a
// packed one no D; staged, and read only inside produce of its pipeline (whose wait
// follows the release of the consume that stored A); tmem_store into it takes
// bf16/f16[2 x N] (N columns), tmem_load does not read it; its columns count against the
// CTA's 512; no CTA pairs; 'packed' needs a 16-bit type, and is the only bare word.

kernel k(c: out f32[M, N]) targets(sm_100a) threads(256) {
    pipeline ld(stages: 2, full: tma, empty: mma);
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    pipeline accq(stages: 1, full: mma, empty: warpgroup);
    shared sa: bf16[128, 64] in ld swizzle(128);
    shared sb: bf16[64, 64] in ld swizzle(128);
    shared sf: f16[64, 64] in ld swizzle(128);
    tmem acc: f32[128, 64] in accp;
    tmem pa: bf16[128, 32] packed in accp;
    tmem pk: bf16[128, 64] packed in accp;
    tmem pu: bf16[128, 32] packed;
    tmem accq1: f32[128, 64] in accq;
    tmem fa: f16[128, 32] in accp;
    tmem big: bf16[128, 256] packed in accp;

    role mma(warp 1) {
        elect {
            produce accp {
                consume ld {
                    tcgen05_mma(acc, pa, sb, accumulate: false);
                    tcgen05_mma(acc, acc, sb, accumulate: false);
                    tcgen05_mma(acc, fa, sf, accumulate: false);
                    tcgen05_mma(acc, pa, sf, accumulate: false);
                    tcgen05_mma(acc, pk, sb, accumulate: false);
                    tcgen05_mma(acc, pu, sb, accumulate: false);
                    tcgen05_mma(pa, sa, sb, accumulate: false);
                    tcgen05_mma(pa, pa, sb, accumulate: false);
                }
            }
            produce accq {
                consume ld {
                    tcgen05_mma(accq1, pa, sb, accumulate: false);
                }
            }
        }
    }
    role epilogue(warpgroup 1) {
        consume accp {
            var v: bf16[64] = 0.0;
            tmem_store(pa, 32 * (warp % 4), 0, v);
            var r: f32[32] = 0.0;
            tmem_store(pa, 32 * (warp % 4), 0, r);
            var v48: bf16[48] = 0.0;
            tmem_store(pa, 32 * (warp % 4), 0, v48);
            var h: f16[64] = 0.0;
            tmem_store(pa, 32 * (warp % 4), 0, h);
            tmem_store(pa, 32 * (warp % 4), 16, v);
            var l: f32[32] = tmem_load(pa, 32 * (warp % 4), 0);
        }
    }
}

kernel pair(c: out f32[M, N]) targets(sm_100a) threads(256) cluster(2) cta_group(2) {
    pipeline ld(stages: 2, full: tma, empty: mma);
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    shared sb: bf16[64, 64] in ld swizzle(128);
    tmem acc: f32[128, 128] in accp;
    tmem pa: bf16[128, 32] packed in accp;

    role mma(warp 1, leader) {
        elect {
            produce accp {
                consume ld {
                    tcgen05_mma(acc, pa, sb, accumulate: false);
                }
            }
        }
    }
}

kernel cols(c: out f32[M, N]) targets(sm_100a) threads(256) {
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    tmem pa: bf16[128, 12] packed in accp;
    tmem pf: f32[128, 32] packed in accp;
    tmem pw: f16[128, 32] packd in accp;
    tmem p2: f16[128, 32] packed packed in accp;
}

// CHECK: err-tcgen05-tmem-a.cake:23:5: error: tensor memory 'big' needs 512 columns (256 x 2 stages), but only 32 of the CTA's 512 are left
// CHECK-NEXT: {{^}}    tmem big: bf16[128, 256] packed in accp;
// CHECK-NEXT: {{^}}    ^
// CHECK: err-tcgen05-tmem-a.cake:30:38: error: tcgen05_mma takes A from packed tensor memory (bf16 or f16, two elements per column), but 'acc' is an accumulator (f32, one element per column): declare A's tmem 'packed'
// CHECK-NEXT: {{^}}                    tcgen05_mma(acc, acc, sb, accumulate: false);
// CHECK-NEXT: {{^}}                                     ^
// CHECK: err-tcgen05-tmem-a.cake:31:38: error: tcgen05_mma takes A from packed tensor memory (bf16 or f16, two elements per column), but 'fa' is an accumulator (f16, one element per column): declare A's tmem 'packed'
// CHECK-NEXT: {{^}}                    tcgen05_mma(acc, fa, sf, accumulate: false);
// CHECK-NEXT: {{^}}                                     ^
// CHECK: err-tcgen05-tmem-a.cake:32:38: error: tcgen05_mma operands A 'pa' (bf16, K = 64 in 32 columns) and B 'sf' (f16, K = 64) differ
// CHECK-NEXT: {{^}}                    tcgen05_mma(acc, pa, sf, accumulate: false);
// CHECK-NEXT: {{^}}                                     ^
// CHECK: err-tcgen05-tmem-a.cake:33:38: error: tcgen05_mma operands A 'pk' (bf16, K = 128 in 64 columns) and B 'sb' (bf16, K = 64) differ
// CHECK-NEXT: {{^}}                    tcgen05_mma(acc, pk, sb, accumulate: false);
// CHECK-NEXT: {{^}}                                     ^
// CHECK: err-tcgen05-tmem-a.cake:34:38: error: tcgen05_mma reads A from tensor memory 'pu', which is in no pipeline: nothing would order the tmem_store of A before the MMA; declare it 'in PIPELINE' (full: mma) and store it inside 'consume PIPELINE'
// CHECK-NEXT: {{^}}                    tcgen05_mma(acc, pu, sb, accumulate: false);
// CHECK-NEXT: {{^}}                                     ^
// CHECK: err-tcgen05-tmem-a.cake:35:33: error: tcgen05_mma accumulates into tensor memory 'pa', which is packed (an MMA operand A, two bf16 per column): an accumulator is declared without 'packed'
// CHECK-NEXT: {{^}}                    tcgen05_mma(pa, sa, sb, accumulate: false);
// CHECK-NEXT: {{^}}                                ^
// CHECK: err-tcgen05-tmem-a.cake:36:33: error: tcgen05_mma accumulates into tensor memory 'pa', which is packed (an MMA operand A, two bf16 per column): an accumulator is declared without 'packed'
// CHECK-NEXT: {{^}}                    tcgen05_mma(pa, pa, sb, accumulate: false);
// CHECK-NEXT: {{^}}                                ^
// CHECK: err-tcgen05-tmem-a.cake:41:40: error: tcgen05_mma reads A from tensor memory 'pa' of pipeline 'accp' only inside 'produce accp', which waits for the release of the consume block that stored it
// CHECK-NEXT: {{^}}                    tcgen05_mma(accq1, pa, sb, accumulate: false);
// CHECK-NEXT: {{^}}                                       ^
// CHECK: err-tcgen05-tmem-a.cake:51:13: error: tmem_store stores a register array bf16[2 x N], N a power of two from 1 to 128 (the columns written), but 'r' is f32[32]
// CHECK-NEXT: {{^}}            tmem_store(pa, 32 * (warp % 4), 0, r);
// CHECK-NEXT: {{^}}            ^
// CHECK: err-tcgen05-tmem-a.cake:53:13: error: tmem_store stores a register array bf16[2 x N], N a power of two from 1 to 128 (the columns written), but 'v48' is bf16[48]
// CHECK-NEXT: {{^}}            tmem_store(pa, 32 * (warp % 4), 0, v48);
// CHECK-NEXT: {{^}}            ^
// CHECK: err-tcgen05-tmem-a.cake:55:13: error: tmem_store stores a register array bf16[2 x N], N a power of two from 1 to 128 (the columns written), but 'h' is f16[64]
// CHECK-NEXT: {{^}}            tmem_store(pa, 32 * (warp % 4), 0, h);
// CHECK-NEXT: {{^}}            ^
// CHECK: err-tcgen05-tmem-a.cake:56:45: error: tmem_store writes columns 16 .. 47 of tensor memory 'pa', which has 32
// CHECK-NEXT: {{^}}            tmem_store(pa, 32 * (warp % 4), 16, v);
// CHECK-NEXT: {{^}}                                            ^
// CHECK: err-tcgen05-tmem-a.cake:57:40: error: tmem_load reads accumulators, but 'pa' is packed (an MMA operand A: written by tmem_store, read by tcgen05_mma)
// CHECK-NEXT: {{^}}            var l: f32[32] = tmem_load(pa, 32 * (warp % 4), 0);
// CHECK-NEXT: {{^}}                                       ^
// CHECK: err-tcgen05-tmem-a.cake:73:38: error: tcgen05_mma with A from tensor memory 'pa' is not supported with cta_group(2) (each CTA would store its 128 rows of A and the leader's MMA wait for both)
// CHECK-NEXT: {{^}}                    tcgen05_mma(acc, pa, sb, accumulate: false);
// CHECK-NEXT: {{^}}                                     ^
// CHECK: err-tcgen05-tmem-a.cake:82:24: error: tensor memory 'pa' has 12 columns; a packed A operand has 8 to 256, a multiple of 8 (K / 2: 8 per MMA's 16 elements of K)
// CHECK-NEXT: {{^}}    tmem pa: bf16[128, 12] packed in accp;
// CHECK-NEXT: {{^}}                       ^
// CHECK: err-tcgen05-tmem-a.cake:83:14: error: tensor memory 'pf' is packed (an MMA operand A, two 16-bit elements per column): its type is bf16 or f16, found f32
// CHECK-NEXT: {{^}}    tmem pf: f32[128, 32] packed in accp;
// CHECK-NEXT: {{^}}             ^
// CHECK: err-tcgen05-tmem-a.cake:84:27: error: tensor memory takes the attributes 'in PIPELINE' and 'packed' (an MMA operand A), found 'packd'
// CHECK-NEXT: {{^}}    tmem pw: f16[128, 32] packd in accp;
// CHECK-NEXT: {{^}}                          ^
// CHECK: err-tcgen05-tmem-a.cake:85:34: error: tensor memory takes the attributes 'in PIPELINE' and 'packed' (an MMA operand A), found 'packed' twice
// CHECK-NEXT: {{^}}    tmem p2: f16[128, 32] packed packed in accp;
// CHECK-NEXT: {{^}}                                 ^
