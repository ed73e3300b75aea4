// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Syntax errors in the Hopper constructs, each in its own kernel so that the parser
// resumes at the next one.

kernel s1(a: in bf16[M, K]) threads(128) {
    pipeline ld(stages: 2, full: tma, empty: warpgroup;
}

kernel s2(a: in bf16[M, K]) threads(128) {
    tensormap ta = tma(a, box[64, 64] swizzle(128));
}

kernel s3() threads(128) {
    role p(warpgroup 0) regz(40) { }
    rol q(warp 1) { }
    elec { }
    produce { }
    shared x: f32[4] tiled(2);
    mbarrier b(count 1) { }
}

kernel s4() threads(128) {
    role q(warps 0 .. ) { }
}

kernel s5() threads(128) {
    shared y: f32[4] in;
}

kernel s6() threads(128) {
    tma_load(x, ta, [0, 0], multicast 1);
}

kernel s7() threads(128) {
    tensormp ta = tma(a, box[64, 64]);
    pipeline ld;
    role p { }
}

// CHECK: err-hopper-syntax.cake:6:55: error: syntax error, unexpected ';'
// CHECK-NEXT: {{^}}    pipeline ld(stages: 2, full: tma, empty: warpgroup;
// CHECK-NEXT: {{^}}                                                      ^
// CHECK: err-hopper-syntax.cake:10:39: error: syntax error, unexpected identifier 'swizzle'
// CHECK-NEXT: {{^}}    tensormap ta = tma(a, box[64, 64] swizzle(128));
// CHECK-NEXT: {{^}}                                      ^
// CHECK: err-hopper-syntax.cake:14:25: error: expected 'regs' or a block after the role's warps, found 'regz'
// CHECK-NEXT: {{^}}    role p(warpgroup 0) regz(40) { }
// CHECK-NEXT: {{^}}                        ^
// CHECK: err-hopper-syntax.cake:15:5: error: unknown statement 'rol' (expected 'role NAME(warps a .. b) { ... }')
// CHECK-NEXT: {{^}}    rol q(warp 1) { }
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-syntax.cake:16:5: error: unknown statement 'elec { ... }' (expected 'elect { ... }')
// CHECK-NEXT: {{^}}    elec { }
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-syntax.cake:17:5: error: 'produce' needs a pipeline: produce PIPELINE { ... }
// CHECK-NEXT: {{^}}    produce { }
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-syntax.cake:18:22: error: expected 'in', 'align', 'swizzle' or 'alias' after the shared array's type, found 'tiled'
// CHECK-NEXT: {{^}}    shared x: f32[4] tiled(2);
// CHECK-NEXT: {{^}}                     ^
// CHECK: err-hopper-syntax.cake:19:5: error: mbarrier 'b' is a declaration without a block: mbarrier b(...);
// CHECK-NEXT: {{^}}    mbarrier b(count 1) { }
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-syntax.cake:23:23: error: syntax error, unexpected ')', expecting an expression
// CHECK-NEXT: {{^}}    role q(warps 0 .. ) { }
// CHECK-NEXT: {{^}}                      ^
// CHECK: err-hopper-syntax.cake:27:24: error: syntax error, unexpected ';', expecting identifier
// CHECK-NEXT: {{^}}    shared y: f32[4] in;
// CHECK-NEXT: {{^}}                       ^
// CHECK: err-hopper-syntax.cake:31:39: error: syntax error, unexpected integer literal '1'
// CHECK-NEXT: {{^}}    tma_load(x, ta, [0, 0], multicast 1);
// CHECK-NEXT: {{^}}                                      ^
// CHECK: err-hopper-syntax.cake:35:5: error: unknown declaration 'tensormp ta = ...' (expected 'tensormap NAME = tma(...)', or 'let' or 'var' for a local)
// CHECK-NEXT: {{^}}    tensormp ta = tma(a, box[64, 64]);
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-syntax.cake:36:16: error: syntax error, unexpected ';', expecting ':' or '=' or '(' or '{'
// CHECK-NEXT: {{^}}    pipeline ld;
// CHECK-NEXT: {{^}}               ^
// CHECK: err-hopper-syntax.cake:37:5: error: role 'p' needs its warps: role p(warps a .. b) { ... }
// CHECK-NEXT: {{^}}    role p { }
// CHECK-NEXT: {{^}}    ^
