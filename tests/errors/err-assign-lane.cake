// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Vector lanes are read only: build a new vector instead.
// CHECK: err-assign-lane.cake:[[@LINE+6]]:7: error: cannot assign to one lane of a vector; build a new vector instead
// CHECK-NEXT: {{^}}    v.y = 1.0;
// CHECK-NEXT: {{^}}      ^

kernel k(y: out f32[N]) threads(32) {
    var v = f32x4(0.0);
    v.y = 1.0;
    y[0 : 4] = v;
}
