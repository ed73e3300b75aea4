// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// All the shared arrays of a kernel together fit in the shared memory of every target it
// is built for (227 KiB, 232448 bytes, on each): smem-layout's rule, reported at the buffer
// that crosses the limit, with the layout table.
// CHECK: err-smem-limit.cake:[[@LINE+10]]:5: error: shared memory of kernel 'k' is 233472 bytes, over the sm_90a/sm_100a/sm_103a limit of 232448
// CHECK-NEXT: {{^}}    shared b: f32[100, 256];
// CHECK-NEXT: {{^}}    ^
// CHECK-NEXT: kernel k: shared memory (sm_90a/sm_100a/sm_103a limit 232448 bytes)
// CHECK: {{^}}  a                0   131072       1       -      16  -
// CHECK-NEXT: {{^}}  b           131072   102400       1       -      16  -
// CHECK-NEXT: {{^}}  total       233472 bytes of 232448

kernel k(y: out f32[4]) threads(256) {
    shared a: f32[128, 256];
    shared b: f32[100, 256];
    a[0, thread.x] = 1.0;
    b[0, thread.x] = a[0, thread.x];
    y[0] = b[0, 0];
}
