// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A shared array's row-major index is an i32, so it has at most 2^31 - 1 elements; the
// product of its dimensions is checked without overflowing, however large they are.
// CHECK: err-shared-elems.cake:[[@LINE+8]]:5: error: shared array 'a' has more than 2147483647 elements: its indices are i32
// CHECK-NEXT: {{^}}    shared a: f32[65536, 32768];
// CHECK-NEXT: {{^}}    ^
// CHECK: err-shared-elems.cake:[[@LINE+6]]:5: error: shared array 'b' has more than 2147483647 elements: its indices are i32
// CHECK-NEXT: {{^}}    shared b: i8[4611686018427387904, 4611686018427387904, 8];
// CHECK-NOT: error

kernel k(y: out f32[4]) threads(256) {
    shared a: f32[65536, 32768];
    shared b: i8[4611686018427387904, 4611686018427387904, 8];
    shared c: f32[1024];
    c[thread.x] = 1.0;
    y[0] = c[0];
}
