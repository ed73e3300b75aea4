// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A vector lane index must be known at compile time once loops are unrolled: not a value
// of the thread, nor the index of a loop that is not unrolled.
// CHECK: err-lane-runtime.cake:12:30: error: a vector lane index must be known at compile time once loops are unrolled (constants, indices of 'unroll' loops with constant bounds, 'let's and arithmetic of those)
// CHECK-NEXT: {{^}}    y[thread.x] = v[thread.x % 4];
// CHECK-NEXT: {{^}}                             ^
// CHECK: err-lane-runtime.cake:14:18: error: a vector lane index must be known

kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    let v = x[thread.x * 4 : 4];
    var acc: f32 = 0.0;
    y[thread.x] = v[thread.x % 4];
    for (r in 0 .. 4) {
        acc += v[r];
    }
    y[0] = acc;
}
