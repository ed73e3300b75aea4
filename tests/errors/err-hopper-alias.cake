// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Buffers that share storage (alias) must not be used by different roles, nor by a role
// and the code outside every role: their lifetimes would overlap. The schedule-check pass
// reports each pair of buffers once, at the use in the later-declared one.

kernel k(a: in f32[N]) targets(sm_90a) threads(256) {
    shared s1: f32[64];
    shared s2: f32[64] alias(s1);
    shared s3: f32[32] alias(s1);
    role p(warpgroup 0) {
        s1[thread.x % 64] = 1.0;
        s3[0] = 2.0;
    }
    role q(warpgroup 1) {
        s1[0] = 1.0;
        s2[0] = 2.0;
    }
    s3[1] = s3[0];
}

kernel outside(a: in f32[N]) targets(sm_90a) threads(256) {
    shared s1: f32[64];
    shared s2: f32[64] alias(s1);
    role p(warpgroup 0) {
        s1[0] = 1.0;
    }
    s2[1] = 2.0;
}

// CHECK: err-hopper-alias.cake:12:15: error: shared buffer 's3' shares storage with 's1' (alias) but is used in the role of warps 0 .. 3 while 's1' is used in the role of warps 4 .. 7: aliased buffers must have disjoint lifetimes, so one role uses them
// CHECK-NEXT: {{^}}        s3[0] = 2.0;
// CHECK-NEXT: {{^}}              ^
// CHECK: err-hopper-alias.cake:15:15: note: 's1' is used here
// CHECK-NEXT: {{^}}        s1[0] = 1.0;
// CHECK-NEXT: {{^}}              ^
// CHECK: err-hopper-alias.cake:16:15: error: shared buffer 's2' shares storage with 's1' (alias) but is used in the role of warps 4 .. 7 while 's1' is used in the role of warps 0 .. 3: aliased buffers must have disjoint lifetimes, so one role uses them
// CHECK-NEXT: {{^}}        s2[0] = 2.0;
// CHECK-NEXT: {{^}}              ^
// CHECK: err-hopper-alias.cake:11:27: note: 's1' is used here
// CHECK-NEXT: {{^}}        s1[thread.x % 64] = 1.0;
// CHECK-NEXT: {{^}}                          ^
// CHECK: err-hopper-alias.cake:12:15: error: shared buffer 's3' shares storage with 's2' (alias) but is used in the role of warps 0 .. 3 while 's2' is used in the role of warps 4 .. 7: aliased buffers must have disjoint lifetimes, so one role uses them
// CHECK-NEXT: {{^}}        s3[0] = 2.0;
// CHECK-NEXT: {{^}}              ^
// CHECK: err-hopper-alias.cake:16:15: note: 's2' is used here
// CHECK-NEXT: {{^}}        s2[0] = 2.0;
// CHECK-NEXT: {{^}}              ^
// CHECK: err-hopper-alias.cake:27:11: error: shared buffer 's2' shares storage with 's1' (alias) but is used outside any role while 's1' is used in the role of warps 0 .. 3: aliased buffers must have disjoint lifetimes, so one role uses them
// CHECK-NEXT: {{^}}    s2[1] = 2.0;
// CHECK-NEXT: {{^}}          ^
// CHECK: err-hopper-alias.cake:25:15: note: 's1' is used here
// CHECK-NEXT: {{^}}        s1[0] = 1.0;
// CHECK-NEXT: {{^}}              ^
