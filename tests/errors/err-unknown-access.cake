// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// The access of a tensor is in, out or inout.
// CHECK: err-unknown-access.cake:[[@LINE+4]]:13: error: expected 'in', 'out' or 'inout' before the tensor type, found 'input'
// CHECK-NEXT: {{^}}kernel k(x: input f32[N], y: out f32[N]) threads(32) {
// CHECK-NEXT: {{^}}            ^

kernel k(x: input f32[N], y: out f32[N]) threads(32) {
    y[0] = 1.0;
}
