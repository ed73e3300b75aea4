// RUN: %cakec --emit=ir %s 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=warning:
// RUN: %cakec --emit=ir -D ROWS=2 %s | FileCheck %s --check-prefix=DEF
// RUN: rm -rf %t && %cakec --emit=host --target sm_90a -o %t %s && FileCheck %s --check-prefix=MAN < %t/manifest.json
// RUN: %cakec --emit=ir %S/Inputs/import-design.cake | FileCheck %s --check-prefix=OWN
// An imported file may hold kernels: its generic kernels come with its fn and const
// declarations, so that this file's entry point can launch an instance of a design written
// in another file; its plain kernels and its instances are compiled with it, not here. A
// constant both files declare with the same type and value is one constant (-D sets it).
// tests/host/entry-import.test runs the entry point's choice.
import "Inputs/import-design.cake";

const ROWS: i32 = 4;

kernel scale<E: f32 | f16>(x: inout E[N], n: i32) threads(64 * ROWS) grid(cdiv(N, 64 * ROWS)) {
    let i = block.x * (64 * ROWS) + thread.x;
    if (i < n) {
        x[i] = E(f32(x[i]) * 3.0);
    }
}

instance design<f32> as scale_small entry scale when (N <= 1024);
instance scale<f32>;
instance scale<f16>;

// IR-NOT: kernel @design_plain
// IR-NOT: kernel @design_own
// IR: kernel @scale_small
// IR: threads 128 1 1
// IR: const 0x1p+1 : f32
// IR: kernel @scale_f32
// IR: threads 256 1 1
// IR: kernel @scale_f16
// IR-NOT: kernel @design
// DEF: kernel @scale_small
// DEF: threads 64 1 1
// MAN: "instances": ["scale_small", "scale_f32", "scale_f16"]
// Compiled on its own, the imported file makes its own kernels.
// OWN: kernel @design_plain
// OWN: kernel @design_own
