// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Grid formulas are integer host expressions: a float scalar cannot size the grid.
// CHECK: err-grid-float.cake:[[@LINE+4]]:63: error: a grid size must be an integer, but the parameter 's' has type f32
// CHECK-NEXT: {{^}}kernel k(x: in f32[N], s: f32) threads(32) grid(cdiv(N, 32) * s) {
// CHECK-NEXT: {{^}}                                                              ^

kernel k(x: in f32[N], s: f32) threads(32) grid(cdiv(N, 32) * s) {
    let v = x[0] * s;
}
