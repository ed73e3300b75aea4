// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A function that uses a warp collective (here a shuffle reduction) is fine where every
// lane of the warp calls it, and an error where only some do: the schedule checks see
// through the call, and the diagnostic names the line in the function, the call, and the
// condition that parted the lanes.

// Uses shfl_xor: call it with every lane of the warp.
fn warp_sum(v: f32) -> f32 {
    var acc = v;
    for (o in 0 .. 5) unroll {
        acc += shfl_xor(acc, 16 >> o);
    }
    return acc;
}

kernel ok(x: in f32[N], y: out f32[N]) threads(64) {
    let s = warp_sum(x[thread.x]);
    if (lane == 0) {
        y[warp] = s;
    }
}

kernel bad(x: in f32[N], y: out f32[N]) threads(64) {
    var s: f32 = 0.0;
    if (lane < 16) {
        s = warp_sum(x[thread.x]);
    }
    y[thread.x] = s;
}
// CHECK: err-func-collective.cake:11:16: error: shfl.xor is reached by 16 of the 32 lanes of warp 0; a warp collective needs every lane of the warp
// CHECK-NEXT: {{^}}        acc += shfl_xor(acc, 16 >> o);
// CHECK-NEXT: {{^}}               ^
// CHECK-NEXT: err-func-collective.cake:26:13: note: in the call of 'warp_sum' here
// CHECK-NEXT: {{^}}        s = warp_sum(x[thread.x]);
// CHECK-NEXT: {{^}}            ^
// CHECK-NEXT: err-func-collective.cake:25:5: note: the threads take different paths here (a condition, or what follows an early exit)
