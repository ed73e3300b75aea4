// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// RUN: %not %cakec %S/Inputs/err-import-self.cake 2>&1 | FileCheck %s --check-prefix=SELF --implicit-check-not=error:
// An import cycle is an error at the import that closes it, naming the chain.
import "Inputs/err-import-cycle-a.cake";

kernel k(x: inout f32[N]) threads(32) {
    x[thread.x] = a(1.0);
}
// CHECK: Inputs/err-import-cycle-b.cake:1:8: error: import cycle: '{{.*}}Inputs/err-import-cycle-a.cake' imports '{{.*}}Inputs/err-import-cycle-b.cake' imports '{{.*}}Inputs/err-import-cycle-a.cake'
// CHECK-NEXT: {{^}}import "err-import-cycle-a.cake";
// CHECK-NEXT: {{^}}       ^
// SELF: err-import-self.cake:2:8: error: import cycle: '{{.*}}err-import-self.cake' imports '{{.*}}err-import-self.cake'
