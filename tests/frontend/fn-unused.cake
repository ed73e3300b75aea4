// A function that nothing calls gets a warning; not one that a generic kernel without
// instances of its own calls, directly or through another function: such a kernel (an
// entry point that other kernels' instances join) is a declaration whose body is checked
// only in instances (gdp_decode_multi.cake, compiled with its (1, 1) instances only).
// RUN: %cakec --emit=ir -o - %s 2>&1 >/dev/null | FileCheck %s --implicit-check-not=warning
// CHECK: fn-unused.cake:14:4: warning: function 'lonely' is never called

fn inner(x: f32) -> f32 {
    return x * 2.0;
}
fn outer(x: f32) -> f32 {
    return inner(x) + 1.0;
}
fn lonely(x: f32) -> f32 {
    return x;
}

kernel g<W: i32>(y: out f32[N]) threads(32) {
    y[thread.x] = outer(f32(W));
}

kernel h<W: i32>(y: out f32[N]) threads(32) {
    y[thread.x] = f32(W);
}

instance h<1> as h1 entry g;
