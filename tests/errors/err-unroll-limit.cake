// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A full unroll has a limit (4096 iterations): past it the compile would take minutes
// (issue 20's hang: softmax with 232449 iterations). Up to it, and partial unrolls, are fine.

kernel k(x: in f32[N], y: out f32[1]) threads(32) {
    var s: f32 = 0.0;
    for (i in 0 .. 232449) unroll {
        s += x[i % N];
    }
    for (i in 0 .. 4096) unroll {
        s += x[i % N];
    }
    for (i in 0 .. 232449) unroll(4) {
        s += x[i % N];
    }
    y[0] = s;
}
// CHECK: err-unroll-limit.cake:7:5: error: 'unroll' asks for a full unroll of 232449 iterations, past the limit of 4096 (unroll by a count, unroll(N), or not at all)
