// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A name that was never declared.
// CHECK: err-undefined-name.cake:[[@LINE+5]]:13: error: undefined name 'z'
// CHECK-NEXT: {{^}}    let x = z + 1;
// CHECK-NEXT: {{^}}            ^

kernel k(y: out i32[4]) threads(4) {
    let x = z + 1;
    y[0] = x;
}
