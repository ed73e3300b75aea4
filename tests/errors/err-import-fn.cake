// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// An error inside an imported function points at the imported file's line, with the
// call in this file as a note.
import "Inputs/err-import-lib.cake";

kernel k(x: inout f32[N]) threads(32) {
    x[thread.x] = scaled(x[thread.x]);
}
// CHECK: Inputs/err-import-lib.cake:5:24: error: undefined name 'undefined_name'
// CHECK-NEXT: {{^}}    return x * SCALE + undefined_name;
// CHECK-NEXT: {{^}}                       ^
// CHECK-NEXT: err-import-fn.cake:7:19: note: in the call of 'scaled' here
// CHECK-NEXT: {{^}}    x[thread.x] = scaled(x[thread.x]);
// CHECK-NEXT: {{^}}                  ^
