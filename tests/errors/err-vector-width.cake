// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A vector access is 2 or 4 elements wide.
// CHECK: err-vector-width.cake:[[@LINE+5]]:30: error: vector width must be 2 or 4, found 3
// CHECK-NEXT: {{^}}    let v = x[thread.x * 3 : 3];
// CHECK-NEXT: {{^}}                             ^

kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    let v = x[thread.x * 3 : 3];
    y[thread.x] = v.x;
}
