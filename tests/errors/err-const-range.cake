// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A literal takes the declared type only if its value fits.
// CHECK: err-const-range.cake:[[@LINE+5]]:17: error: constant 300 overflows i8
// CHECK-NEXT: {{^}}    let x: i8 = 300;
// CHECK-NEXT: {{^}}                ^

kernel k(y: out i8[4]) threads(4) {
    let x: i8 = 300;
    y[0] = x;
}
