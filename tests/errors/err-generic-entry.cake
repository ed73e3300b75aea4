// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// The entry point of a generic kernel launches the first instance whose tensor types match
// (other combinations are refused at run time, naming the instances): a type a parameter
// lists that no instance takes could never be selected, which is reported at compile time.
// A generic kernel without instances is an error too.

kernel gemv<T: f32 | bf16 | f16, O: f32 | bf16 | f16>(a: in T[M, K], x: in T[K], y: out O[M])
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
instance gemv<f32, bf16>;

kernel unused<T: f32 | f16>(x: in T[N]) threads(32) { }
// CHECK: err-generic-entry.cake:7:29: error: the entry point 'gemv' selects nothing when T = f16: no instance takes it (declare one, or take f16 out of T's types)
// CHECK: err-generic-entry.cake:7:50: error: the entry point 'gemv' selects nothing when O = f16: no instance takes it (declare one, or take f16 out of O's types)
// CHECK: err-generic-entry.cake:25:8: error: generic kernel 'unused' has no instance (declare one: 'instance unused<...>;')
