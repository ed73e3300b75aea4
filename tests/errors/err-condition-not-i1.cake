// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Conditions are i1: an integer must be compared explicitly.
// CHECK: err-condition-not-i1.cake:[[@LINE+5]]:9: error: the condition of 'if' must be i1, found i32 (compare it, as in x != 0)
// CHECK-NEXT: {{^}}    if (n) {
// CHECK-NEXT: {{^}}        ^

kernel k(y: out i32[N], n: i32) threads(32) {
    if (n) {
        y[0] = 1;
    }
}
