// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Indices are i32.
// CHECK: err-index-type.cake:[[@LINE+5]]:21: error: index 1 of 'x' must be i32, found f32
// CHECK-NEXT: {{^}}    y[thread.x] = x[s];
// CHECK-NEXT: {{^}}                    ^

kernel k(x: in f32[N], y: out f32[N], s: f32) threads(32) {
    y[thread.x] = x[s];
}
