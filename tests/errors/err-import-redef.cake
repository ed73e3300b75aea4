// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A constant defined in the importing and the imported file with another value is an error
// (with the same type and value it would be the same constant).
import "Inputs/err-import-lib.cake";

const SCALE: f32 = 3.0;

kernel k(x: inout f32[N]) threads(32) {
    x[thread.x] = SCALE;
}
// CHECK: err-import-redef.cake:6:1: error: constant 'SCALE' is declared in two files with a different value: the same name must be the same constant
// CHECK-NEXT: {{^}}const SCALE: f32 = 3.0;
// CHECK-NEXT: {{^}}^
// CHECK-NEXT: Inputs/err-import-lib.cake:2:1: note: 'SCALE' is first declared here
