// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A name declared twice where both are visible (shadowing is not allowed either), with a note
// at the first declaration.
// CHECK: err-redefinition.cake:[[@LINE+10]]:9: error: redefinition of 't'
// CHECK-NEXT: {{^}}        var t = 0;
// CHECK-NEXT: {{^}}        ^
// CHECK: err-redefinition.cake:[[@LINE+5]]:5: note: 't' was first declared here as a 'let' binding
// CHECK-NEXT: {{^}}    let t = thread.x;
// CHECK-NEXT: {{^}}    ^

kernel k(y: out i32[4]) threads(4) {
    let t = thread.x;
    if (t < 4) {
        var t = 0;
        y[t] = t;
    }
}
