// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Shared arrays are sized at compile time.
// CHECK: err-shared-nonconst-dim.cake:[[@LINE+5]]:21: error: shared array dimensions must be compile-time integer constants
// CHECK-NEXT: {{^}}    shared buf: f32[n];
// CHECK-NEXT: {{^}}                    ^

kernel k(y: out f32[N], n: i32) threads(32) {
    shared buf: f32[n];
    buf[0] = 1.0;
    y[0] = buf[0];
}
