// RUN: %cakec -I %S/Inputs/import-inc --emit=ir %s 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=warning:
// RUN: %cakec -I %S/Inputs/import-inc -D SCALE=4.0 -D BIAS=0.25 --emit=ir %s | FileCheck %s --check-prefix=DEF
// RUN: %cakec -I %S/Inputs/import-inc --target sm_90a %s | FileCheck %s --check-prefix=PTX
// RUN: %cakec -I %S/Inputs/import-inc --emit=ast %s | FileCheck %s --check-prefix=AST
// RUN: %not %cakec %s 2>&1 | FileCheck %s --check-prefix=NOINC
// import: the imported files' functions and constants join this file's scope; a file
// imported twice (directly and through import-math.cake) is read once; -D reaches the
// imported constants; -I DIR is searched after this file's folder.
import "Inputs/import-math.cake";
import "Inputs/import-math2.cake";
import "import-inc.cake";

kernel k(x: in f16[N], y: out f32[N]) threads(32) grid(1) {
    y[thread.x] = square(biased(scaled(x[thread.x])));
}
// IR: kernel @k
// IR: [[X:%[0-9]+]] = load[1] {{.*}} : f16
// IR-NEXT: [[F:%[0-9]+]] = cast [[X]] : f32
// IR-NEXT: [[S:%[0-9]+]] = const 0x1p+1 : f32
// IR-NEXT: [[B:%[0-9]+]] = const 0x1p-1 : f32
// IR-NEXT: [[A:%[0-9]+]] = fma [[F]], [[S]], [[B]] : f32
// IR-NEXT: [[Q:%[0-9]+]] = mul [[A]], [[A]] : f32
// IR-NEXT: store {{.*}}, [[Q]]
// DEF: const 0x1p+2 : f32
// DEF: const 0x1p-2 : f32
// PTX: .visible .entry k_{{[0-9a-f]+}}(
// PTX-NOT: call
// PTX: ret;
// The AST holds the imported declarations in the import's place, in the order read.
// AST: program
// AST-NEXT: const BIAS
// AST: fn biased
// AST: const SCALE
// AST: fn scaled
// AST: fn unused
// AST: fn square
// AST: kernel k
// NOINC: import.cake:11:8: error: cannot open imported file 'import-inc.cake': No such file or directory
