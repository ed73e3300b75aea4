// RUN: cp %S/Inputs/f32_100.npy %t.x.npy
// RUN: %not %builddir/cakec-run %s smooth x=%t.x.npy n=100 2>&1 | FileCheck %s
// RUN: %not %builddir/cakec-run --seed 3 %s smooth x=%t.x.npy n=100 2>&1 | FileCheck %s
// RUN: %builddir/cakec-run --no-global-race-check %s smooth x=%t.x.npy n=100
// RUN: python3 %S/Inputs/npy.py make %t.h.npy '<i4' 4 '0'
// RUN: %builddir/cakec-run --seeds 4 %s count x=%S/Inputs/f32_100.npy hist=%t.h.npy total=%t.t.npy mode=0
// RUN: %not %builddir/cakec-run %s count x=%S/Inputs/f32_100.npy hist=%t.h.npy total=%t.t.npy mode=1 2>&1 | FileCheck %s --check-prefix=ATOMIC
// Races on global memory: two accesses to one element of an out or inout tensor, at
// least one a write, by threads that nothing orders: warps of one block with no barrier
// between them, or different blocks of the launch (blocks are never ordered).
// Planted bug: an in-place smoothing pass in which each thread writes its element and then
// reads its right neighbour, which the next thread (at a block's edge: the next block)
// writes; which value it reads depends on the schedule. The interpreter reports the
// second access of the pair (the store at a block's first element or the load of the
// previous block's last thread), whichever order the blocks run in.

kernel smooth(x: inout f32[n])
    targets(sm_90a)
    threads(32)
    grid(cdiv(n, 32))
{
    let i = block.x * 32 + thread.x;
    if (i < n) {
        x[i] = x[i] * 0.5;
    }
    if (i + 1 < n && thread.x == 31) {
// CHECK: race-global.cake:{{[0-9]+:[0-9]+}}: error: data race on global memory: this {{load|store}} and the {{load|store}} at line {{[0-9]+}}:{{[0-9]+}} (block ({{[0-3]}},0,0), warp 0, lane {{0|31}}) touch element {{32|64|96}} of tensor 'x' (100 elements of 4 bytes) from different blocks, which nothing orders [block ({{[0-3]}},0,0), warp 0, lane
        x[i] = x[i] + x[i + 1] * 0.25;
    }
}

// Atomics do not race with atomics: every block adds to the histogram (mode 0, clean under
// every seed). Planted bug (mode 1): thread 0 of each block also reads bin 0 with a plain
// load to total it, while other blocks still add to it.
kernel count(x: in f32[n], hist: inout i32[4], total: out i32[4], mode: i32)
    targets(sm_90a)
    threads(32)
    grid(cdiv(n, 32))
{
    let i = block.x * 32 + thread.x;
    if (i < n) {
        atomic_add(hist[i % 4], 1);
    }
    barrier();
    if (mode == 1 && thread.x == 0) {
// ATOMIC: race-global.cake:{{[0-9]+:[0-9]+}}: error: data race on global memory: this {{load|atomic}} and the {{atomic|load}} at line {{[0-9]+:[0-9]+}} (block ({{[0-3]}},0,0), warp 0, lane {{[0-9]+}}) touch element 0 of tensor 'hist' (4 elements of 4 bytes) from different blocks, which nothing orders
        total[block.x] = hist[0];
    }
}
