// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A bare word after a shared array's type is an error (only a tmem takes one, 'packed').

kernel k(c: out f32[M, N]) targets(sm_100a) threads(256) {
    pipeline ld(stages: 2, full: tma, empty: mma);
    shared sa: bf16[128, 64] packed in ld swizzle(128);
}

// CHECK: err-shared-bare-word.cake:6:30: error: shared array 'sa' takes no bare word 'packed' (its attributes are 'in PIPELINE', 'align(N)', 'swizzle(N)' and 'alias(NAME)'; 'packed' marks a tmem that holds an MMA operand A)
// CHECK-NEXT: {{^}}    shared sa: bf16[128, 64] packed in ld swizzle(128);
// CHECK-NEXT: {{^}}                             ^
