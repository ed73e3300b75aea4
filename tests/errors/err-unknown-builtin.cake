// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Calling a function that does not exist.
// CHECK: err-unknown-builtin.cake:[[@LINE+5]]:19: error: unknown function 'sine'
// CHECK-NEXT: {{^}}    y[thread.x] = sine(x[thread.x]);
// CHECK-NEXT: {{^}}                  ^

kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    y[thread.x] = sine(x[thread.x]);
}
