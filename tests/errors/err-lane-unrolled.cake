// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A vector lane index known only once loops are unrolled must be in range in every copy:
// found when the compiler unrolls the loop (after the other checks: irgen reports it, once).

kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    let v = x[thread.x * 4 : 4];
    var acc: f32 = 0.0;
    for (r in 0 .. 4) unroll {
        acc += v[r + 1];
    }
    y[thread.x] = acc;
}
// CHECK: err-lane-unrolled.cake:9:20: error: lane index 4 is out of range for f32x4 (0 to 3)
