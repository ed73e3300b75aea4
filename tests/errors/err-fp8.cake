// RUN: %not %cakec %s 2>&1 | FileCheck %s
// e4m3 and e5m2 are storage types: no arithmetic, comparison or literal on them, and they
// convert only to and from f16, bf16 and f32 (not integers, f64 or the other fp8 format);
// constants cannot have an fp8 type.
// CHECK: err-fp8.cake:[[@LINE+32]]:10: error: a constant cannot be e4m3 (a storage type): make it f32 and convert where it is stored
// CHECK: err-fp8.cake:[[@LINE+32]]:11: error: a constant cannot be e5m2 (a storage type): make it f32 and convert where it is stored
// CHECK: err-fp8.cake:[[@LINE+16]]:18: error: operator '+' does not apply to e4m3 (convert e4m3 to f16, bf16 or f32 first)
// CHECK: err-fp8.cake:[[@LINE+16]]:13: error: operator '-' does not apply to e5m2 (convert e5m2 to f16, bf16 or f32 first)
// CHECK: err-fp8.cake:[[@LINE+16]]:10: error: operator '+=' does not apply to e4m3 (convert e4m3 to f16, bf16 or f32 first)
// CHECK: err-fp8.cake:[[@LINE+16]]:13: error: 'min' does not apply to e4m3 (convert e4m3 to f16, bf16 or f32 first)
// CHECK: err-fp8.cake:[[@LINE+16]]:18: error: the argument of 'abs' must be a signed integer or a float, found e5m2 (convert e5m2 to f16, bf16 or f32 first)
// CHECK: err-fp8.cake:[[@LINE+16]]:18: error: operator '<' does not apply to e4m3 (convert e4m3 to f16, bf16 or f32 first)
// CHECK: err-fp8.cake:[[@LINE+16]]:12: error: cannot use the constant 1.5 as e4m3 (convert it with e4m3(...))
// CHECK: err-fp8.cake:[[@LINE+16]]:12: error: cannot convert i32 to e5m2: fp8 converts only to and from f16, bf16 and f32
// CHECK: err-fp8.cake:[[@LINE+16]]:12: error: cannot convert e4m3 to e5m2: fp8 converts only to and from f16, bf16 and f32
// CHECK: err-fp8.cake:[[@LINE+16]]:12: error: cannot convert f64 to e4m3: fp8 converts only to and from f16, bf16 and f32
// CHECK: err-fp8.cake:[[@LINE+16]]:13: error: cannot convert e5m2 to i32: fp8 converts only to and from f16, bf16 and f32
// CHECK: err-fp8.cake:[[@LINE+16]]:16: error: cannot convert e5m2x2 to e4m3x2: fp8 converts only to and from f16, bf16 and f32
// CHECK: err-fp8.cake:[[@LINE+16]]:23: error: cannot use the constant 0.5 as e4m3 (convert it with e4m3(...))

kernel k(a: inout e4m3[N], b: inout e5m2[N], x: in f32[N], d: in f64[N]) threads(32) {
    let i = thread.x;
    let p = a[i] + a[i];
    let n = -b[i];
    a[i] += a[i];
    let m = min(a[i], a[i]);
    let q = abs(b[i]);
    let c = a[i] < a[i];
    a[i] = 1.5;
    b[i] = e5m2(i);
    b[i] = e5m2(a[i]);
    a[i] = e4m3(d[i]);
    let w = i32(b[i]);
    a[i : 2] = e4m3x2(b[i : 2]);
    a[i : 2] = e4m3x2(0.5);
}
const Z: e4m3 = e4m3(1.0);
const Y = e5m2(2.0);
