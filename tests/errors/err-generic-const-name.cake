// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A constant generic parameter names an integer constant, not a float constant, a type or
// nothing at all.

const F: f32 = 1.5;
const BIG: i64 = 5000000000;

kernel k<N: i32 = 32>(y: out i32[M]) threads(N) {
    y[thread.x] = 1;
}

instance k<F> as k_float;
instance k<nothing> as k_none;
instance k<BIG> as k_big;
instance k<16> as k_ok;
// CHECK: err-generic-const-name.cake:12:12: error: generic parameter 'N' of 'k' is a i32 constant: 'F' is not an integer constant
// CHECK-NEXT: {{^}}instance k<F> as k_float;
// CHECK-NEXT: {{^}}           ^
// CHECK: err-generic-const-name.cake:13:12: error: generic parameter 'N' of 'k' is a i32 constant: 'nothing' is not an integer constant
// CHECK: err-generic-const-name.cake:14:12: error: generic parameter 'N' of 'k' is a i32 constant: give an integer in its range
