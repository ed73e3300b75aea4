// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Generic kernels: an instance's arguments come from the parameters' lists; an instance
// that does not type-check is reported at the line in the kernel with the instance named;
// the entry point must find an instance for every combination of the type parameters.

kernel cast<T: f32 | bf16 | e4m3, O: f32 | bf16>(x: in T[N], y: out O[N]) threads(128) {
    let i = thread.x;
    if (i < N) {
        y[i] = O(x[i] * T(2.0));
    }
}
instance cast<f32, f32>;
instance cast<bf16, f32>;
instance cast<e4m3, bf16>;
instance cast<f16, f32>;
instance cast<f32, bf16, 4>;
instance copy<f32>;

kernel plain(x: in f32[N]) threads(32) { }
instance plain<f32>;

kernel lonely<T: f32 | f16>(x: in T[N], s: T) threads(32) { }
// CHECK: err-generic.cake:22:44: error: a scalar parameter of a generic kernel cannot have the generic type 'T' (the entry point's arguments are shared by every instance)
// CHECK: err-generic.cake:15:15: error: generic parameter 'T' of 'cast' takes one of f32, bf16, e4m3, not 'f16'
// CHECK: err-generic.cake:16:10: error: 'cast' takes 2 generic arguments, found 3
// CHECK: err-generic.cake:17:10: error: there is no kernel named 'copy'
// CHECK: err-generic.cake:20:10: error: kernel 'plain' is not generic (it has no <...> parameters)
// CHECK: err-generic.cake:9:23: error: operator '*' does not apply to e4m3 (convert e4m3 to f16, bf16 or f32 first)
// CHECK-NEXT: {{^}}        y[i] = O(x[i] * T(2.0));
// CHECK-NEXT: {{^}}                      ^
// CHECK-NEXT: err-generic.cake:14:10: note: in the instance 'cast<e4m3, bf16>' here
