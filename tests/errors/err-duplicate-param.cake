// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Parameter names are unique.
// CHECK: err-duplicate-param.cake:[[@LINE+7]]:36: error: duplicate parameter 'x'
// CHECK-NEXT: {{^}}kernel k(x: in f32[N], scale: f32, x: out f32[N], y: out f32[N]) threads(32) {
// CHECK-NEXT: {{^}}                                   ^
// CHECK: err-duplicate-param.cake:[[@LINE+4]]:10: note: 'x' was first declared here as a tensor parameter
// CHECK-NEXT: {{^}}kernel k(x: in f32[N], scale: f32, x: out f32[N], y: out f32[N]) threads(32) {
// CHECK-NEXT: {{^}}         ^

kernel k(x: in f32[N], scale: f32, x: out f32[N], y: out f32[N]) threads(32) {
    y[0] = scale;
}
