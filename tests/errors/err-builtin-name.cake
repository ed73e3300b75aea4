// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Builtin names cannot be redeclared.
// CHECK: err-builtin-name.cake:[[@LINE+5]]:5: error: 'lane' is a builtin name and cannot be redefined
// CHECK-NEXT: {{^}}    let lane = thread.x % 32;
// CHECK-NEXT: {{^}}    ^

kernel k(y: out i32[N]) threads(32) {
    let lane = thread.x % 32;
    y[0] = lane;
}
