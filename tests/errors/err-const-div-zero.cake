// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Constant expressions are evaluated exactly; division by zero is an error.
// CHECK: err-const-div-zero.cake:[[@LINE+5]]:20: error: division by zero in a constant expression
// CHECK-NEXT: {{^}}const PER: i32 = N / (N - 8);
// CHECK-NEXT: {{^}}                   ^

const N: i32 = 8;
const PER: i32 = N / (N - 8);

kernel k(y: out i32[4]) threads(4) {
    y[0] = PER;
}
