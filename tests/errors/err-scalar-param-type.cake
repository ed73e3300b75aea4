// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Scalar parameters have a numeric scalar type the launcher can pass (not i1, i8, i16 or fp8).
// CHECK: err-scalar-param-type.cake:[[@LINE+7]]:31: error: a scalar parameter must be i32, i64, u8, u16, u32, u64, f32, f64, f16 or bf16, found i1
// CHECK-NEXT: {{^}}kernel k(y: out f32[N], flag: i1) threads(32) {
// CHECK-NEXT: {{^}}                              ^
// CHECK: err-scalar-param-type.cake:[[@LINE+7]]:28: error: a scalar parameter must be i32, i64, u8, u16, u32, u64, f32, f64, f16 or bf16, found e4m3
// CHECK-NEXT: {{^}}kernel q(y: out f32[N], s: e4m3) threads(32) {
// CHECK-NEXT: {{^}}                           ^

kernel k(y: out f32[N], flag: i1) threads(32) {
    y[0] = 0.0;
}
kernel q(y: out f32[N], s: e4m3) threads(32) {
    y[0] = 0.0;
}
