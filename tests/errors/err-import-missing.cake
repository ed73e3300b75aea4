// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// RUN: %not %cakec -I %S/Inputs %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A file that is not there, neither beside this one nor in any -I folder.
import "Inputs/err-import-none.cake";

kernel k(x: inout f32[N]) threads(32) {
    x[thread.x] = 1.0;
}
// CHECK: err-import-missing.cake:4:8: error: cannot open imported file 'Inputs/err-import-none.cake': No such file or directory
// CHECK-NEXT: {{^}}import "Inputs/err-import-none.cake";
// CHECK-NEXT: {{^}}       ^
