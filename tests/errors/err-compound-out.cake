// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A compound assignment reads its target: not allowed on an 'out' tensor.
// CHECK: err-compound-out.cake:[[@LINE+5]]:5: error: cannot read 'y': it is an 'out' tensor (declare it 'inout' to read and write it)
// CHECK-NEXT: {{^}}    y[thread.x] += x[thread.x];
// CHECK-NEXT: {{^}}    ^

kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    y[thread.x] += x[thread.x];
}
