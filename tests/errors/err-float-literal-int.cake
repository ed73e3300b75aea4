// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A float literal does not become an integer implicitly.
// CHECK: err-float-literal-int.cake:[[@LINE+5]]:18: error: cannot use the float constant 1.5 as i32 (convert it with i32(...))
// CHECK-NEXT: {{^}}    let n: i32 = 1.5;
// CHECK-NEXT: {{^}}                 ^

kernel k(y: out i32[N]) threads(32) {
    let n: i32 = 1.5;
    y[0] = n;
}
