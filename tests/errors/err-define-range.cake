// RUN: %not %cakec -D SMALL=200 %s 2>&1 | FileCheck --strict-whitespace %s
// -D values are range-checked for the constant's type.
// CHECK: err-define-range.cake:[[@LINE+4]]:1: error: -D SMALL=200: the value is out of range for i8 (-128 to 127)
// CHECK-NEXT: {{^}}const SMALL: i8 = 4;
// CHECK-NEXT: {{^}}^

const SMALL: i8 = 4;

kernel k(y: out i8[N]) threads(32) {
    y[0] = SMALL;
}
