// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Functions are inlined at their calls: recursion, direct or through another function, is
// an error at the call that closes the cycle (with the chain of calls). Arguments match
// the parameters: count, value types, a tensor of the same element type and rank with the
// access the parameter asks for. The body sees the file's names and its parameters, not
// the caller's. A function with a value returns one on every path.

fn fact(n: i32) -> i32 {
    if (n <= 1) {
        return 1;
    }
    return n * fact(n - 1);
}

fn ping(n: i32) -> i32 {
    return pong(n);
}

fn pong(n: i32) -> i32 {
    return ping(n);
}

fn scale(x: in f32[N], y: out f32[N], i: i32, s: f32) {
    y[i] = x[i] * s;
}

fn peek(i: i32) -> f32 {
    return x[i];
}

fn sign(v: f32) -> f32 {
    if (v < 0.0) {
        return -1.0;
    }
}

fn nothing(v: f32) {
    return v;
}

kernel k(x: in f32[N], y: out f32[N], h: in f16[N]) threads(32) {
    let i = thread.x;
    let a = fact(i);
    let b = ping(i);
    scale(x, y, i);
    scale(x, y, i, i);
    scale(h, y, i, 2.0);
    scale(y, x, i, 2.0);
    y[i] = peek(i);
    y[i] = sign(x[i]);
    nothing(x[i]);
}
// CHECK: err-func.cake:12:16: error: recursive call of 'fact': functions are inlined at their calls, so a function cannot call itself, directly or through others
// CHECK-NEXT: {{^}}    return n * fact(n - 1);
// CHECK-NEXT: {{^}}               ^
// CHECK-NEXT: err-func.cake:43:13: note: in the call of 'fact' here
// CHECK: err-func.cake:20:12: error: recursive call of 'ping'
// CHECK: err-func.cake:16:12: note: in the call of 'pong' here
// CHECK: err-func.cake:44:13: note: in the call of 'ping' here
// CHECK: err-func.cake:45:5: error: 'scale' takes 4 arguments, found 3
// CHECK: err-func.cake:46:20: error: type mismatch in argument 4 of 'scale' (parameter 's'): expected f32, found i32
// CHECK: err-func.cake:23:10: error: parameter 'x' of 'scale' takes a rank-1 f32 tensor, but the argument 'h' is a rank-1 f16 tensor
// CHECK-NEXT: {{^}}fn scale(x: in f32[N], y: out f32[N], i: i32, s: f32) {
// CHECK-NEXT: {{^}}         ^
// CHECK-NEXT: err-func.cake:47:5: note: in the call of 'scale' here
// CHECK: err-func.cake:23:10: error: parameter 'x' of 'scale' is 'in', but the tensor 'y' passed to it is 'out'
// CHECK: err-func.cake:23:24: error: parameter 'y' of 'scale' is 'out', but the tensor 'x' passed to it is 'in'
// CHECK: err-func.cake:28:12: error: undefined name 'x'
// CHECK: err-func.cake:49:12: note: in the call of 'peek' here
// CHECK: err-func.cake:31:4: error: function 'sign' may reach its end without returning a value
// CHECK: err-func.cake:38:12: error: function 'nothing' returns no value (it has no '-> type')
