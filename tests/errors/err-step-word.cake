// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// After a for loop's bounds comes 'step' or ')'.
// CHECK: err-step-word.cake:[[@LINE+5]]:22: error: expected 'step' or ')' after the loop bounds, found 'by'
// CHECK-NEXT: {{^}}    for (i in 0 .. N by 2) {
// CHECK-NEXT: {{^}}                     ^

kernel k(y: out f32[N]) threads(32) {
    for (i in 0 .. N by 2) {
        y[i] = 1.0;
    }
}
