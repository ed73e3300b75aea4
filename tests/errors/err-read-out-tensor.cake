// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// An 'out' tensor is write only.
// CHECK: err-read-out-tensor.cake:[[@LINE+5]]:13: error: cannot read 'y': it is an 'out' tensor (declare it 'inout' to read and write it)
// CHECK-NEXT: {{^}}    let v = y[thread.x];
// CHECK-NEXT: {{^}}            ^

kernel k(y: out f32[N]) threads(32) {
    let v = y[thread.x];
    y[thread.x] = v * 2.0;
}
