// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// The RS form of wgmma (A from registers) runs in whole warpgroups like the SS form: the
// verifier's rule, on the wgmma ops.

kernel part(c: out bf16[M, N]) targets(sm_90a) threads(256) {
    shared sb: bf16[64, 64] swizzle(128);
    var p: f32acc[64, 64] = 0.0;
    let a = bf16a(p);
    role r(warps 0 .. 1) {
        p = wgmma(p, a, sb);
    }
    store(c, p, [0, 0]);
}

// CHECK: err-hopper-wgmma-rs-where.cake:10:13: error: wgmma.fence in a role of warps 0 .. 1, which is not whole warpgroups (it must start at a multiple of 4 warps and span a multiple of 4)
// CHECK-NEXT: {{^}}        p = wgmma(p, a, sb);
// CHECK-NEXT: {{^}}            ^
