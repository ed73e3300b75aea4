// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A lane index must exist in the vector.
// CHECK: err-lane-range.cake:[[@LINE+6]]:21: error: lane index 4 is out of range for f32x4 (0 to 3)
// CHECK-NEXT: {{^}}    y[thread.x] = v[4];
// CHECK-NEXT: {{^}}                    ^

kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    let v = x[thread.x * 4 : 4];
    y[thread.x] = v[4];
}
