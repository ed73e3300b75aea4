// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Kernel names are unique within a file.
// CHECK: err-duplicate-kernel.cake:[[@LINE+11]]:8: error: duplicate kernel 'copy'
// CHECK-NEXT: {{^}}kernel copy(x: in i32[N], y: out i32[N]) threads(32) {
// CHECK-NEXT: {{^}}       ^
// CHECK: err-duplicate-kernel.cake:[[@LINE+4]]:8: note: the first kernel 'copy' is here
// CHECK-NEXT: {{^}}kernel copy(x: in f32[N], y: out f32[N]) threads(32) {
// CHECK-NEXT: {{^}}       ^

kernel copy(x: in f32[N], y: out f32[N]) threads(32) {
    y[thread.x] = x[thread.x];
}

kernel copy(x: in i32[N], y: out i32[N]) threads(32) {
    y[thread.x] = x[thread.x];
}
