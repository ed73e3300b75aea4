// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A builtin called with the wrong number of arguments.
// CHECK: err-builtin-arg-count.cake:[[@LINE+6]]:19: error: 'shfl_xor' takes 2 arguments, found 1
// CHECK-NEXT: {{^}}    y[thread.x] = shfl_xor(v);
// CHECK-NEXT: {{^}}                  ^

kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    let v = x[thread.x];
    y[thread.x] = shfl_xor(v);
}
