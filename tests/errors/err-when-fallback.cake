// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// For each combination of types an instance takes, the entry point tries the instances
// that take it in order: the last must have no `when`, or the entry point selects nothing
// when its condition is false; a `when` after an instance of the same types without one
// is never tried.

kernel scale<T: f32 | bf16 | f16, U: i32 = 1>(x: in T[N], y: out f32[N])
    threads(256) grid(cdiv(N, 256 * U))
{
    let i = block.x * 256 + thread.x;
    if (i < N) {
        y[i] = f32(x[i]);
    }
}
instance scale<f32, 2> when (N < 4096);
instance scale<f32, 4> when (N % 4 == 0 && N > 0);
instance scale<bf16, 2>;
instance scale<bf16, 4> when (N >= 1048576);
instance scale<f16, 2> when (N <= 64 * num_sms);
instance scale<f16>;

kernel only<BN: i32>(x: in f32[N]) threads(32) grid(cdiv(N, BN)) { }
instance only<64> when (N > 100);

// CHECK: err-when-fallback.cake:16:24: error: the entry point 'scale' selects nothing for T = f32 when 'N % 4 == 0 && N > 0' is false: declare an instance that takes these types without 'when' after 'scale_f32_4'
// CHECK-NEXT: instance scale<f32, 4> when (N % 4 == 0 && N > 0);
// CHECK-NEXT:                        ^
// CHECK: err-when-fallback.cake:18:25: error: the entry point 'scale' never selects the instance 'scale_bf16_4': 'scale_bf16_2' before it takes the same types (T = bf16) and has no 'when'
// CHECK: err-when-fallback.cake:17:10: note: 'scale_bf16_2' is here
// CHECK: err-when-fallback.cake:23:19: error: the entry point 'only' selects nothing when 'N > 100' is false: declare an instance without 'when' after 'only_64'
