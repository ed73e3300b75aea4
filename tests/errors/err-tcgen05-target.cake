// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Target gating (the verifier, from the ops' FEAT_* bits): tensor memory and tcgen05 need
// sm_100a or sm_103a; the allocation reports at the tmem declaration, the MMA, the load and
// the store at their calls.

kernel k(c: out f32[M, N]) targets(sm_90a, sm_100a) threads(256) {
    pipeline ld(stages: 2, full: thread, empty: mma);
    pipeline accp(stages: 2, full: mma, empty: warpgroup);
    shared sa: bf16[128, 64] in ld swizzle(128);
    shared sb: bf16[64, 64] in ld swizzle(128);
    tmem acc: f32[128, 64] in accp;
    role mma(warp 1) {
        elect {
            produce accp {
                consume ld {
                    tcgen05_mma(acc, sa, sb, accumulate: false);
                }
            }
        }
    }
    role epilogue(warpgroup 1) {
        consume accp {
            var r: f32[1] = tmem_load(acc, 32 * (warp % 4), 0);
            c[lane, 0] = r[0];
            tmem_store(acc, 32 * (warp % 4), 0, r);
        }
    }
}
// CHECK: err-tcgen05-target.cake:11:5: error: tmem.alloc needs sm_100a or sm_103a; kernel 'k' also targets sm_90a
// CHECK-NEXT: {{^}}    tmem acc: f32[128, 64] in accp;
// CHECK-NEXT: {{^}}    ^
// CHECK: err-tcgen05-target.cake:16:21: error: tcgen05.desc needs sm_100a or sm_103a; kernel 'k' also targets sm_90a
// CHECK-NEXT: {{^}}                    tcgen05_mma(acc, sa, sb, accumulate: false);
// CHECK-NEXT: {{^}}                    ^
// CHECK: err-tcgen05-target.cake:23:29: error: tcgen05.ld needs sm_100a or sm_103a; kernel 'k' also targets sm_90a
// CHECK-NEXT: {{^}}            var r: f32[1] = tmem_load(acc, 32 * (warp % 4), 0);
// CHECK-NEXT: {{^}}                            ^
// CHECK: err-tcgen05-target.cake:25:13: error: tcgen05.st needs sm_100a or sm_103a; kernel 'k' also targets sm_90a
// CHECK-NEXT: {{^}}            tmem_store(acc, 32 * (warp % 4), 0, r);
// CHECK-NEXT: {{^}}            ^
// CHECK: err-tcgen05-target.cake:11:5: error: tcgen05.fence.before needs sm_100a or sm_103a; kernel 'k' also targets sm_90a
// CHECK-NEXT: {{^}}    tmem acc: f32[128, 64] in accp;
// CHECK-NEXT: {{^}}    ^
