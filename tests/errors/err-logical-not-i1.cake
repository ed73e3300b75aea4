// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// && and || take i1 operands.
// CHECK: err-logical-not-i1.cake:[[@LINE+5]]:11: error: operands of '&&' must be i1, found i32
// CHECK-NEXT: {{^}}    if (a && b) {
// CHECK-NEXT: {{^}}          ^

kernel k(y: out i32[N], a: i32, b: i32) threads(32) {
    if (a && b) {
        y[0] = a;
    }
}
