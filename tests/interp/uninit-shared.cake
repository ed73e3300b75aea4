// RUN: %not %builddir/cakec-run %s reverse x=%S/Inputs/f32_100.npy y=%t.npy 2>&1 | FileCheck %s
// RUN: %builddir/cakec-run --no-uninit-check %s reverse x=%S/Inputs/f32_100.npy y=%t.npy
// A planted bug: the tile is filled for i < n only, but every thread reads its mirror
// element, so the threads of the last block read shared memory nobody wrote.

kernel reverse(x: in f32[n], y: out f32[n])
    targets(sm_90a)
    threads(64)
    grid(cdiv(n, 64))
{
    shared t: f32[64];
    let i = block.x * 64 + thread.x;
    if (i < n) {
        t[thread.x] = x[i];
    }
    barrier();
    if (i < n) {
// CHECK: uninit-shared.cake:[[@LINE+1]]:17: error: read of uninitialized shared memory: byte offset 252 (element 63) of shared buffer 't' (64 elements of 4 bytes), which no thread of the block wrote [block (1,0,0), warp 0, lane 0 (thread (0,0,0))]
        y[i] = t[63 - thread.x];
    }
}
