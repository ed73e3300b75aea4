// RUN: %not %builddir/cakec-run %s chunks x=%S/Inputs/f32_100.npy chunk=0 2>&1 | FileCheck %s
// The grid formula divides by a scalar argument that is 0: the launcher's rule (an error,
// not a crash) reported by the interpreter's launch.

kernel chunks(x: inout f32[n], chunk: i32)
    targets(sm_90a)
    threads(32)
    grid(cdiv(n, chunk))
{
    x[0] = 1.0;
}
// CHECK: grid-error.cake: error: kernel 'chunks': grid formula "cdiv(n, chunk)" at offset {{[0-9]+}}: division by zero or int64 overflow
