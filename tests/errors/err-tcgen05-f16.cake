// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// f16 accumulators (tmem NAME: f16[128, COLS]): tcgen05_mma into one takes f16, e4m3 or
// e5m2 operands (PTX kind::f16 accumulates bf16 into f32 only); tmem_load and tmem_store
// move register arrays of the accumulator's type, f16[N] with N a power of two from 8 to
// 128 (two cells a register, .pack::16b), f32[N] for an f32 one.

kernel k(c: out f32[M, N]) targets(sm_100a) threads(256) {
    pipeline ld(stages: 2, full: tma, empty: mma);
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    shared sa: bf16[128, 64] in ld swizzle(128);
    shared sb: bf16[64, 64] in ld swizzle(128);
    tmem acc: f16[128, 64] in accp;
    tmem acc32: f32[128, 64] in accp;

    role mma(warp 1) {
        elect {
            produce accp {
                consume ld {
                    tcgen05_mma(acc, sa, sb, accumulate: false);
                    tcgen05_mma(acc32, sa, sb, accumulate: false);
                }
            }
        }
    }
    role epilogue(warpgroup 1) {
        consume accp {
            var r: f32[32] = tmem_load(acc, 32 * (warp % 4), 0);
            var h: f16[32] = tmem_load(acc32, 32 * (warp % 4), 0);
            var h4: f16[4] = tmem_load(acc, 32 * (warp % 4), 0);
            var ok: f16[32] = tmem_load(acc, 32 * (warp % 4), 32);
            var z: f32[32] = 0.0;
            tmem_store(acc, 32 * (warp % 4), 0, z);
            tmem_store(acc32, 32 * (warp % 4), 0, ok);
            tmem_store(acc, 32 * (warp % 4), 0, ok);
        }
    }
}

// CHECK: err-tcgen05-f16.cake:19:33: error: tcgen05_mma into tensor memory 'acc' (f16) with bf16 operands: bf16 accumulates into f32 only (PTX kind::f16); an f16 accumulator takes f16, e4m3 or e5m2
// CHECK-NEXT: {{^}}                    tcgen05_mma(acc, sa, sb, accumulate: false);
// CHECK-NEXT: {{^}}                                ^
// CHECK-NEXT: err-tcgen05-f16.cake:12:5: note: 'acc' is declared here
// CHECK: err-tcgen05-f16.cake:27:30: error: tmem_load fills register array 'r' (f32[32]) from tensor memory 'acc', which holds f16: declare the array f16[32]
// CHECK-NEXT: {{^}}            var r: f32[32] = tmem_load(acc, 32 * (warp % 4), 0);
// CHECK-NEXT: {{^}}                             ^
// CHECK-NEXT: err-tcgen05-f16.cake:12:5: note: 'acc' is declared here
// CHECK: err-tcgen05-f16.cake:28:30: error: tmem_load fills register array 'h' (f16[32]) from tensor memory 'acc32', which holds f32: declare the array f32[32]
// CHECK: err-tcgen05-f16.cake:13:5: note: 'acc32' is declared here
// CHECK: err-tcgen05-f16.cake:29:30: error: tmem_load fills a register array f16[N], N a power of two from 8 to 128 (the columns read), but 'h4' is f16[4]
// CHECK: err-tcgen05-f16.cake:32:13: error: tmem_store stores register array 'z' (f32[32]) into tensor memory 'acc', which holds f16: declare the array f16[32]
// CHECK: err-tcgen05-f16.cake:33:13: error: tmem_store stores register array 'ok' (f16[32]) into tensor memory 'acc32', which holds f32: declare the array f32[32]
