// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A tensor parameter needs an access: in, out or inout.
// CHECK: err-tensor-access.cake:[[@LINE+4]]:10: error: tensor parameter 'x' needs an access: in, out or inout, as in 'x: in f32[...]'
// CHECK-NEXT: {{^}}kernel k(x: f32[N], y: out f32[N]) threads(32) {
// CHECK-NEXT: {{^}}         ^

kernel k(x: f32[N], y: out f32[N]) threads(32) {
    y[0] = 1.0;
}
