// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A constant defined in the importing and the imported file is a redefinition.
import "Inputs/err-import-lib.cake";

const SCALE: f32 = 3.0;

kernel k(x: inout f32[N]) threads(32) {
    x[thread.x] = SCALE;
}
// CHECK: err-import-redef.cake:5:1: error: redefinition of 'SCALE'
// CHECK-NEXT: {{^}}const SCALE: f32 = 3.0;
// CHECK-NEXT: {{^}}^
// CHECK-NEXT: Inputs/err-import-lib.cake:2:1: note: 'SCALE' was first declared here as a constant
