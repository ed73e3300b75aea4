// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A 2-wide vector has the lanes .x and .y only.
// CHECK: err-lane-name.cake:[[@LINE+6]]:21: error: bf16x2 has no lane '.z' (it has .x, .y)
// CHECK-NEXT: {{^}}    y[thread.x] = v.z;
// CHECK-NEXT: {{^}}                    ^

kernel k(x: in bf16[N], y: out bf16[N]) threads(32) {
    let v = x[thread.x * 2 : 2];
    y[thread.x] = v.z;
}
