// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// The math library's argument types: exp .. tanh_approx and pow take f32 (scalars or
// f32x2, f32x4), the rounding functions and copysign f32 or f64, isnan and isinf an f32 or
// f64 scalar. An untyped constant is taken as f32 (exp(1) is exp(1.0)), as for sqrt.

kernel k(x: in f32[N], d: in f64[N], i: in i32[N], y: out f32[N]) threads(32) {
    let a = exp(1);
    let b = exp(i[thread.x]);
// CHECK: err-math-types.cake:[[@LINE-1]]:18: error: the argument of 'exp' must be f32, f32x2 or f32x4, found i32
// CHECK-NEXT: {{^}}    let b = exp(i[thread.x]);
// CHECK-NEXT: {{^}}                 ^
    let c = sin(d[thread.x]);
// CHECK: err-math-types.cake:[[@LINE-1]]:18: error: the argument of 'sin' must be f32, f32x2 or f32x4, found f64
    let e = isnan(i[thread.x]);
// CHECK: err-math-types.cake:[[@LINE-1]]:20: error: the argument of 'isnan' must be f32 or f64, found i32
// CHECK-NEXT: {{^}}    let e = isnan(i[thread.x]);
// CHECK-NEXT: {{^}}                   ^
    let f = isinf(f32x2(1.0));
// CHECK: err-math-types.cake:[[@LINE-1]]:19: error: the argument of 'isinf' must be f32 or f64, found f32x2
    let g = pow(x[thread.x], d[thread.x]);
// CHECK: err-math-types.cake:[[@LINE-1]]:13: error: operands of 'pow' have different types: f32 and f64
    let h = pow(d[thread.x], 2.0);
// CHECK: err-math-types.cake:[[@LINE-1]]:13: error: the arguments of 'pow' must be f32, f32x2 or f32x4, found f64
// CHECK-NEXT: {{^}}    let h = pow(d[thread.x], 2.0);
// CHECK-NEXT: {{^}}            ^
    let j = floor(i[thread.x]);
// CHECK: err-math-types.cake:[[@LINE-1]]:20: error: the argument of 'floor' must be f32 or f64 (scalars or vectors), found i32
    let k = copysign(i32x2(1), i32x2(2));
// CHECK: err-math-types.cake:[[@LINE-1]]:13: error: the arguments of 'copysign' must be f32 or f64 (scalars or vectors), found i32x2
    let l = round(x[thread.x], 1.0);
// CHECK: err-math-types.cake:[[@LINE-1]]:13: error: 'round' takes 1 argument, found 2
    let m = tanh_approx(bf16x4(1.0));
// CHECK: err-math-types.cake:[[@LINE-1]]:25: error: the argument of 'tanh_approx' must be f32, f32x2 or f32x4, found bf16x4
// CHECK-NOT: error
    y[thread.x] = a;
}
