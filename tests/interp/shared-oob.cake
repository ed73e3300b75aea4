// RUN: %not %builddir/cakec-run %s neighbours x=%S/Inputs/f32_100.npy y=%t.npy 2>&1 | FileCheck %s
// A planted bug: every thread reads its right neighbour from the shared tile, the last
// thread one past its end.

kernel neighbours(x: in f32[n], y: out f32[n])
    targets(sm_90a)
    threads(64)
    grid(cdiv(n, 64))
{
    shared t: f32[64];
    let i = block.x * 64 + thread.x;
    t[thread.x] = i < n ? x[min(i, n - 1)] : 0.0;
    barrier();
    if (i < n) {
// CHECK: shared-oob.cake:[[@LINE+1]]:31: error: out-of-bounds load of 4 bytes at byte offset 256 (element 64) of shared buffer 't' (64 elements of 4 bytes) [block (0,0,0), warp 1, lane 31 (thread (63,0,0))]
        y[i] = t[thread.x] + t[thread.x + 1];
    }
}
