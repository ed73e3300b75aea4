// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// wgmma needs whole warpgroups: a role of warps starting at a multiple of 4 and spanning a
// multiple of 4 (or a CTA of whole warpgroups outside roles), never an elect block; it
// exists on sm_90a only.

kernel roles(c: out bf16[M, N]) targets(sm_90a) threads(256) {
    shared x: bf16[64, 64] swizzle(128);
    var acc: f32acc[64, 64] = 0.0;
    role p(warps 0 .. 2) {
        acc = wgmma(acc, x, x);
    }
    role q(warps 4 .. 7) {
        elect {
            acc = wgmma(acc, x, x);
        }
        store(c, acc, [0, 0]);
    }
}

kernel odd(c: out bf16[M, N]) targets(sm_90a) threads(96) {
    shared x: bf16[64, 64] swizzle(128);
    var acc: f32acc[64, 64] = 0.0;
    acc = wgmma(acc, x, x);
    store(c, acc, [0, 0]);
}

kernel blackwell(c: out bf16[M, N]) targets(sm_90a, sm_100a) threads(128) {
    shared x: bf16[64, 64] swizzle(128);
    var acc: f32acc[64, 64] = 0.0;
    acc = wgmma(acc, x, x);
    store(c, acc, [0, 0]);
}

// CHECK: err-hopper-wgmma-where.cake:10:15: error: wgmma in role 'p' of warps 0 .. 2, which is not whole warpgroups (a role that issues wgmma starts at a multiple of 4 warps and spans a multiple of 4)
// CHECK-NEXT: {{^}}        acc = wgmma(acc, x, x);
// CHECK-NEXT: {{^}}              ^
// CHECK: err-hopper-wgmma-where.cake:14:19: error: wgmma inside an elect block: it needs all 128 threads of the warpgroup
// CHECK-NEXT: {{^}}            acc = wgmma(acc, x, x);
// CHECK-NEXT: {{^}}                  ^
// CHECK: err-hopper-wgmma-where.cake:23:11: error: wgmma outside any role needs whole warpgroups, but the CTA has 96 threads
// CHECK-NEXT: {{^}}    acc = wgmma(acc, x, x);
// CHECK-NEXT: {{^}}          ^
// CHECK: err-hopper-wgmma-where.cake:24:5: error: store outside any role needs whole warpgroups, but the CTA has 96 threads
// CHECK-NEXT: {{^}}    store(c, acc, [0, 0]);
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-wgmma-where.cake:30:11: error: wgmma needs sm_90a; kernel 'blackwell' also targets sm_100a
// CHECK-NEXT: {{^}}    acc = wgmma(acc, x, x);
// CHECK-NEXT: {{^}}          ^
