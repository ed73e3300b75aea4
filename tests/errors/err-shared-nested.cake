// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Shared arrays belong to the whole kernel: declare them at its top level.
// CHECK: err-shared-nested.cake:[[@LINE+6]]:9: error: shared arrays are declared at the top level of the kernel body
// CHECK-NEXT: {{^}}        shared tmp: f32[32];
// CHECK-NEXT: {{^}}        ^

kernel k(y: out f32[N]) threads(32) {
    if (thread.x == 0) {
        shared tmp: f32[32];
        tmp[0] = 1.0;
    }
    y[0] = 0.0;
}
