// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Only calls can be statements.
// CHECK: err-expr-statement.cake:[[@LINE+6]]:7: error: this expression does nothing; only calls can be statements
// CHECK-NEXT: {{^}}    a * 2.0;
// CHECK-NEXT: {{^}}      ^

kernel k(y: out f32[N]) threads(32) {
    let a = 1.0;
    a * 2.0;
    y[0] = a;
}
