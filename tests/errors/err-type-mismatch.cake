// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// No implicit conversions: an f32 and an i32 do not add.
// CHECK: err-type-mismatch.cake:[[@LINE+6]]:17: error: operands of '+' have different types: f32 and i32
// CHECK-NEXT: {{^}}    y[i] = x[i] + i;
// CHECK-NEXT: {{^}}                ^

kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    let i = thread.x;
    y[i] = x[i] + i;
}
