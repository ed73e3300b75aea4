// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Scalar parameters have a numeric scalar type the launcher can pass.
// CHECK: err-scalar-param-type.cake:[[@LINE+4]]:31: error: a scalar parameter must be i32, i64, u32, u64, f32, f64, f16 or bf16, found i1
// CHECK-NEXT: {{^}}kernel k(y: out f32[N], flag: i1) threads(32) {
// CHECK-NEXT: {{^}}                              ^

kernel k(y: out f32[N], flag: i1) threads(32) {
    y[0] = 0.0;
}
