// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A 'let' binding is immutable.
// CHECK: err-assign-let.cake:[[@LINE+6]]:5: error: cannot assign to 'count': it is a 'let' binding (declare it with 'var' to change it)
// CHECK-NEXT: {{^}}    count += 1;
// CHECK-NEXT: {{^}}    ^

kernel k(y: out i32[N]) threads(32) {
    let count = 0;
    count += 1;
    y[0] = count;
}
