// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// index(...) takes i32 or i64, once. Without index(i64) a tensor index is i32 (an i64 one
// names the clause); shape symbols are i32 values. With index(i64) an index is i32 or
// i64 (nothing else), shape symbols are i64 values (no implicit conversion to i32), and
// shared arrays still index in i32.

kernel k1(x: inout f32[N]) threads(32) {
    let i: i64 = 5;
    x[i] = 1.0;
}
// CHECK: err-index-width.cake:9:7: error: index 1 of 'x' is i64, but kernel 'k1' indexes in i32 (declare index(i64) on the kernel to index tensors with i64)
// CHECK-NEXT: {{^}}    x[i] = 1.0;
// CHECK-NEXT: {{^}}      ^

kernel k2(x: inout f32[N]) threads(32) index(i16) {
    x[0] = 1.0;
}
// CHECK: err-index-width.cake:15:46: error: index(...) takes one index width, i32 or i64, as in index(i64)

kernel k3(x: inout f32[N]) threads(32) index(i64, i32) {
    x[0] = 1.0;
}
// CHECK: err-index-width.cake:20:40: error: index(...) takes one index width, i32 or i64, as in index(i64)

kernel k4(x: inout f32[N]) threads(32) index(i64) index(i32) {
    x[0] = 1.0;
}
// CHECK: err-index-width.cake:25:51: error: duplicate 'index(...)' clause
// CHECK: err-index-width.cake:25:40: note: the first one is here

kernel k5(x: inout f32[N]) threads(32) index(i64) {
    let u: u32 = 1;
    x[u] = 1.0;
    let q: i32 = N;
    shared s: f32[32];
    let j: i64 = 1;
    s[j] = 1.0;
    x[thread.x] = s[0];
}
// CHECK: err-index-width.cake:33:7: error: index 1 of 'x' must be i32 or i64, found u32
// CHECK: err-index-width.cake:34:18: error: type mismatch in the initializer of 'q': expected i32, found i64
// CHECK: err-index-width.cake:37:7: error: index 1 of 's' is i64, but shared arrays index in i32 (convert with i32(...))
