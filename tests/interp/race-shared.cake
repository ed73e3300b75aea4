// RUN: %not %builddir/cakec-run %s mirror x=%S/Inputs/f32_100.npy y=%t.npy 2>&1 | FileCheck %s
// RUN: %builddir/cakec-run --no-race-check %s mirror x=%S/Inputs/f32_100.npy y=%t.npy
// RUN: %not %builddir/cakec-run --seed 5 %s mirror x=%S/Inputs/f32_100.npy y=%t.npy 2>&1 | FileCheck %s
// A planted bug: the barrier between the tile's second fill and the reads of the other
// half is missing. Whichever warp runs first, the other one's store hits bytes it read in
// the same barrier interval: a data race, whatever the schedule.

kernel mirror(x: in f32[n], y: out f32[n])
    targets(sm_90a)
    threads(64)
    grid(cdiv(n, 64))
{
    shared t: f32[64];
    let i = block.x * 64 + thread.x;
    t[thread.x] = 0.0;
    barrier();
    if (i < n) {
// CHECK: race-shared.cake:[[@LINE+1]]:21: error: data race on shared memory: this store by warp [[W:[01]]] and the load at line [[@LINE+4]]:17 by warp {{[01]}} touch byte offset {{[0-9]+}} (element {{[0-9]+}}) of shared buffer 't' (64 elements of 4 bytes) with no barrier between them [block ({{[01]}},0,0), warp [[W]], lane
        t[thread.x] = x[i];
    }
    if (i < n) {
        y[i] = t[63 - thread.x];
    }
}
