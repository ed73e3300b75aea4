// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Comparisons do not chain.
// CHECK: err-chained-compare.cake:[[@LINE+5]]:16: error: syntax error, unexpected '<'
// CHECK-NEXT: {{^}}    if (0 <= a < 10) {
// CHECK-NEXT: {{^}}               ^

kernel k(y: out i32[N], a: i32) threads(32) {
    if (0 <= a < 10) {
        y[0] = a;
    }
}
