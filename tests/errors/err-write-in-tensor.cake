// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// An 'in' tensor is read only.
// CHECK: err-write-in-tensor.cake:[[@LINE+5]]:5: error: cannot write to 'x': it is an 'in' tensor (declare it 'inout' to read and write it)
// CHECK-NEXT: {{^}}    x[thread.x] = 0.0;
// CHECK-NEXT: {{^}}    ^

kernel k(x: in f32[N]) threads(32) {
    x[thread.x] = 0.0;
}
