// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// All the shared arrays of a kernel together fit in 227 KiB (232448 bytes).
// CHECK: err-smem-limit.cake:[[@LINE+6]]:5: error: shared arrays of kernel 'k' need 233472 bytes, over the limit of 232448 bytes (227 KiB)
// CHECK-NEXT: {{^}}    shared b: f32[100, 256];
// CHECK-NEXT: {{^}}    ^

kernel k(y: out f32[4]) threads(256) {
    shared a: f32[128, 256];
    shared b: f32[100, 256];
    a[0, thread.x] = 1.0;
    b[0, thread.x] = a[0, thread.x];
    y[0] = b[0, 0];
}
