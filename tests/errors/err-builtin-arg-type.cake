// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Shuffles move 32-bit scalars; an f64 is rejected.
// CHECK: err-builtin-arg-type.cake:[[@LINE+6]]:29: error: argument 1 of 'shfl_down' must be a 32-bit scalar (i32, u32 or f32), found f64
// CHECK-NEXT: {{^}}    y[thread.x] = shfl_down(v, 1);
// CHECK-NEXT: {{^}}                            ^

kernel k(x: in f64[N], y: out f64[N]) threads(32) {
    let v = x[thread.x];
    y[thread.x] = shfl_down(v, 1);
}
