// RUN: %not %cakec -D BLOCK=lots %s 2>&1 | FileCheck --strict-whitespace %s
// -D gives a value of the constant's type, in its range.
// CHECK: err-define-bad-value.cake:[[@LINE+4]]:1: error: -D BLOCK=lots: expected an integer for the i32 constant 'BLOCK'
// CHECK-NEXT: {{^}}const BLOCK: i32 = 128;
// CHECK-NEXT: {{^}}^

const BLOCK: i32 = 128;

kernel k(y: out f32[N]) threads(BLOCK) {
    y[0] = 1.0;
}
