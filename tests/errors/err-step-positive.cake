// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A constant for-loop step must be positive.
// CHECK: err-step-positive.cake:[[@LINE+5]]:28: error: the step of a for loop must be positive, found -1
// CHECK-NEXT: {{^}}    for (i in 10 .. 0 step -1) {
// CHECK-NEXT: {{^}}                           ^

kernel k(y: out i32[N]) threads(32) {
    for (i in 10 .. 0 step -1) {
        y[i] = i;
    }
}
