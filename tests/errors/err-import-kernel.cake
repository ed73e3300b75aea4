// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// An imported file contributes fn and const declarations; a kernel (or instance) in it is
// an error at the kernel, with a note at the import.
import "Inputs/err-import-kernel.cake";

kernel k(x: inout f32[N]) threads(32) {
    x[thread.x] = C;
}
// CHECK: Inputs/err-import-kernel.cake:4:8: error: an imported file holds only 'fn' and 'const' declarations: kernel 'other' cannot be imported
// CHECK-NEXT: {{^}}kernel other(x: inout f32[N]) threads(32) {
// CHECK-NEXT: {{^}}       ^
// CHECK-NEXT: err-import-kernel.cake:4:8: note: '{{.*}}Inputs/err-import-kernel.cake' is imported here
// CHECK: Inputs/err-import-kernel.cake:8:8: error: an imported file holds only 'fn' and 'const' declarations: kernel 'gen' cannot be imported
// CHECK: err-import-kernel.cake:4:8: note: '{{.*}}Inputs/err-import-kernel.cake' is imported here
// CHECK: Inputs/err-import-kernel.cake:12:10: error: an imported file holds only 'fn' and 'const' declarations: instance 'gen' cannot be imported
// CHECK: err-import-kernel.cake:4:8: note: '{{.*}}Inputs/err-import-kernel.cake' is imported here
