// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// The entry point of a generic kernel launches the first instance whose tensor types match:
// a combination of the type parameters with no instance could select nothing at run time,
// which is reported at compile time, with the instance to add. A generic kernel without
// instances is an error too.

kernel gemv<T: f32 | bf16 | f16, O: f32 | bf16>(a: in T[M, K], x: in T[K], y: out O[M])
    threads(128) grid(cdiv(M, 128))
{
    let r = block.x * 128 + thread.x;
    if (r >= M) {
        return;
    }
    var s: f32 = 0.0;
    for (k in 0 .. K) {
        s += f32(a[r, k]) * f32(x[k]);
    }
    y[r] = O(s);
}
instance gemv<f32, f32>;
instance gemv<bf16, f32>;
instance gemv<bf16, bf16>;
instance gemv<f16, f32>;
instance gemv<f32, bf16>;

kernel unused<T: f32 | f16>(x: in T[N]) threads(32) { }
// CHECK: err-generic-entry.cake:7:8: error: the entry point 'gemv' selects no instance when T = f16, O = bf16: declare one ('instance gemv<f16, bf16>;') or take the type out of the parameter's list
// CHECK: err-generic-entry.cake:26:8: error: generic kernel 'unused' has no instance (declare one: 'instance unused<...>;')
