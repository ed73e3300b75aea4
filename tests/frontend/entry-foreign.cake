// RUN: rm -rf %t && %cakec --emit=ptx,host --ptx-only --target sm_90a -o %t %s 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG --implicit-check-not=error:
// RUN: FileCheck %s --check-prefix=MAN < %t/manifest.json
// RUN: %not ls %t/scale_f32.c
// An entry point whose instances all come from other kernels (here an imported design, as
// tests/frontend/import-kernel.cake's): its own generic kernel needs no instance, it
// declares the entry point (its name and parameters), and its body is not compiled.
import "Inputs/import-design.cake";

kernel scale<E: f32 | f16>(x: inout E[N], n: i32) threads(32) grid(cdiv(N, 32)) {
    let i = block.x * 32 + thread.x;
    if (i < n) {
        x[i] = E(f32(x[i]) * 3.0);
    }
}

instance design<f32> as scale_design entry scale;
// DIAG-NOT: warning
// MAN: "instances": ["scale_design"]
