// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// tcgen05_mma is issued by one thread of the CTA (schedule-check counts the threads that
// reach it): an elect in every warp of a role of two warps issues it twice; once per
// tcgen05_mma however many MMAs it expands to.

kernel k(c: out f32[M, N]) targets(sm_100a) threads(128) {
    shared sa: bf16[128, 64] swizzle(128);
    shared sb: bf16[32, 64] swizzle(128);
    tmem acc: f32[128, 32];
    role mma(warps 0 .. 1) {
        elect {
            tcgen05_mma(acc, sa, sb, accumulate: false);
        }
        if (warp == 1) {
            elect {
                tcgen05_mma(acc, sa, sb, accumulate: true);
            }
        }
    }
}
// CHECK: err-tcgen05-issue.cake:12:13: error: tcgen05.mma is issued by 2 threads (warps 0 .. 1): one thread of the CTA issues the MMAs into an accumulator; put the elect under a condition on the warp (if (warp == 1) { elect { ... } }) or in a one-warp role
// CHECK-NEXT: {{^}}            tcgen05_mma(acc, sa, sb, accumulate: false);
// CHECK-NEXT: {{^}}            ^
