// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// An imported file's plain kernels and instances stay its own: this file cannot name them.
// A constant it declares again must have the same type and value; an entry point this file
// makes of an imported generic kernel follows the usual rules (tests/frontend/import-kernel.cake).
import "Inputs/err-import-kernel.cake";

const W: i32 = 64;
const C: f64 = 1.0;

kernel k(x: inout f32[N]) threads(32) {
    x[thread.x] = f32(C);
}

instance other<f32> as mine;
instance gen<f32> as gen_mine;
// CHECK: err-import-kernel.cake:7:1: error: constant 'W' is declared in two files with a different value: the same name must be the same constant
// CHECK-NEXT: {{^}}const W: i32 = 64;
// CHECK-NEXT: {{^}}^
// CHECK-NEXT: Inputs/err-import-kernel.cake:3:1: note: 'W' is first declared here
// CHECK: err-import-kernel.cake:8:1: error: constant 'C' is declared in two files with a different type: the same name must be the same constant
// CHECK: Inputs/err-import-kernel.cake:2:1: note: 'C' is first declared here
// CHECK: err-import-kernel.cake:14:10: error: there is no kernel named 'other'
