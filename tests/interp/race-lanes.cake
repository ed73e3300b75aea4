// RUN: %not %builddir/cakec-run %s rowsum x=%S/Inputs/f32_100.npy out=%t.npy 2>&1 | FileCheck %s
// RUN: %not %builddir/cakec-run %s rowsum_shared x=%S/Inputs/f32_100.npy out=%t.npy 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: %builddir/cakec-run --seeds 3 %s rowsum_xor x=%S/Inputs/f32_100.npy out=%t.npy
// Planted bug: a warp reduction with shfl_down leaves the sum in lane 0 only, and every
// lane stores its partial sum to out[block.x]: the lanes of one store op write different
// values to one address, and which one lands is undefined on the GPU. The interpreter
// reports the op with both lanes. The same to a shared address (SHARED); with shfl_xor
// every lane holds the sum, and equal values from several lanes are no conflict.

kernel rowsum(x: in f32[n], out: out f32[4])
    targets(sm_90a)
    threads(32)
    grid(4)
{
    var v: f32 = x[block.x * 25 + thread.x % 25];
    for (o in 0 .. 5) {
        v += shfl_down(v, 16 >> o);
    }
// CHECK: race-lanes.cake:[[@LINE+1]]:18: error: lanes 0 and 1 of the warp store different values to the same bytes in one store (byte offset {{[0-9]+}} (element [[E:[0-3]]]) of tensor 'out' (4 elements of 4 bytes)): which one lands is undefined [block ([[E]],0,0), warp 0, lanes 0-1]
    out[block.x] = v;
}

kernel rowsum_shared(x: in f32[n], out: out f32[4])
    targets(sm_90a)
    threads(32)
    grid(4)
{
    shared t: f32[1];
    var v: f32 = x[block.x * 25 + thread.x % 25];
    for (o in 0 .. 5) {
        v += shfl_down(v, 16 >> o);
    }
// SHARED: race-lanes.cake:[[@LINE+1]]:10: error: lanes 0 and 1 of the warp store different values to the same bytes in one store (byte offset 0 (element 0) of shared buffer 't' (1 elements of 4 bytes)): which one lands is undefined
    t[0] = v;
    barrier();
    if (thread.x == 0) {
        out[block.x] = t[0];
    }
}

kernel rowsum_xor(x: in f32[n], out: out f32[4])
    targets(sm_90a)
    threads(32)
    grid(4)
{
    var v: f32 = x[block.x * 25 + thread.x % 25];
    for (o in 0 .. 5) {
        v += shfl_xor(v, 16 >> o);
    }
    out[block.x] = v;
}
