// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A generic function's type parameters come from its arguments' types (a value's type, a
// tensor's element type) or their defaults; one that no typed argument gives, one outside
// its list, or two arguments that disagree are errors at the call.

fn sq<T: f32 | f64>(x: T) -> T {
    return x * x;
}

fn dot2<T: f32 | bf16>(a: in T[N], b: in T[N], i: i32) -> f32 {
    return f32(a[i]) * f32(b[i]);
}

kernel k(x: in f32[N], h: in bf16[N], y: out f32[N]) threads(32) {
    y[0] = f32(sq(i32(3)));
    y[1] = sq(1.5);
    y[2] = dot2(x, h, 0);
    y[3] = sq(x[0]) + dot2(h, h, 1);
}
// CHECK: err-generic-fn.cake:15:16: error: 'sq': T = i32 is not one of the types 'T' takes
// CHECK: err-generic-fn.cake:16:12: error: 'sq': the type parameter 'T' cannot be inferred: no typed argument has it as its type
// CHECK: err-generic-fn.cake:17:20: error: 'dot2': T is f32 from an earlier argument but bf16 from argument 2
