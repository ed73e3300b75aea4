// RUN: %not %builddir/cakec-run %s shifted x=%S/Inputs/f32_100.npy y=%t.npy 2>&1 | FileCheck %s
// A planted bug: a 4-wide vector load that starts one element past a 16-byte boundary.
// The GPU faults on it (misaligned address); the interpreter reports it.

kernel shifted(x: in f32[n], y: out f32[n])
    targets(sm_90a)
    threads(32)
    grid(1)
{
    let i = thread.x * 4 + 1;
    if (i + 4 <= n) {
// CHECK: misaligned.cake:[[@LINE+1]]:18: error: misaligned load of 16 bytes at byte offset 4 of tensor 'x' (100 elements of 4 bytes) (needs 16-byte alignment) [block (0,0,0), warp 0, lane 0 (thread (0,0,0))]
        let v = x[i : 4];
        y[i] = v.x + v.y + v.z + v.w;
    }
}
