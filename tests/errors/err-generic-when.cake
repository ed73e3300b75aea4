// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// An instance's `when (...)` is a condition over the kernel's shape symbols, integer
// scalar parameters, constants and num_sms: each other name, a float, a non-condition, a
// condition that is always false and a second `when` are errors at the instance.

kernel gemv<T: f32 | bf16, BM: i32 = 128>(a: in T[M, K], y: out f32[M], s: f32, n: i32)
    threads(128) grid(cdiv(M, BM))
{
    let r = block.x * 128 + thread.x;
    if (r < M) {
        y[r] = f32(a[r, 0]) * s;
    }
}
instance gemv<f32, 1> when (zz > 1);
instance gemv<f32, 2> when (s > 1);
instance gemv<f32, 3> when (a < 2);
instance gemv<f32, 4> when (M + 1);
instance gemv<f32, 5> when ((M < 1) + 1);
instance gemv<f32, 6> when (M < 2 && 1 > 2);
instance gemv<f32, 7> when (M < 1) when (K > 2);
instance gemv<f32, 8> when (M < 1.5);
instance gemv<f32, 9> when (M & 1 == 0);
instance gemv<f32, 10> when (M > 0 && n);
instance gemv<f32>;
instance gemv<bf16>;
// CHECK: err-generic-when.cake:14:29: error: undefined name 'zz'
// CHECK-NEXT: instance gemv<f32, 1> when (zz > 1);
// CHECK-NEXT:                             ^
// CHECK: err-generic-when.cake:15:29: error: a value in when (...) must be an integer, but the parameter 's' has type f32
// CHECK: err-generic-when.cake:16:29: error: when (...) cannot use the tensor parameter 'a'; it takes shape symbols, integer scalar parameters, constants and num_sms
// CHECK: err-generic-when.cake:17:23: error: when (...) takes a condition (a comparison, &&, || or !), found an integer expression
// CHECK: err-generic-when.cake:18:37: error: '+' takes integers, found a condition
// CHECK: err-generic-when.cake:19:23: error: the entry point 'gemv' never selects the instance 'gemv_f32_6': its condition is always false
// CHECK: err-generic-when.cake:20:36: error: duplicate 'when(...)' clause
// CHECK: err-generic-when.cake:20:23: note: the first one is here
// CHECK: err-generic-when.cake:21:33: error: a value in when (...) must be an integer, found a float literal
// CHECK: err-generic-when.cake:22:31: error: when (...) supports + - * / %, cdiv, min, max, comparisons, && || and !, found '&'
// CHECK: err-generic-when.cake:23:36: error: '&&' takes conditions, found an integer
