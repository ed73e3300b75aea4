// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// cta_group(2) (CTA pairs for tcgen05) and leader roles: the declarations' rules.

// a pair is cluster ranks 2k and 2k + 1: the cluster's x size must be even
kernel odd(c: out f32[M, N]) targets(sm_100a) threads(128) cluster(1, 2) cta_group(2) {
    tmem acc: f32[128, 32];
}

// pairs exist for tcgen05 MMAs into tensor memory
kernel notmem(c: out f32[M, N]) targets(sm_100a) threads(128) cluster(2) cta_group(2) {
    c[0, 0] = 1.0;
}

kernel three(c: out f32[M, N]) targets(sm_100a) threads(128) cluster(2) cta_group(3) {
    tmem acc: f32[128, 32];
}

// a leader role needs a pair kernel; its second argument is the word leader
kernel noleader(c: out f32[M, N]) targets(sm_100a) threads(128) cluster(2) {
    role mma(warp 0, leader) {
        c[0, 0] = 1.0;
    }
}

kernel badword(c: out f32[M, N]) targets(sm_100a) threads(128) cluster(2) cta_group(2) {
    tmem acc: f32[128, 32];
    role mma(warp 0, leaders) {
        c[0, 0] = 1.0;
    }
}

// with cta_group(2), B holds this CTA's half of N: at most 128 rows, 2 x rows <= columns
kernel wideb(c: out f32[M, N]) targets(sm_100a) threads(128) cluster(2) cta_group(2) {
    shared sa: bf16[128, 64] swizzle(128);
    shared sb: bf16[96, 64] swizzle(128);
    tmem acc: f32[128, 128];
    role mma(warp 0, leader) {
        elect {
            tcgen05_mma(acc, sa, sb, accumulate: false);
        }
    }
}
// CHECK: err-cta-pair-decls.cake:5:8: error: kernel 'odd' has cta_group(2): a pair is the CTAs of cluster ranks 2k and 2k + 1, so the cluster's x size must be even (cluster(2), cluster(4), ...), found cluster(1, 2, 1)
// CHECK-NEXT: {{^}}kernel odd(c: out f32[M, N]) targets(sm_100a) threads(128) cluster(1, 2) cta_group(2) {
// CHECK-NEXT: {{^}}       ^
// CHECK: err-cta-pair-decls.cake:10:8: error: kernel 'notmem' has cta_group(2) but no tensor memory: CTA pairs share tcgen05 MMAs into tmem accumulators
// CHECK-NEXT: {{^}}kernel notmem(c: out f32[M, N]) targets(sm_100a) threads(128) cluster(2) cta_group(2) {
// CHECK-NEXT: {{^}}       ^
// CHECK: err-cta-pair-decls.cake:14:83: error: cta_group must be from 1 to 2, found 3
// CHECK-NEXT: {{^}}kernel three(c: out f32[M, N]) targets(sm_100a) threads(128) cluster(2) cta_group(3) {
// CHECK-NEXT: {{^}}                                                                                  ^
// CHECK: err-cta-pair-decls.cake:20:22: error: role 'mma' is for the leader CTA of each CTA pair, but the kernel has no cta_group(2) clause
// CHECK-NEXT: {{^}}    role mma(warp 0, leader) {
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-cta-pair-decls.cake:27:22: error: the second argument of role 'mma' is 'leader' (the role runs in the leader CTA of each CTA pair)
// CHECK-NEXT: {{^}}    role mma(warp 0, leaders) {
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-cta-pair-decls.cake:39:34: error: tcgen05_mma operand B 'sb' has 96 rows, this CTA's half of the pair's N (cta_group(2)); N is 16 to 256, a multiple of 16, at most the 128 columns of 'acc'
// CHECK-NEXT: {{^}}            tcgen05_mma(acc, sa, sb, accumulate: false);
// CHECK-NEXT: {{^}}                                 ^
