// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Only a let of a compile-time value is a constant (tests/frontend/let-const.cake): one of
// a run-time value, or a var, sizes nothing and bounds no loop that indexes a register
// array. Arithmetic on constant lets is checked as constants' is: an overflow is an error.

kernel k(x: in f32[N], y: out f32[N], n: i32) threads(32) {
    let t = thread.x;
    var m = 4;
    let v4 = f32x4(1.0);
    var a: f32[t] = 0.0;
    var b: f32[m] = 0.0;
    shared s: f32[n];
    var c: f32[4] = 0.0;
    for (j in 0 .. n / n) unroll {
        c[j] = v4.x;
    }
    let big = 2147483647;
    let over = big + 1;
    y[t] = c[0] + f32(m) + b[0] + a[0] + s[0] + f32(over);
}
// CHECK: err-let-const.cake:10:16: error: a register array's dimension must be a compile-time integer constant
// CHECK: err-let-const.cake:11:16: error: a register array's dimension must be a compile-time integer constant
// CHECK: err-let-const.cake:12:19: error: shared array dimensions must be compile-time integer constants
// CHECK: err-let-const.cake:15:11: error: the index of register array 'c' must be known at compile time
// CHECK: err-let-const.cake:18:20: error: constant expression overflows i32
