// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// `instance K<...> entry E` puts an instance of generic kernel K into the entry point of
// generic kernel E, whose one argument struct serves every instance: K must take the same
// parameters as E's first instance (names, access, dimensions, scalar types, index width),
// all but the tensors' element types. The choice stays in declaration order, so an
// instance after one of the same tensor types without `when` is never tried.

kernel wide<T: f32 | bf16>(x: in T[N], y: out f32[N], s: f32) threads(256) grid(cdiv(N, 256)) {
    let i = block.x * 256 + thread.x;
    if (i < N) {
        y[i] = f32(x[i]) * s;
    }
}
kernel other_dims<T: f32>(x: in T[M], y: out f32[M], s: f32) threads(32) { }
kernel other_scalar<T: f32>(x: in T[N], y: out f32[N], s: f64) threads(32) { }
kernel fewer<T: f32>(x: in T[N], y: out f32[N]) threads(32) { }
kernel wide64<T: f32>(x: in T[N], y: out f32[N], s: f32) threads(32) index(i64) { }
kernel late<T: f32>(x: in T[N], y: out f32[N], s: f32) threads(32) { }

instance wide<f32> as wide_big when (N >= 64);
instance other_dims<f32> entry wide when (M < 64);
instance other_scalar<f32> entry wide when (N < 64);
instance fewer<f32> entry wide when (N < 64);
instance wide64<f32> entry wide when (N < 64);
instance wide<f32> as wide_f32;
instance wide<bf16> as wide_bf16;
instance late<f32> entry wide when (N < 64);

// CHECK: err-entry-join.cake:21:10: error: the instance 'other_dims_f32' cannot join the entry point 'wide': its parameter 'x: in f32[M]' is 'x: in f32[N]' there
// CHECK-NEXT: instance other_dims<f32> entry wide when (M < 64);
// CHECK-NEXT:          ^
// CHECK-NEXT: err-entry-join.cake:20:10: note: the entry point's first instance, 'wide_big', is here
// CHECK: err-entry-join.cake:22:10: error: the instance 'other_scalar_f32' cannot join the entry point 'wide': its parameter 's: f64' is 's: f32' there
// CHECK: err-entry-join.cake:23:10: error: the instance 'fewer_f32' cannot join the entry point 'wide': it has 2 parameters, the entry point's instances 3
// CHECK: err-entry-join.cake:24:10: error: the instance 'wide64_f32' cannot join the entry point 'wide': it indexes in i64, the entry point's instances in i32
// CHECK: err-entry-join.cake:27:31: error: the entry point 'wide' never selects the instance 'late_f32': 'wide_f32' before it takes the same types (T = f32) and has no 'when'
// CHECK-NEXT: instance late<f32> entry wide when (N < 64);
// CHECK-NEXT:                               ^
// CHECK-NEXT: err-entry-join.cake:25:10: note: 'wide_f32' is here
