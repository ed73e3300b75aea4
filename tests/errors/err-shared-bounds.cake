// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A constant index past a shared array's dimension is caught at compile time.
// CHECK: err-shared-bounds.cake:[[@LINE+8]]:16: error: index 1 of 'acc' is out of bounds: 32, but the dimension has size 32
// CHECK-NEXT: {{^}}    y[0] = acc[32];
// CHECK-NEXT: {{^}}               ^

kernel k(y: out f32[N]) threads(32) {
    shared acc: f32[32];
    acc[thread.x] = 1.0;
    barrier();
    y[0] = acc[32];
}
