// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Buffers that share storage (alias) must not be used by different roles, nor by a role
// and the code outside every role: their lifetimes would overlap.

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

// CHECK: err-hopper-alias.cake:14:9: error: shared array 's1' shares its storage with 's3' (alias), but 's1' is used by role 'q' and 's3' by role 'p': aliased buffers must not be used by different roles
// CHECK-NEXT: {{^}}        s1[0] = 1.0;
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-alias.cake:11:9: note: 's3' is used here
// CHECK-NEXT: {{^}}        s3[0] = 2.0;
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-alias.cake:15:9: error: shared array 's2' shares its storage with 's1' (alias), but 's2' is used by role 'q' and 's1' by role 'p': aliased buffers must not be used by different roles
// CHECK-NEXT: {{^}}        s2[0] = 2.0;
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-alias.cake:10:9: note: 's1' is used here
// CHECK-NEXT: {{^}}        s1[thread.x % 64] = 1.0;
// CHECK-NEXT: {{^}}        ^
// CHECK: err-hopper-alias.cake:17:5: error: shared array 's3' shares its storage with 's1' (alias), but 's3' is used by code outside every role and 's1' by role 'p': aliased buffers must not be used by different roles
// CHECK-NEXT: {{^}}    s3[1] = s3[0];
// CHECK-NEXT: {{^}}    ^
// CHECK: err-hopper-alias.cake:10:9: note: 's1' is used here
// CHECK-NEXT: {{^}}        s1[thread.x % 64] = 1.0;
// CHECK-NEXT: {{^}}        ^
