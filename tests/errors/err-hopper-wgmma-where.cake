// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// The fragment store runs in whole warpgroups: a role of warps starting at a multiple of 4 and
// spanning a multiple of 4 (or a CTA of whole warpgroups outside roles), never an elect block.
// The frontend checks this for store, which becomes plain per-thread stores in the IR; the same
// rule for wgmma itself (and wgmma's target gating) is the verifier's, on the wgmma ops:
// err-hopper-region-rules.cake.

kernel roles(c: out bf16[M, N]) targets(sm_90a) threads(256) {
    var acc: f32acc[64, 64] = 0.0;
    role p(warps 0 .. 2) {
        store(c, acc, [0, 0]);
    }
    role q(warps 4 .. 7) {
        elect {
            store(c, acc, [0, 0]);
        }
    }
}

kernel odd(c: out bf16[M, N]) targets(sm_90a) threads(96) {
    var acc: f32acc[64, 64] = 0.0;
    store(c, acc, [0, 0]);
}

// CHECK: err-hopper-wgmma-where.cake:11:9: error: store in role 'p' of warps 0 .. 2, which is not whole warpgroups (a role that stores a fragment starts at a multiple of 4 warps and spans a multiple of 4)
// CHECK-NEXT: {{^}}        store(c, acc, [0, 0]);
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-wgmma-where.cake:15:13: error: store inside an elect block: it needs all 128 threads of the warpgroup
// CHECK-NEXT: {{^}}            store(c, acc, [0, 0]);
// CHECK-NEXT: {{^}}            ^
// CHECK: err-hopper-wgmma-where.cake:22:5: error: store outside any role needs whole warpgroups, but the CTA has 96 threads
// CHECK-NEXT: {{^}}    store(c, acc, [0, 0]);
// CHECK-NEXT: {{^}}    ^
