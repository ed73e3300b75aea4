// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A register array lives in registers only if each index is known once loops are
// unrolled: constants, indices of `unroll` loops with constant bounds, lets and arithmetic
// of those. Anything else (a run-time value, the index of a loop that is not fully
// unrolled or has run-time bounds) is an error, never silent local memory.

kernel k(x: in f32[N], y: out f32[N], n: i32) threads(32) {
    var v: f32[8] = 0.0;
    let w: f32[4] = 1.0;
    var big: f32[64, 64] = 0.0;
    var short: f32[4] = [1.0, 2.0];
    v[thread.x] = 1.0;
    for (j in 0 .. 8) unroll(2) {
        v[j] = x[j];
    }
    for (j in 0 .. n) unroll {
        v[j] = x[j];
    }
    for (j in 0 .. 8) unroll {
        let k = j * 2;
        y[j] = v[k];
    }
    y[0] = v[8];
    for (j in 0 .. 100000) unroll {
        v[j % 8] += 1.0;
    }
}
// CHECK: err-regarray.cake:9:5: error: a register array is declared with 'var'
// CHECK: err-regarray.cake:10:14: error: a register array holds at most 1024 elements (registers are per thread)
// CHECK: err-regarray.cake:11:25: error: register array 'short' has 4 elements, but its initializer lists 2
// CHECK: err-regarray.cake:12:14: error: the index of register array 'v' must be known at compile time once loops are unrolled (constants, indices of 'unroll' loops with constant bounds, 'let's and arithmetic of those); a run-time index would put the array in local memory
// CHECK-NEXT: {{^}}    v[thread.x] = 1.0;
// CHECK-NEXT: {{^}}             ^
// CHECK: err-regarray.cake:14:11: error: the index of register array 'v' must be known
// CHECK: err-regarray.cake:17:11: error: the index of register array 'v' must be known
// CHECK: err-regarray.cake:23:14: error: index 8 is out of bounds of register array 'v' (dimension 1 has 8 elements)
// CHECK: err-regarray.cake:24:5: error: 'unroll' asks for a full unroll of 100000 iterations, past the limit of 4096 (unroll by a count, unroll(N), or not at all)
