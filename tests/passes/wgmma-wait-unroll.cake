// An `unroll` loop with constant bounds around wgmma calls (the K halves of a product, as
// ssd's C B^T over d_state 128 in two 64-column panels) is unrolled by irgen, not left
// to LLVM: a loop left in the IR is a region, and each of its iterations would retire
// its group (wgmma.wait[0] inside the loop) before the next is issued. Unrolled, both
// halves are issued back to back and one wait comes where the sum is first read, after
// the code that does not depend on it (the exp2 of another fragment).
// RUN: %cakec --emit=ir --passes=schedule-check,expand-async %s | FileCheck %s

kernel halves(o: out f32[64, 64], e: in f32[64, 64])
    targets(sm_90a) threads(256)
{
    pipeline kp(stages: 2, full: warpgroup, empty: warpgroup);
    shared sa: bf16[128, 64] in kp swizzle(128);
    shared sb: bf16[128, 64] in kp swizzle(128);
    role producer(warpgroup 0) {
        produce kp { }
    }
    role consumer(warpgroup 1) {
        consume kp {
            var g: f32acc[64, 64] = 0.0;
            for (k in 0 .. 2) unroll {
                g = wgmma(g, sa.rows(64 * k, 64), sb.rows(64 * k, 64));
            }
            let w = exp2(fragment(e, [0, 0], 64));
            store(o, g * w, [0, 0]);
        }
    }
}
// CHECK-LABEL: kernel @halves
// CHECK-NOT: for
// CHECK: wgmma.commit
// CHECK-NOT: wgmma.wait
// CHECK: wgmma.commit
// CHECK-NOT: wgmma.wait
// CHECK: exp2
// CHECK: wgmma.wait[0]
// CHECK: mul
