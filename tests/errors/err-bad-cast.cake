// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A vector does not convert to a scalar; take a lane instead.
// CHECK: err-bad-cast.cake:[[@LINE+6]]:19: error: cannot convert f32x4 to f32
// CHECK-NEXT: {{^}}    y[thread.x] = f32(v);
// CHECK-NEXT: {{^}}                  ^

kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    let v = x[thread.x * 4 : 4];
    y[thread.x] = f32(v);
}
