// RUN: %not %builddir/cakec-run %s scale x=%S/Inputs/f32_100.npy n=100 2>&1 | FileCheck %s
// A planted bug: the bounds check compares with the wrong limit, so the last block's
// threads past n store out of bounds. The interpreter reports the first such store at
// its source line, with the block, warp and lane.

kernel scale(x: inout f32[n])
    targets(sm_90a)
    threads(64)
    grid(cdiv(n, 64))
{
    let i = block.x * 64 + thread.x;
    if (i < n + 1) {
// CHECK: oob-store.cake:[[@LINE+1]]:14: error: out-of-bounds store of 4 bytes at byte offset 400 (element 100) of tensor 'x' (100 elements of 4 bytes) [block (1,0,0), warp 1, lane 4 (thread (36,0,0))]
        x[i] = 0.0;
    }
}
