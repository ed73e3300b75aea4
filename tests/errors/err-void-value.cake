// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// barrier() has no value.
// CHECK: err-void-value.cake:[[@LINE+5]]:13: error: 'barrier()' does not produce a value
// CHECK-NEXT: {{^}}    let b = barrier();
// CHECK-NEXT: {{^}}            ^

kernel k(y: out f32[N]) threads(32) {
    let b = barrier();
    y[0] = 0.0;
}
